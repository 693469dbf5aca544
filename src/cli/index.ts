#!/usr/bin/env node
import { main } from './main.js';

const code = await main(process.argv.slice(2), {
  cwd: process.cwd(),
  out: (line) => process.stdout.write(`${line}\n`),
  error: (line) => process.stderr.write(`${line}\n`),
  // In stdio mode stdout carries JSON-RPC: whatever the registry module logs goes to stderr instead.
  reserveStdout: () => {
    console.log = console.error;
    console.info = console.error;
    console.debug = console.error;
  },
});
// A server that started keeps the process alive through its transport; anything else ends here.
if (code !== 0) process.exit(code);
