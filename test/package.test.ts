import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

// These tests read the built package (npm test builds it first), as a user would install it.
const root = join(import.meta.dirname, '..');
const dist = join(root, 'dist');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  exports: Record<string, { types: string; default: string } | string>;
  imports: Record<string, Record<string, string>>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

/** Every module specifier a built file and the chunks it imports pull in; a `#` import under every condition. */
function importsOf(file: string, seen = new Set<string>()): Set<string> {
  const found = new Set<string>();
  if (seen.has(file)) return found;
  seen.add(file);
  const code = readFileSync(file, 'utf8');
  for (const match of code.matchAll(
    /(?:^|[;\n])\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s*['"]([^'"]+)['"]/gm,
  )) {
    const specifier = match[1] ?? match[2] ?? match[3] ?? '';
    if (specifier.startsWith('.')) {
      for (const inner of importsOf(join(dirname(file), specifier), seen)) found.add(inner);
    } else if (specifier.startsWith('#') && pkg.imports[specifier] !== undefined) {
      for (const target of Object.values(pkg.imports[specifier]))
        for (const inner of importsOf(join(root, target), seen)) found.add(inner);
    } else {
      found.add(specifier);
    }
  }
  return found;
}

/** The package a specifier names (`@scope/name` for a scoped one), or `node:` for a built-in. */
function packageOf(specifier: string): string {
  if (specifier.startsWith('node:')) return 'node:';
  const parts = specifier.split('/');
  return (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

describe('the built package', () => {
  beforeAll(() => {
    if (!existsSync(join(dist, 'index.mjs')))
      throw new Error('dist/ is missing: run `npm run build` (npm test does)');
  });

  it('loads from its root entry only its own dependencies and Node built-ins, never an optional integration', () => {
    const packages = [...importsOf(join(dist, 'index.mjs'))].map((s) => packageOf(s));
    // standardwebhooks is a dependency for graded-tools/notify alone: the core never signs anything.
    const allowed = new Set([
      'node:',
      ...Object.keys(pkg.dependencies).filter((n) => n !== 'standardwebhooks'),
    ]);
    expect(packages.filter((name) => !allowed.has(name))).toEqual([]);
  });

  it('has exactly these subpaths, each built, and each integration SDK an optional peer', () => {
    // Adding a subpath is an API decision: change this list on purpose.
    expect(Object.keys(pkg.exports)).toEqual([
      '.',
      './store',
      './testing',
      './sqlite',
      './postgres',
      './d1',
      './openai',
      './anthropic',
      './gemini',
      './ai-sdk',
      './mcp',
      './mcp-server',
      './openai-agents',
      './langchain',
      './mastra',
      './console',
      './notify',
      './opentelemetry',
      './dbos',
      './cedar',
      './slack',
      './passkeys',
      './teams',
      './package.json',
    ]);
    for (const target of Object.values(pkg.exports)) {
      if (typeof target === 'string') continue;
      expect(existsSync(join(root, target.default))).toBe(true);
      expect(existsSync(join(root, target.types))).toBe(true);
    }
    for (const sdk of [
      '@openai/agents',
      '@langchain/core',
      '@mastra/core',
      '@modelcontextprotocol/server',
      '@opentelemetry/api',
      '@dbos-inc/dbos-sdk',
      '@cedar-policy/cedar-wasm',
      '@slack/web-api',
      '@simplewebauthn/server',
      'jose',
      'vitest',
    ]) {
      expect(pkg.peerDependencies[sdk]).toBeDefined();
      expect(pkg.peerDependenciesMeta[sdk]?.optional).toBe(true);
    }
  });

  // An optional peer `@types/x` asks every user's install to consider x's types: it is listed only while a
  // published .d.mts imports x. The SQLite store and the email channel declare their driver by shape.
  it('lists a @types/ package as an optional peer only when the built types import its module', () => {
    const imported = new Set<string>();
    for (const file of readdirSync(dist).filter((name) => name.endsWith('.d.mts')))
      for (const match of readFileSync(join(dist, file), 'utf8').matchAll(
        /^import [^\n]* from "([^".][^"]*)";$/gm,
      ))
        imported.add(packageOf(match[1] ?? ''));
    const typesPeers = Object.keys(pkg.peerDependencies).filter((name) => name.startsWith('@types/'));
    expect(typesPeers.filter((name) => !imported.has(name.slice('@types/'.length)))).toEqual([]);
    expect(
      Object.keys(pkg.peerDependenciesMeta).filter((name) => pkg.peerDependencies[name] === undefined),
    ).toEqual([]);
    // The drivers themselves stay optional peers: the stores and channels load them when the app has them.
    for (const driver of ['better-sqlite3', 'nodemailer', 'pg'])
      expect(pkg.peerDependenciesMeta[driver]?.optional).toBe(true);
  });

  it('loads from graded-tools/console only the core’s dependencies and Node built-ins: no driver, no SDK', () => {
    const packages = [...importsOf(join(dist, 'console.mjs'))].map((s) => packageOf(s));
    const allowed = new Set(['node:', ...Object.keys(pkg.dependencies)]);
    expect(packages.filter((name) => !allowed.has(name))).toEqual([]);
  });

  it('loads from graded-tools/notify only standardwebhooks and Node built-ins, never nodemailer (types only)', () => {
    const packages = new Set([...importsOf(join(dist, 'notify.mjs'))].map((s) => packageOf(s)));
    expect([...packages].filter((name) => name !== 'node:' && name !== 'standardwebhooks')).toEqual([]);
    expect(packages).toContain('standardwebhooks');
  });

  it('sends a signed webhook from dist that the standardwebhooks library verifies, in a fresh Node process', () => {
    const script = `
      import { createServer } from 'node:http';
      import { Webhook } from 'standardwebhooks';
      import { webhookNotifier } from ${JSON.stringify(join(dist, 'notify.mjs'))};
      const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
      let verified;
      const server = createServer((req, res) => {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => {
          verified = new Webhook(secret).verify(body, req.headers);
          res.end('ok');
        });
      });
      await new Promise((r) => server.listen(0, '127.0.0.1', r));
      const url = 'http://127.0.0.1:' + server.address().port + '/';
      const result = await webhookNotifier({ url, secret, retries: 0 }).send({ id: 'c_1.created', kind: 'created',
        confirmation: { id: 'c_1', tool: 'message.send', title: 'Send', createdAt: '2026-12-01T14:00:00Z',
          expiresAt: '2026-12-01T14:30:00Z', status: 'pending' }, locale: 'en' }, {});
      server.close();
      console.log(JSON.stringify({ result, type: verified?.type }));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(JSON.parse(out)).toEqual({ result: { ok: true }, type: 'confirmation.created' });
  });

  it('imports and works from dist in a fresh Node process', () => {
    const script = `
      import { ToolRegistry } from ${JSON.stringify(join(dist, 'index.mjs'))};
      const registry = new ToolRegistry().register({ name: 'kb.search', description: 'Search.', sideEffect: 'read',
        inputSchema: { type: 'object', properties: { q: { type: 'string' } } }, run: (input) => input.q });
      const result = await registry.invokeReadOnly('kb__search', '{"q":"hi"}');
      console.log(JSON.stringify(result));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ ok: true, data: 'hi' });
  });

  it('type-checks a consumer against dist with skipLibCheck off', () => {
    const consumer = join(root, '.tmp', 'consumer');
    rmSync(consumer, { recursive: true, force: true });
    mkdirSync(join(consumer, 'node_modules'), { recursive: true });
    symlinkSync(root, join(consumer, 'node_modules', 'graded-tools'), 'dir');
    writeFileSync(join(consumer, 'package.json'), '{ "type": "module" }');
    const entry = join(consumer, 'consumer.ts');
    writeFileSync(
      entry,
      `import { defineTool, ToolRegistry, type InvokeResult } from 'graded-tools';
       const tool = defineTool({ name: 'kb.search', description: 'Search.', sideEffect: 'read',
         inputSchema: { type: 'object' }, run: () => ['a'] });
       const registry = new ToolRegistry().register(tool);
       const result: InvokeResult = await registry.invoke('kb.search', {});
       if (!result.ok) console.log(result.code);
       import { createApprovalsConsole, toNodeListener, type ConsolePerson } from 'graded-tools/console';
       const person: ConsolePerson = { id: 'lead-li' };
       const approvals = createApprovalsConsole({ registry, authenticate: () => person, basePath: '/approvals' });
       const listener: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void =
         toNodeListener(approvals);
       const response: Response = await approvals.fetch(new Request('http://127.0.0.1/approvals/'));
       console.log(listener.length, response.status);
       import { emailNotifier, webhookNotifier, type Notifier } from 'graded-tools/notify';
       import nodemailer from 'nodemailer';
       const channels: Notifier[] = [
         webhookNotifier({ url: 'https://hooks.example/approvals', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }),
         emailNotifier({ transport: nodemailer.createTransport({ host: 'smtp.example' }), from: 'a@example.com', to: 'b@example.com' }),
       ];
       console.log(channels.length);
       import { createMemoryStore } from 'graded-tools';
       import { type FullConfirmationStore, hasCapability, type StoreWith } from 'graded-tools/store';
       const memory: StoreWith<'links' | 'limits'> = createMemoryStore();
       const sqlite = null as unknown as FullConfirmationStore;
       console.log(hasCapability(memory, 'held'), sqlite === null);
       import { storeContract } from 'graded-tools/testing';
       storeContract('memory', async () => ({ store: createMemoryStore() }));
       export {};`,
    );
    const program = ts.createProgram([entry], {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2023,
      strict: true,
      exactOptionalPropertyTypes: true,
      skipLibCheck: false,
      noEmit: true,
      types: ['node'],
      typeRoots: [join(root, 'node_modules', '@types')],
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(problems).toEqual([]);
  }, 180_000); // tsc over every entry: about 15 s alone, a minute or more on a busy machine

  it('passes publint and are-the-types-wrong over the packed tarball', () => {
    const bin = (name: string) => join(root, 'node_modules', '.bin', name);
    // dist/ is built already: their `npm pack` must not run `prepack`, whose build would clean the
    // dist/ that other test files are reading at this moment.
    const env = { ...process.env, npm_config_ignore_scripts: 'true' };
    expect(execFileSync(bin('publint'), ['--strict'], { cwd: root, encoding: 'utf8', env })).toContain(
      'All good',
    );
    execFileSync(bin('attw'), ['--pack', '.', '--profile', 'esm-only', '--quiet'], {
      cwd: root,
      encoding: 'utf8',
      env,
    });
  }, 60_000);
});
