import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

// `npm pack` (and so `npm publish`) from a fresh clone, where nobody ran `npm run build`, must not
// ship a package without its dist/: `prepack` builds it. Run in a copy, so the shared dist/ is untouched.
const root = join(import.meta.dirname, '..');
const copy = mkdtempSync(join(tmpdir(), 'graded-tools-pack-'));
const needed = [
  'src',
  'scripts',
  'package.json',
  'tsconfig.json',
  'tsdown.config.ts',
  'README.md',
  'README.zh-CN.md',
];

afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe('npm pack without a build', () => {
  it('builds first (prepack), so every file package.json points at is packed', {
    timeout: 300_000,
  }, async () => {
    for (const entry of needed) cpSync(join(root, entry), join(copy, entry), { recursive: true });
    symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
    expect(existsSync(join(copy, 'dist'))).toBe(false);

    const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json'], {
      cwd: copy,
      timeout: 280_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    // The build's own lines come first on stdout; npm's JSON report is the rest.
    const report = JSON.parse(stdout.slice(stdout.search(/^\[$/m))) as { files: { path: string }[] }[];
    const packed = new Set(report[0]?.files.map((file) => file.path));

    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      main: string;
      types: string;
      bin: Record<string, string>;
      exports: Record<string, string | Record<string, string>>;
    };
    const targets = [
      pkg.main,
      pkg.types,
      ...Object.values(pkg.bin),
      ...Object.values(pkg.exports).flatMap((target) =>
        typeof target === 'string' ? [target] : Object.values(target),
      ),
    ]
      .map((target) => target.replace(/^\.\//, ''))
      .filter((target) => target !== 'package.json');
    expect(packed).toContain('dist/index.mjs');
    expect(targets.filter((target) => !packed.has(target))).toEqual([]);
  });
});
