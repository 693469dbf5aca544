import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, rmdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ensureBuilt, ROOT } from '../support/ensure-built.js';

/**
 * An app folder as a new user has it after `npm install graded-tools`: the packed tarball unpacked into
 * `node_modules/graded-tools` (only what `files` ships), every other package linked from the
 * repository's own install, and the runtime fixtures beside it. One folder per runtime, made anew,
 * outside the repository: inside it, bundlers and Bun would read the repository's tsconfig `paths`,
 * which point the package's own `#imports` at `src/`.
 */
export function packedApp(runtime: string): string {
  ensureBuilt();
  const app = join(tmpdir(), `graded-tools-runtime-app-${process.pid}`, runtime);
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

/** Removes an app folder `packedApp` made (and its parent, once empty). */
export function removePackedApp(app: string): void {
  if (app === '') return;
  rmSync(app, { recursive: true, force: true });
  try {
    rmdirSync(dirname(app));
  } catch {
    // Another runtime's app is still in it.
  }
}
