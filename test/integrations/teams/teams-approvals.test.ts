import { describePostgres } from '../../helpers/postgres.js';
import { teamsScenarios } from './support/scenarios.js';
import { memoryKind, postgresKind, sqliteKind } from './support/store-kinds.js';

teamsScenarios('memory', memoryKind);
teamsScenarios('SQLite', sqliteKind);
await describePostgres('PostgreSQL', (url) => teamsScenarios('PostgreSQL', postgresKind(url)));
