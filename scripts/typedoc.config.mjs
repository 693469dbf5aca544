// TypeDoc over the package's public entry points, as Markdown for the VitePress site (docs/api).
// The entry points are read from tsdown.config.ts, so a new subpath is in the reference once it is built.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const tsdown = readFileSync(join(root, 'tsdown.config.ts'), 'utf8');
const { exports } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const entries = [...tsdown.matchAll(/^\s*'?([\w.-]+)'?: '(src\/[\w/.-]+\.ts)',/gm)]
  .map(([, name, path]) => ({ name, path }))
  // Only what package.json exports is an import users write: not the CLI (a bin), nor the private
  // `#ajv-engine` entries (package.json `imports`).
  .filter(({ name }) => Object.hasOwn(exports, name === 'index' ? '.' : `./${name}`));

/** @type {Partial<import('typedoc').TypeDocOptions & import('typedoc-plugin-markdown').PluginOptions>} */
export default {
  entryPoints: entries.map(({ path }) => join(root, path)),
  tsconfig: join(root, 'tsconfig.json'),
  out: join(root, 'docs', 'api'),
  plugin: [
    'typedoc-plugin-markdown',
    'typedoc-vitepress-theme',
    join(import.meta.dirname, 'typedoc-subpaths.mjs'),
  ],
  docsRoot: join(root, 'docs'),
  readme: 'none',
  entryFileName: 'index',
  // One page per import path: about twenty pages, not one per symbol (the site builds in a fraction of the time).
  outputFileStrategy: 'modules',
  excludePrivate: true,
  excludeInternal: true,
  excludeExternals: true,
  hideBreadcrumbs: true,
  hidePageHeader: true,
  // Links carry the plugin's own anchors; named anchors make them land whatever VitePress calls the heading.
  useHTMLAnchors: true,
  useCodeBlocks: true,
  parametersFormat: 'table',
  // A property's description reads as text, not squeezed into a table column (the types are long).
  interfacePropertiesFormat: 'list',
  classPropertiesFormat: 'list',
  typeDeclarationFormat: 'list',
  sanitizeComments: true,
  validation: { notExported: false, invalidLink: true, rewrittenLink: true },
  skipErrorChecking: true,
  subpathNames: Object.fromEntries(
    entries.map(({ name, path }) => [
      join(root, path),
      name === 'index' ? 'graded-tools' : `graded-tools/${name}`,
    ]),
  ),
};
