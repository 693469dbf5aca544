import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { serveMcpHttp as serveV1 } from 'graded-tools/mcp';
import { serveMcpHttp as serveV2 } from 'graded-tools/mcp-server';
import { afterAll, describe, expect, it } from 'vitest';
import { createConformanceRegistry, DIALECT_2020_12 } from '../fixtures/conformance-registry.js';
import { ROOT } from '../support/ensure-built.js';
import { findNode22 } from '../support/node-22.js';
import { startNameMapProxy } from './support/name-map-proxy.js';

// `@modelcontextprotocol/conformance` (Node >= 22) runs every server scenario (`--suite all`) against
// graded-tools' Streamable HTTP server on each SDK. What graded-tools does not serve on purpose is
// listed, with why, in mcp-conformance-baseline.yml; the runner exits non-zero on any other failure.

const node = findNode22();
const skipReason = 'reason' in node ? `MCP conformance skipped: ${node.reason}` : undefined;
if (skipReason !== undefined) console.warn(skipReason);

const RUNNER = join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const BASELINE = join(ROOT, 'test', 'adapters', 'mcp-conformance-baseline.yml');

/** The scenarios' fixed tool names (no `__`, so no graded-tools tool has them) → our wire names. */
const SCENARIO_NAMES = {
  test_simple_text: 'test__simple_text',
  test_error_handling: 'test__error_handling',
  json_schema_2020_12_tool: 'json_schema__v2020_12_tool',
};

/** Scenarios graded-tools must pass, each with at least one check. */
const MUST_PASS = [
  'server-initialize',
  'ping',
  'tools-list',
  'tools-call-simple-text',
  'tools-call-error',
  'json-schema-2020-12',
  'dns-rebinding-protection',
];

interface Check {
  readonly id: string;
  readonly status: string;
  readonly errorMessage?: string;
  readonly details?: { readonly result?: { readonly content?: { readonly text?: string }[] } };
}

const outputs: string[] = [];
afterAll(() => {
  for (const dir of outputs) rmSync(dir, { recursive: true, force: true });
});

function runConformance(url: string, outputDir: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      (node as { path: string }).path,
      [RUNNER, 'server', '--url', url, '--suite', 'all', '--expected-failures', BASELINE, '-o', outputDir],
      { cwd: outputDir, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    const timer = setTimeout(() => child.kill(), 150_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** Each scenario's checks, from the runner's `<output>/server-<scenario>-<time>/checks.json`. */
function checksByScenario(outputDir: string): Map<string, Check[]> {
  const found = new Map<string, Check[]>();
  for (const entry of readdirSync(outputDir)) {
    const scenario = entry.match(/^server-(.+)-\d{4}-\d\d-\d\dT/)?.[1];
    if (scenario === undefined) continue;
    found.set(scenario, JSON.parse(readFileSync(join(outputDir, entry, 'checks.json'), 'utf8')) as Check[]);
  }
  return found;
}

describe.skipIf(skipReason !== undefined)('MCP conformance server scenarios', () => {
  it.each([
    ['SDK v1 (graded-tools/mcp)', serveV1],
    ['SDK v2 (graded-tools/mcp-server)', serveV2],
  ])('%s passes every scenario it serves', { timeout: 180_000 }, async (_sdk, serve) => {
    const running = await serve(createConformanceRegistry());
    const proxy = await startNameMapProxy(running.url, SCENARIO_NAMES);
    const outputDir = mkdtempSync(join(ROOT, '.tmp', 'conformance-'));
    outputs.push(outputDir);
    try {
      const { code, output } = await runConformance(proxy.url, outputDir);
      const checks = checksByScenario(outputDir);
      for (const scenario of MUST_PASS) {
        const failed = (checks.get(scenario) ?? []).filter((check) => check.status === 'FAILURE');
        expect(failed, scenario).toEqual([]);
        expect(checks.get(scenario)?.length ?? 0, scenario).toBeGreaterThan(0);
      }
      // The calls reached the tools themselves, not a "no such tool" refusal.
      const simple = checks.get('tools-call-simple-text')?.[0]?.details?.result?.content?.[0]?.text;
      expect(simple).toBe('"This is a simple text response for testing."');
      const error = checks.get('tools-call-error')?.[0]?.details?.result?.content?.[0]?.text;
      expect(error).toMatch(/intentionally returns an error/);
      expect(JSON.stringify(checks.get('json-schema-2020-12'))).toContain(DIALECT_2020_12);
      // Exit 0: exactly the baseline failed, nothing else and nothing less.
      expect(code, output.slice(-3_000)).toBe(0);
    } finally {
      await proxy.close();
      await running.close();
    }
  });
});
