import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/ensure-built.js';

// What a release ships and how it is versioned: the tarball a security reviewer signs off carries the
// licence, the threat model and the changelog, and the pending changesets make a valid release plan.
describe('release', () => {
  it('packs LICENSE, SECURITY.md, CHANGELOG.md and both READMEs beside dist/', () => {
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
        cwd: ROOT,
        encoding: 'utf8',
      }),
    ) as { files: { path: string }[] }[];
    const paths = (packed?.files ?? []).map((file) => file.path);
    // Nothing but dist/ and these: no tests, sources or local files.
    expect(paths.filter((path) => !path.startsWith('dist/')).sort()).toEqual([
      'CHANGELOG.md',
      'LICENSE',
      'README.md',
      'README.zh-CN.md',
      'SECURITY.md',
      'package.json',
    ]);
  });

  it('SECURITY.md says how to report a hole, what is promised and what is out of scope', () => {
    const text = readFileSync(join(ROOT, 'SECURITY.md'), 'utf8');
    for (const heading of ['## Reporting a vulnerability', '## What is promised', '## What is out of scope'])
      expect(text).toContain(heading);
  });

  it('the pending changesets make a release plan for graded-tools', { timeout: 60_000 }, () => {
    const out = join(ROOT, '.tmp', `changeset-status-${process.pid}.json`);
    execFileSync(join(ROOT, 'node_modules', '.bin', 'changeset'), ['status', '--output', out], { cwd: ROOT });
    const plan = JSON.parse(readFileSync(out, 'utf8')) as {
      releases: { name: string; type: string; oldVersion: string; newVersion: string }[];
    };
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string })
      .version;
    for (const release of plan.releases) {
      expect(release.name).toBe('graded-tools');
      expect(['patch', 'minor', 'major']).toContain(release.type);
      expect(release.oldVersion).toBe(version);
    }
  });
});
