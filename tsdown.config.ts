import { defineConfig } from 'tsdown';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    store: 'src/stores/index.ts',
    // The contract suite imports vitest, an optional peer: external, and loaded by this entry alone.
    testing: 'src/testing/index.ts',
    sqlite: 'src/stores/sqlite.ts',
    postgres: 'src/stores/postgres.ts',
    d1: 'src/stores/d1.ts',
    openai: 'src/adapters/openai.ts',
    anthropic: 'src/adapters/anthropic.ts',
    gemini: 'src/adapters/gemini.ts',
    'ai-sdk': 'src/adapters/ai-sdk.ts',
    mcp: 'src/adapters/mcp.ts',
    'openai-agents': 'src/adapters/openai-agents.ts',
    langchain: 'src/adapters/langchain.ts',
    mastra: 'src/adapters/mastra.ts',
    console: 'src/console/index.ts',
    'mcp-server': 'src/adapters/mcp-server.ts',
    notify: 'src/notify/index.ts',
    opentelemetry: 'src/telemetry/opentelemetry.ts',
    dbos: 'src/integrations/dbos/index.ts',
    cedar: 'src/integrations/cedar/index.ts',
    passkeys: 'src/integrations/passkeys/index.ts',
    slack: 'src/integrations/slack/index.ts',
    teams: 'src/integrations/teams/index.ts',
    // What package.json `imports` maps `#ajv-engine` to: Ajv's loader, or under workerd/worker a refusal.
    'ajv-engine': 'src/validation/ajv-engine.ts',
    'ajv-engine.workerd': 'src/validation/ajv-engine.workerd.ts',
    // The `graded-tools` bin; its `#!/usr/bin/env node` line is kept and the file made executable.
    cli: 'src/cli/index.ts',
  },
  format: 'esm',
  platform: 'node',
  target: 'node20',
  dts: true,
  // `#ajv-engine` stays an import, resolved by the consumer's runtime or bundler by condition.
  deps: { onlyBundle: ['@standard-schema/spec'], neverBundle: ['#ajv-engine'] },
  clean: true,
  sourcemap: true,
});
