import { describeScriptRuntime } from './script-runtime.js';

await describeScriptRuntime({
  name: 'deno',
  title: 'Deno 2.9',
  sqlite: 'node:sqlite',
  args: (file) => ['run', '--allow-all', '--no-prompt', file],
});
