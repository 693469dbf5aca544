#!/usr/bin/env node
import { main } from './main.js';

const code = await main(process.argv.slice(2), {
  cwd: process.cwd(),
  out: (line) => process.stdout.write(`${line}\n`),
  error: (line) => process.stderr.write(`${line}\n`),
});
// A server that started keeps the process alive through its transport; anything else ends here.
if (code !== 0) process.exit(code);
