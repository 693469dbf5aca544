// Fuzzing the console's edge: route matching, basePath and publicUrl reading, and JSON body reading
// never throw, refuse structurally, and never serve a path outside the base path.
import fc from 'fast-check';
import { ToolRegistry } from 'graded-tools';
import { createApprovalsConsole } from 'graded-tools/console';
import { describe, expect, it } from 'vitest';
import { EventStreams } from '../../src/console/events-stream.js';
import { readJsonObject } from '../../src/console/request-guard.js';
import { consoleRoutes, matchRoute, normaliseBasePath } from '../../src/console/routes.js';

/** Path-like strings: slashes, dots, percent escapes and the console's own words, mixed with noise. */
const pathLike = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '/',
        '//',
        '.',
        '..',
        '%2F',
        '%2e',
        '%',
        '\\',
        'approvals',
        'api',
        'confirmations',
        'confirm',
        'assets',
        'link',
        'events',
      ),
      fc.string({ maxLength: 6 }),
    ),
    { maxLength: 8 },
  )
  .map((parts) => parts.join(''));

describe('matchRoute (fuzzed)', () => {
  it('never throws, and never matches a path outside the base path', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 8 }), pathLike, pathLike, (method, pathname, rawBase) => {
        const base = normaliseBasePath(rawBase) ?? '/approvals';
        const match = matchRoute(consoleRoutes(new EventStreams()), method, pathname, base);
        const under = pathname === base || pathname.startsWith(`${base}/`);
        if (!under) expect(match).toEqual({ ok: false, status: 404 });
        if (match.ok) expect(match.route.method).toBe(method);
        else if (match.status === 405) expect(['GET', 'POST']).toContain(match.allow);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('normaliseBasePath (fuzzed)', () => {
  it('never throws; what it keeps is a plain absolute path without dot segments, and it is stable', () => {
    fc.assert(
      fc.property(fc.oneof(pathLike, fc.anything()), (value) => {
        const base = normaliseBasePath(value);
        if (base === undefined) return;
        expect(base).toMatch(/^(\/[A-Za-z0-9._~-]+)*$/);
        expect(base.split('/').filter((s) => s === '.' || s === '..')).toEqual([]);
        expect(normaliseBasePath(base === '' ? '/' : base)).toBe(base);
      }),
      { numRuns: 1_000 },
    );
  });
});

describe('publicUrl and allowedHosts reading (fuzzed)', () => {
  const registry = new ToolRegistry();
  it('either makes a console or throws a TypeError naming the option, never anything else', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.string(), fc.anything()),
        (publicUrl) => {
          try {
            createApprovalsConsole({ registry, authenticate: () => undefined, publicUrl } as never).close();
          } catch (error) {
            expect(error).toBeInstanceOf(TypeError);
            expect(String((error as Error).message)).toMatch(/publicUrl/);
          }
        },
      ),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.oneof(fc.array(fc.oneof(fc.domain(), fc.string())), fc.anything()), (allowedHosts) => {
        try {
          createApprovalsConsole({ registry, authenticate: () => undefined, allowedHosts } as never).close();
        } catch (error) {
          expect(error).toBeInstanceOf(TypeError);
          expect(String((error as Error).message)).toMatch(/allowedHosts/);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('a console never rejects, and answers 404 for any path outside its base path', async () => {
    const approvals = createApprovalsConsole({
      registry,
      authenticate: () => ({ id: 'lead-li' }),
      basePath: '/approvals',
    });
    await fc.assert(
      fc.asyncProperty(pathLike, fc.constantFrom('GET', 'POST', 'HEAD', 'PUT'), async (path, method) => {
        const url = new URL(`http://localhost${path.startsWith('/') ? '' : '/'}${encodeURI(path)}`);
        const response = await approvals.fetch(
          new Request(url, {
            method,
            headers: { origin: 'http://localhost', 'content-type': 'application/json' },
            ...(method === 'POST' || method === 'PUT' ? { body: '{}' } : {}),
          }),
        );
        expect(response.status).toBeGreaterThanOrEqual(200);
        expect(response.status).toBeLessThan(500);
        const under = url.pathname === '/approvals' || url.pathname.startsWith('/approvals/');
        if (!under) expect(response.status).toBe(404);
        await response.body?.cancel();
      }),
      { numRuns: 300 },
    );
    approvals.close();
  });
});

describe('readJsonObject (fuzzed)', () => {
  it('never throws: a JSON object, or 400 / 413 with its code', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ maxLength: 256 }),
          fc.json().map((text) => new TextEncoder().encode(text)),
          fc.string().map((text) => new TextEncoder().encode(text)),
        ),
        fc.option(fc.oneof(fc.nat(), fc.string({ maxLength: 6 })), { nil: undefined }),
        async (bytes, declared) => {
          const request = new Request('http://localhost/', {
            method: 'POST',
            body: bytes,
            ...(declared === undefined ? {} : { headers: { 'content-length': String(declared) } }),
          });
          const outcome = await readJsonObject(request, 64);
          if (outcome.ok) {
            expect(typeof outcome.body).toBe('object');
            expect(Array.isArray(outcome.body)).toBe(false);
          } else {
            expect([
              { status: 400, code: 'BAD_REQUEST' },
              { status: 413, code: 'PAYLOAD_TOO_LARGE' },
            ]).toContainEqual({ status: outcome.status, code: outcome.code });
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
