import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../support/ensure-built.js';

// The built types in projects that have no Node types: a Cloudflare Worker with
// `@cloudflare/workers-types` as its only types, and a project on the web's globals (the DOM library, as
// Bun and Deno have them) without `@types/better-sqlite3` or `@types/node`.
// Each is type-checked by `tsc` as its owner runs it: strict, `skipLibCheck: false`. The app's
// node_modules hold the built package and every other package of the repository's install but `@types/`
// (and `@cloudflare/` only for the Worker), so a `node:` import or a driver's types in the package's
// `.d.mts` files has nothing to resolve to.
const app = join(tmpdir(), `graded-tools-types-app-${process.pid}`);
const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

const compilerOptions = (types: string[], lib: string[]) => ({
  target: 'ES2023',
  lib,
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  types,
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  verbatimModuleSyntax: true,
  skipLibCheck: false,
  noEmit: true,
});

/** A project folder beside the shared node_modules: its tsconfig and its source files (`main.ts` first). */
function project(name: string, types: string[], lib: string[], source: string | string[]): string {
  const dir = join(app, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "type": "module", "private": true }');
  const sources = typeof source === 'string' ? [source] : source;
  const files = sources.map((_, index) => (index === 0 ? 'main.ts' : `main-${index}.ts`));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: compilerOptions(types, lib), files }),
  );
  for (const [index, text] of sources.entries()) writeFileSync(join(dir, files[index] as string), text);
  return dir;
}

/** A Worker project: `@cloudflare/workers-types` its only types, the Access recipe beside its code. */
function workerProject(name: string, sources: string | string[]): string {
  const dir = project(name, ['@cloudflare/workers-types'], ['ES2023'], sources);
  mkdirSync(join(dir, 'node_modules', '@cloudflare'), { recursive: true });
  symlinkSync(
    join(ROOT, 'node_modules', '@cloudflare', 'workers-types'),
    join(dir, 'node_modules', '@cloudflare', 'workers-types'),
  );
  cpSync(join(ROOT, 'examples', 'cloudflare-access.ts'), join(dir, 'cloudflare-access.ts'));
  return dir;
}

/** The Worker code of a docs page: its blocks fenced ```ts [worker.ts], which the README test leaves to this one. */
const workerBlocksOf = (page: string) =>
  [...readFileSync(join(ROOT, page), 'utf8').matchAll(/```ts \[worker\.ts\]\n([\s\S]*?)```/g)].map(
    (match) => match[1] ?? '',
  );

/** `tsc -p` over a project: its diagnostics (none when it compiles), and every file it read. */
function typeCheck(dir: string): { problems: string[]; files: string[] } {
  try {
    const listed = execFileSync(process.execPath, [tsc, '-p', dir, '--listFiles', '--pretty', 'false'], {
      cwd: dir,
      encoding: 'utf8',
    });
    return { problems: [], files: listed.split('\n').filter((line) => line !== '') };
  } catch (error) {
    const lines = String((error as { stdout?: string }).stdout ?? error).split('\n');
    // Still the files it read: a project may fail only on another package's types (SDK v2's `Buffer`).
    return {
      problems: lines.filter((line) => line.includes('error TS')),
      files: lines.filter((line) => line.startsWith('/')),
    };
  }
}

const WORKER = `
import { defineTool, ToolRegistry, type InvokeResult } from 'graded-tools';
import { type ConsolePerson, createApprovalsConsole } from 'graded-tools/console';
import { createD1Store } from 'graded-tools/d1';
import { type Notifier, webhookNotifier } from 'graded-tools/notify';
import { hasCapability } from 'graded-tools/store';

// The binding as @cloudflare/workers-types declares it: the store takes it, and so do the app's own queries.
interface Env {
  readonly DB: D1Database;
  readonly HOOK_SECRET: string;
}

let approvals: ReturnType<typeof createApprovalsConsole> | undefined;
let registry: ToolRegistry | undefined;

function registryFor(env: Env): ToolRegistry {
  const notify: Notifier[] = [webhookNotifier({ url: 'https://hooks.example/approvals', secret: env.HOOK_SECRET })];
  const store = createD1Store({ database: env.DB });
  console.log(hasCapability(store, 'links'));
  registry ??= new ToolRegistry({ confirmations: store, notify: { to: notify } }).register(
    defineTool({
      name: 'people.count',
      description: 'Count the people.',
      sideEffect: 'read',
      inputSchema: { type: 'object' },
      run: async () => (await env.DB.prepare('SELECT COUNT(*) AS n FROM people').first<{ n: number }>())?.n ?? 0,
    }),
  );
  return registry;
}

export default {
  async fetch(request, env): Promise<Response> {
    const tools = registryFor(env);
    const person: ConsolePerson = { id: 'lead-li' };
    approvals ??= createApprovalsConsole({ registry: tools, basePath: '/approvals', sweepIntervalMs: 0, authenticate: () => person });
    if (new URL(request.url).pathname.startsWith('/approvals')) return approvals.fetch(request);
    const row = await env.DB.prepare('SELECT name FROM people WHERE id = ?').bind(1).first<{ name: string }>();
    const { results } = await env.DB.prepare('SELECT id FROM people').all<{ id: number }>();
    await env.DB.batch([env.DB.prepare('UPDATE people SET seen = 1 WHERE id = ?').bind(1)]);
    const counted: InvokeResult = await tools.invoke('people.count', {});
    return Response.json({ name: row?.name, ids: results.map((r) => r.id), counted });
  },
  async scheduled(_controller, env, ctx): Promise<void> {
    ctx.waitUntil(registryFor(env).sweep().then(() => undefined));
  },
} satisfies ExportedHandler<Env>;
`;

