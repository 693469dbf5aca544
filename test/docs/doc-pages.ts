// The docs pages written by hand, found without entering the folders the docs build writes (the API
// reference, VitePress's cache and output): another test may be building the site at the same time.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const GENERATED = new Set(['docs/api', 'docs/zh-CN/api', 'docs/.vitepress']);

/** Every hand-written `.md` page under docs/, as a path from the repository root, sorted. */
export function docsPages(folder = 'docs'): string[] {
  return readdirSync(join(root, folder), { withFileTypes: true })
    .flatMap((entry) => {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory()) return GENERATED.has(path) ? [] : docsPages(path);
      return entry.isFile() && entry.name.endsWith('.md') ? [path] : [];
    })
    .sort();
}
