// The API reference (TypeDoc, scripts/typedoc.config.mjs) documents exactly the imports users write:
// each subpath package.json exports, and nothing private (the `#ajv-engine` entries, the CLI bin).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import tsdown from '../../tsdown.config.js';

const root = join(import.meta.dirname, '..', '..');
// A script, not a module of the package: read as the options object TypeDoc gets.
const typedocConfig: string = '../../scripts/typedoc.config.mjs';
const typedoc = (await import(typedocConfig)).default as { entryPoints?: string[] };
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, unknown>;
};

describe('the API reference', () => {
  it('has one page per public subpath, and none for a private entry', () => {
    const built = (tsdown as { entry: Record<string, string> }).entry;
    const publicFiles = Object.keys(pkg.exports)
      .filter((subpath) => subpath !== './package.json')
      .map((subpath) => built[subpath === '.' ? 'index' : subpath.slice(2)])
      .map((file) => join(root, file ?? 'missing'));
    expect([...(typedoc.entryPoints ?? [])].sort()).toEqual(publicFiles.sort());
    for (const file of typedoc.entryPoints ?? []) expect(file).not.toMatch(/ajv-engine|[/\\]cli[/\\]/);
  });
});
