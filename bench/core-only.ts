// `npm run build && tsx --tsconfig bench/tsconfig.json bench/core-only.ts`: the core benchmark alone
// (the model exit against the bare path and agents-core, then the registry's scaling).
import { benchCore } from './core.js';

for (const line of await benchCore()) console.log(line);
