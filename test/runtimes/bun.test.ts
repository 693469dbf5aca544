import { describeScriptRuntime } from './script-runtime.js';

await describeScriptRuntime({ name: 'bun', title: 'Bun 1.4', sqlite: 'bun:sqlite', args: (file) => [file] });
