import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './ensure-built.js';

/** The Node release the MCP conformance runner is run on when this process's Node is older than 22. */
export const NODE_22_VERSION = '22.23.3';

const major = (version: string) => Number(version.replace(/^v/, '').split('.')[0]);

/**
 * A Node >= 22 binary for a test that needs one: this process's own, or the npm registry's
 * `node-<platform>-<arch>` package at `NODE_22_VERSION`, installed once under `.tmp/node-22`. It is
 * not a devDependency: its `node` bin would shadow the project's Node in every npm script.
 * `reason` says why there is none (unsupported platform, no registry).
 */
export function findNode22(): { readonly path: string } | { readonly reason: string } {
  if (major(process.version) >= 22) return { path: process.execPath };
  const platform = process.platform === 'win32' ? 'win' : process.platform;
  const name = `node-${platform}-${process.arch}`;
  const dir = join(ROOT, '.tmp', 'node-22');
  const binary = join(dir, 'node_modules', name, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  if (!existsSync(binary)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
    const install = spawnSync(
      'npm',
      ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `${name}@${NODE_22_VERSION}`],
      { cwd: dir, encoding: 'utf8', timeout: 180_000, shell: process.platform === 'win32' },
    );
    if (install.status !== 0 || !existsSync(binary))
      return {
        reason: `could not install ${name}@${NODE_22_VERSION} from npm (${(install.stderr || install.error?.message || '').trim().split('\n').pop()})`,
      };
  }
  const version = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  if (version.status !== 0 || major(version.stdout.trim()) < 22)
    return { reason: `${binary} does not run here (${version.error?.message ?? version.stderr.trim()})` };
  return { path: binary };
}