/** MCP on a Worker: SDK v2's Fetch handler (`graded-tools/mcp-server`), with the Node listener's types beside it. */
const MCP_WORKER = `
import { ToolRegistry } from 'graded-tools';
import {
  createMcpFetchHandler,
  type McpFetchHandler,
  type McpHttpServer,
  type NodeListenerRequest,
} from 'graded-tools/mcp-server';

let handle: McpFetchHandler | undefined;
// The Node-only parts are in the same entry: their types must still read without @types/node.
export type Served = McpHttpServer['url'] | NodeListenerRequest['url'];

export default {
  async fetch(request): Promise<Response> {
    handle ??= createMcpFetchHandler(new ToolRegistry(), { scope: 'desk' }, { allowedHosts: 'any' });
    return handle(request, { authInfo: { token: 't', clientId: 'worker', scopes: [] } });
  },
} satisfies ExportedHandler;
`;

const BUN = `
import { ToolRegistry } from 'graded-tools';
import { createSqliteStore, type SqliteStoreOptions } from 'graded-tools/sqlite';
import { createMemoryStore } from 'graded-tools';
import { hasCapability } from 'graded-tools/store';

const options: SqliteStoreOptions = { busyTimeoutMs: 1000 };
const store = createSqliteStore({ path: 'confirmations.db', ...options });
const registry = new ToolRegistry({ confirmations: store });
console.log(registry.list().length, hasCapability(createMemoryStore(), 'held'));
store.close();
`;

describe('the built types without Node’s types', () => {
  beforeAll(() => {
    ensureBuilt();
    rmSync(app, { recursive: true, force: true });
    const modules = join(app, 'node_modules');
    mkdirSync(join(modules, 'graded-tools'), { recursive: true });
    cpSync(join(ROOT, 'dist'), join(modules, 'graded-tools', 'dist'), { recursive: true });
    cpSync(join(ROOT, 'package.json'), join(modules, 'graded-tools', 'package.json'));
    for (const entry of readdirSync(join(ROOT, 'node_modules'))) {
      if (entry.startsWith('.') || entry === 'graded-tools' || entry === '@types' || entry === '@cloudflare')
        continue;
      symlinkSync(join(ROOT, 'node_modules', entry), join(modules, entry));
    }
  }, 120_000);

  afterAll(() => {
    rmSync(app, { recursive: true, force: true });
  });

  it('type-checks a Worker with @cloudflare/workers-types as its only types: root, console, d1, store, notify, and its own D1 queries', () => {
    const { problems, files } = typeCheck(workerProject('worker', WORKER));
    expect(problems).toEqual([]);
    expect(files.some((file) => file.includes('workers-types'))).toBe(true);
    expect(files.filter((file) => file.includes('/@types/'))).toEqual([]);
  }, 120_000);

  it('type-checks an MCP server on a Worker with @cloudflare/workers-types as its only types: graded-tools/mcp-server', () => {
    const { problems, files } = typeCheck(workerProject('mcp-worker', MCP_WORKER));
    // SDK v2's own types (2.4.0) name Node's `Buffer` once, in its stdio `ReadBuffer`: that is the SDK's,
    // seen only with `skipLibCheck: false`. Anything else, and anything in graded-tools' files, fails.
    const sdks = problems.filter((line) => line.includes('/@modelcontextprotocol/'));
    expect(problems.filter((line) => !sdks.includes(line))).toEqual([]);
    expect(sdks.filter((line) => !line.includes("Cannot find name 'Buffer'"))).toEqual([]);
    expect(files.some((file) => file.includes('/dist/mcp-server.d.mts'))).toBe(true);
    expect(files.filter((file) => file.includes('/@types/'))).toEqual([]);
  }, 120_000);

  it.each([
    'docs/guide/deploying-workers.md',
    'docs/zh-CN/guide/deploying-workers.md',
    'docs/integrations/d1.md',
    'docs/zh-CN/integrations/d1.md',
  ])(
    'type-checks the Worker code of %s as a Worker project, with the Access recipe',
    (page) => {
      const blocks = workerBlocksOf(page);
      expect(blocks.length).toBeGreaterThan(0);
      const { problems } = typeCheck(workerProject(page.replace(/\W/g, '_'), blocks));
      expect(problems).toEqual([]);
    },
    120_000,
  );

  it('type-checks a Bun project’s SQLite store without @types/better-sqlite3', () => {
    const { problems, files } = typeCheck(project('bun', [], ['ES2023', 'DOM'], BUN));
    expect(problems).toEqual([]);
    expect(files.filter((file) => file.includes('/@types/'))).toEqual([]);
  }, 120_000);
});
