// `npm run bench`: every benchmark of the project, against the built package, one after another.
import { benchCore } from './core.js';

console.log(`graded-tools benchmark · Node ${process.version} · ${new Date().toISOString()}`);
for (const line of await benchCore()) console.log(line);
