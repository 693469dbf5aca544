// The API reference is generated from the types in English only. So that the language switch on an API
// page lands on a page (not a 404), each one gets a short Chinese page pointing back to it.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const docs = join(import.meta.dirname, '..', 'docs');
const api = join(docs, 'api');
const zh = join(docs, 'zh-CN', 'api');
rmSync(zh, { recursive: true, force: true });

for (const entry of readdirSync(api, { withFileTypes: true, recursive: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.md')) continue;
  const path = relative(api, join(entry.parentPath, entry.name));
  const title = /^# (.+)$/m.exec(readFileSync(join(api, path), 'utf8'))?.[1] ?? path;
  const target = `/api/${path}`;
  mkdirSync(dirname(join(zh, path)), { recursive: true });
  writeFileSync(
    join(zh, path),
    `# ${title}\n\nAPI 参考由 TypeScript 类型生成，只有英文版：[${title.replace(/[[\]]/g, '')}](${target})。\n`,
  );
}
