// `npm run bench`: every benchmark of the project, against the built package, one after another.
// `npm run bench -- --quick` runs shorter rounds.
import { benchAudit } from './audit.js';
import { benchConfirm } from './confirm.js';
import { benchCore } from './core.js';
import { benchIdentifiers } from './identifiers.js';
import { benchImportCost } from './import-cost.js';
import { benchInbox } from './inbox.js';
import { benchMcp } from './mcp.js';
import { benchNotify } from './notify.js';
import { benchRules } from './rules.js';
import { benchRuns } from './runs.js';
import { benchSql } from './sql.js';
import { benchTelemetry } from './telemetry.js';
import { benchValidation } from './validation.js';

const quick = process.argv.includes('--quick');
console.log(`graded-tools benchmark · Node ${process.version} · ${new Date().toISOString()}`);
for (const line of await benchImportCost({ quick })) console.log(line);
for (const line of await benchCore()) console.log(line);
for (const line of await benchTelemetry({ quick })) console.log(line);
for (const line of await benchValidation({ quick })) console.log(line);
for (const line of await benchMcp({ quick })) console.log(line);
for (const line of await benchNotify({ quick })) console.log(line);
await benchConfirm({ quick });
await benchSql({ quick });
await benchAudit({ quick });
await benchRules({ quick });
for (const line of await benchRuns({ quick })) console.log(line);
for (const line of await benchIdentifiers({ quick })) console.log(line);
await benchInbox({ quick });
