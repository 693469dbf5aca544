import { describePostgres } from '../../helpers/postgres.js';
import { teamsScenarios } from './support/scenarios.js';
import { memoryKind, postgresKind, sqliteKind } from './support/store-kinds.js';

teamsScenarios('memory', memoryKind, { watches: false });
teamsScenarios('SQLite', sqliteKind, { watches: true });
await describePostgres('PostgreSQL', (url) =>
  teamsScenarios('PostgreSQL', postgresKind(url), { watches: true }),
);
