// `npm start` and `npm test` work on a fresh clone: install from the lockfile once if nothing is installed.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (!existsSync(new URL('../node_modules/.package-lock.json', import.meta.url))) {
  console.log('graded-tools: installing dependencies from package-lock.json (npm ci) …');
  const { status } = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], {
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (status !== 0) process.exit(status ?? 1);
}
