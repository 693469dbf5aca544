import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../support/ensure-built.js';

const SDKS = {
  openai: '/node_modules/openai/',
  anthropic: '/node_modules/@anthropic-ai/sdk/',
  gemini: '/node_modules/@google/genai/',
  ai: '/node_modules/ai/',
  mcp: '/node_modules/@modelcontextprotocol/sdk/',
  'openai-agents': '/node_modules/@openai/agents',
  langchain: '/node_modules/@langchain/',
  mastra: '/node_modules/@mastra/',
} as const;

type Sdk = keyof typeof SDKS;

let hooksDir = '';

/** Imports a built entry in a fresh node process and returns which SDKs it loaded, from a resolve hook. */
function sdksLoadedBy(entry: string): Sdk[] {
  const log = join(hooksDir, `${entry}.log`);
  writeFileSync(log, '');
  const script = `await import(${JSON.stringify(pathToFileURL(`${ROOT}dist/${entry}.mjs`).href)});`;
  const run = spawnSync(
    process.execPath,
    ['--import', pathToFileURL(join(hooksDir, 'register.mjs')).href, '--input-type=module', '-e', script],
    { encoding: 'utf8', env: { ...process.env, RESOLVE_LOG: log } },
  );
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  const urls = readFileSync(log, 'utf8').split('\n');
  return (Object.keys(SDKS) as Sdk[]).filter((sdk) => urls.some((url) => url.includes(SDKS[sdk])));
}

describe('the built entries load only their own SDK', () => {
  beforeAll(() => {
    ensureBuilt();
    mkdirSync(`${ROOT}.tmp`, { recursive: true });
    hooksDir = mkdtempSync(join(ROOT, '.tmp', 'hooks-'));
    writeFileSync(
      join(hooksDir, 'hooks.mjs'),
      `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(process.env.RESOLVE_LOG, resolved.url + '\\n');
  return resolved;
}
`,
    );
    writeFileSync(
      join(hooksDir, 'register.mjs'),
      `import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n`,
    );
  });

  afterAll(() => rmSync(hooksDir, { recursive: true, force: true }));

  it('graded-tools (the root) loads none of the SDKs', () => {
    expect(sdksLoadedBy('index')).toEqual([]);
  });

  it.each(['openai', 'anthropic', 'gemini'])(
    'graded-tools/%s needs only SDK types: it loads no SDK at all',
    (entry) => {
      expect(sdksLoadedBy(entry)).toEqual([]);
    },
  );

  it('graded-tools/ai-sdk loads ai and nothing else', () => {
    expect(sdksLoadedBy('ai-sdk')).toEqual(['ai']);
  });

  it('graded-tools/mcp loads the MCP SDK and nothing else', () => {
    expect(sdksLoadedBy('mcp')).toEqual(['mcp']);
  });

  it('graded-tools/openai-agents loads the Agents SDK (which brings its own openai) and no other framework', () => {
    expect(sdksLoadedBy('openai-agents')).toEqual(['openai', 'openai-agents']);
  });

  it('graded-tools/langchain loads @langchain/core and nothing else', () => {
    expect(sdksLoadedBy('langchain')).toEqual(['langchain']);
  });

  it('graded-tools/mastra loads @mastra/core and no other framework', () => {
    expect(sdksLoadedBy('mastra')).toEqual(['mastra']);
  });
});
