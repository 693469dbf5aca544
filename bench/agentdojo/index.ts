// `npm run bench:agentdojo -- [--data DIR]`: AgentDojo v1 replayed through the built package with a
// worst-case model (see README, "AgentDojo"). Prints a table per suite and a last `SUMMARY {json}`.
import { resolve } from 'node:path';
import { DEFAULT_DATA_DIR } from './data.js';
import { runAgentDojo } from './harness.js';
import { formatTable, summaryLine } from './report.js';

const flag = process.argv.indexOf('--data');
const dataDir = flag === -1 ? DEFAULT_DATA_DIR : resolve(process.argv[flag + 1] ?? DEFAULT_DATA_DIR);

const { bySuite, total } = await runAgentDojo(dataDir);
console.log(`AgentDojo v1 · worst-case model · data ${dataDir}`);
for (const line of formatTable({ ...bySuite, all: total })) console.log(line);
console.log(summaryLine(total, bySuite));
