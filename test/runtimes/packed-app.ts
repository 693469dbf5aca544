import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuilt, ROOT } from '../support/ensure-built.js';

/**
 * An app folder as a new user has it after `npm install graded-tools`: the packed tarball unpacked into
 * `node_modules/graded-tools` (only what `files` ships), every other package linked from the
 * repository's own install, and the runtime fixtures beside it. One folder per runtime, made anew.
 */
export function packedApp(runtime: string): string {
  ensureBuilt();
  const app = join(ROOT, '.tmp', 'runtimes', runtime);
  rmSync(app, { recursive: true, force: true });
  const modules = join(app, 'node_modules');
  mkdirSync(join(modules, 'graded-tools'), { recursive: true });
  const packed = execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', app], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
    .at(-1) as string;
  execFileSync('tar', [
    '-xzf',
    join(app, packed),
    '-C',
    join(modules, 'graded-tools'),
    '--strip-components=1',
  ]);
  for (const entry of readdirSync(join(ROOT, 'node_modules'))) {
    if (entry.startsWith('.') || entry === 'graded-tools') continue;
    symlinkSync(join(ROOT, 'node_modules', entry), join(modules, entry));
  }
  cpSync(join(ROOT, 'test', 'runtimes', 'fixtures'), app, { recursive: true });
  return app;
}
