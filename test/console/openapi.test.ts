import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { createPasskeys } from 'graded-tools/passkeys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventStreams } from '../../src/console/events-stream.js';
import { consoleRoutes } from '../../src/console/routes.js';
import { type ConsoleFixture, consoleFixture, type Json, STORES } from './setup.js';

const [memory] = STORES;
if (memory === undefined) throw new Error('no memory store in STORES');

/** The document as a real console serves it, to anyone (it holds nothing of the app's). */
async function servedDocument(f: ConsoleFixture): Promise<Json> {
  const response = await f.call('/api/openapi.json', { person: null });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json\b/);
  return response.json();
}

/** `:id` in the route table is `{id}` in OpenAPI. */
const templated = (path: string) => path.replaceAll(':id', '{id}');

describe('the console OpenAPI document', () => {
  let f: ConsoleFixture;
  let doc: Json;
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats.default(ajv);
  // OpenAPI's own fields around the schemas: known to Ajv, never validated.
  for (const keyword of ['openapi', 'info', 'servers', 'security', 'paths', 'components'])
    ajv.addKeyword(keyword);
  /** Operations (`GET /api/session`) a real response was checked against. */
  const checked = new Set<string>();

  beforeAll(async () => {
    f = consoleFixture(memory[1]);
    doc = await servedDocument(f);
    ajv.addSchema({ ...doc, $id: 'console-openapi' });
  });
  afterAll(() => f?.close());

  /**
   * `response` is one the document names for `method path`: its status is documented there, its content
   * type too, and a JSON body validates against that answer's schema.
   */
  async function expectDocumented(method: string, path: string, response: Response): Promise<Json> {
    const operation = doc.paths[path]?.[method.toLowerCase()];
    expect(operation, `${method} ${path} is in the document`).toBeDefined();
    const documented = operation.responses[String(response.status)];
    expect(documented, `${method} ${path} documents ${response.status}`).toBeDefined();
    const [type] = Object.keys(documented.content);
    const got = response.headers.get('content-type') ?? '';
    expect(got.split(';')[0], `${method} ${path} ${response.status}`).toBe(type);
    checked.add(`${method} ${path}`);
    if (type !== 'application/json') {
      await response.body?.cancel();
      return undefined;
    }
    const body = await response.json();
    const pointer = `console-openapi#/paths/${path.replaceAll('~', '~0').replaceAll('/', '~1')}/${method.toLowerCase()}/responses/${response.status}/content/application~1json/schema`;
    const validate = ajv.getSchema(pointer);
    expect(validate, pointer).toBeDefined();
    const valid = validate?.(body);
    expect(
      valid,
      `${method} ${path} ${response.status}: ${ajv.errorsText(validate?.errors)}\n${JSON.stringify(body).slice(0, 400)}`,
    ).toBe(true);
    return body;
  }

  it('is an OpenAPI 3.1 document for the console at its base path, served without a session', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: '/approvals' }]);
  });

  it('names every route the console answers, and no other', () => {
    const table = consoleRoutes(new EventStreams()).map((r) => `${r.method} ${templated(r.path)}`);
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(new Set(documented)).toEqual(new Set(table));
    expect(documented).toHaveLength(table.length);
  });

  it.each(['docs/guide/console-api.md', 'docs/zh-CN/guide/console-api.md'])(
    '%s names every path of the document and every method it is asked with',
    (page) => {
      const text = readFileSync(join(import.meta.dirname, '..', '..', page), 'utf8');
      const rows = text.split('\n').filter((line) => line.startsWith('| `'));
      for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
        const row = rows.find((line) => line.includes(`\`${path}\``));
        expect(row, `${page}: a row for ${path}`).toBeDefined();
        for (const method of Object.keys(item)) expect(row).toContain(`\`${method.toUpperCase()}\``);
      }
    },
  );

  it('describes the real answers of every operation, errors too', async () => {
    const check = async (
      method: string,
      path: string,
      url: string,
      init: Parameters<ConsoleFixture['call']>[1] = {},
    ) => expectDocumented(method, path, await f.call(url, { method, ...init }));
    await check('GET', '/api/openapi.json', '/api/openapi.json', { person: null });
    await check('GET', '/', '/');
    await check('GET', '/assets/console.js', '/assets/console.js', { person: null });
    await check('GET', '/assets/console.css', '/assets/console.css', { person: null });
    await check('GET', '/api/session', '/api/session');
    await check('GET', '/api/session', '/api/session', { person: null });

    const a = await f.ask('first');
    await check('GET', '/confirmations/{id}', `/confirmations/${a.confirmationId}`);
    await check('GET', '/link/{id}', `/link/${a.confirmationId}`, { person: null });
    await check('GET', '/api/confirmations', '/api/confirmations?status=pending');
    await check('GET', '/api/confirmations', '/api/confirmations?limit=many');
    await check('GET', '/api/confirmations', '/api/confirmations?status=nonsense');
    await check('GET', '/api/confirmations/{id}', `/api/confirmations/${a.confirmationId}`);
    await check('GET', '/api/confirmations/{id}', '/api/confirmations/no-such-id');

    const confirm = '/api/confirmations/{id}/confirm';
    await check('POST', confirm, `/api/confirmations/${a.confirmationId}/confirm`, { body: {} });
    await check('POST', confirm, `/api/confirmations/${a.confirmationId}/confirm`, {
      body: { digest: a.digest },
      person: 'no-flags',
    });
    await check('POST', confirm, `/api/confirmations/${a.confirmationId}/confirm`, {
      body: { digest: a.digest },
      headers: { 'content-type': 'text/plain' },
    });
    const done = await check('POST', confirm, `/api/confirmations/${a.confirmationId}/confirm`, {
      body: { digest: a.digest },
    });
    expect(done).toMatchObject({ ok: true, status: 'delivered' });
    const again = await check('POST', confirm, `/api/confirmations/${a.confirmationId}/confirm`, {
      body: { digest: a.digest },
    });
    expect(again).toMatchObject({ ok: false, code: 'ALREADY_DECIDED', decidedBy: 'lead-li' });

    const b = await f.ask('second');
    await check('POST', '/api/confirmations/{id}/reject', `/api/confirmations/${b.confirmationId}/reject`, {
      body: { reason: 'no' },
    });
    await check('POST', '/api/confirmations/{id}/cancel', `/api/confirmations/${b.confirmationId}/cancel`, {
      body: {},
    });

    f.failNextDeliveries(2);
    const c = await f.ask('third');
    const failed = await check('POST', confirm, `/api/confirmations/${c.confirmationId}/confirm`, {
      body: { digest: c.digest },
    });
    expect(failed).toMatchObject({ ok: false, code: 'DELIVERY_FAILED' });
    await check('POST', '/api/confirmations/{id}/retry', `/api/confirmations/${c.confirmationId}/retry`, {
      body: { digest: c.digest },
    });
    await check(
      'POST',
      '/api/confirmations/{id}/mark-delivered',
      `/api/confirmations/${c.confirmationId}/mark-delivered`,
      { body: { note: 'it arrived' } },
    );

    const d = await f.ask('draft', 'message.draft');
    const preview = '/api/confirmations/{id}/preview';
    await check('POST', preview, `/api/confirmations/${d.confirmationId}/preview`, {
      body: { payload: { to: 'ana@example.com', text: '' } },
    });
    const previewed = await check('POST', preview, `/api/confirmations/${d.confirmationId}/preview`, {
      body: { payload: { to: 'ana@example.com', text: 'edited' } },
    });
    await check('POST', confirm, `/api/confirmations/${d.confirmationId}/confirm`, {
      body: { digest: d.digest, payload: { to: 'ana@example.com', text: 'edited' }, editDigest: 'x' },
    });
    await check('POST', confirm, `/api/confirmations/${d.confirmationId}/confirm`, {
      body: {
        digest: d.digest,
        payload: { to: 'ana@example.com', text: 'edited' },
        editDigest: previewed.digest,
      },
    });

    const e = await f.ask('fourth');
    const g = await f.ask('fifth');
    await check('POST', '/api/confirm-many', '/api/confirm-many', {
      body: {
        items: [
          { id: e.confirmationId, digest: e.digest },
          { id: 'no-such-id', digest: 'x' },
        ],
      },
    });
    await check('POST', '/api/reject-many', '/api/reject-many', {
      body: { items: [{ id: g.confirmationId }], reason: 'later' },
    });
    await check('POST', '/api/reject-many', '/api/reject-many', { body: { items: 'all' } });

    const bundle = async () => {
      const asked = await f.registry.proposeBundle(
        [
          { tool: 'message.send', input: { to: 'ana@example.com', text: 'one' } },
          { tool: 'message.send', input: { to: 'ana@example.com', text: 'two' } },
        ],
        { actor: 'agent-7', flags: { outbound: true } },
      );
      if (!asked.ok) throw new Error(asked.error);
      return asked;
    };
    const one = await bundle();
    await check('GET', '/api/confirmations', '/api/confirmations');
    await check('POST', '/api/bundles/{id}/confirm', `/api/bundles/${one.bundleId}/confirm`, {
      body: { digest: 'f'.repeat(64) },
    });
    await check('POST', '/api/bundles/{id}/confirm', `/api/bundles/${one.bundleId}/confirm`, {
      body: { digest: one.digest },
    });
    const two = await bundle();
    await check('POST', '/api/bundles/{id}/reject', `/api/bundles/${two.bundleId}/reject`, { body: {} });

    const events = await f.call('/api/events');
    await expectDocumented('GET', '/api/events', events);

    // Through an approval link: whose link it is, a confirm with it, and the link spent.
    const linked = consoleFixture(memory[1], { publicUrl: 'https://desk.example/approvals' });
    try {
      const h = await linked.ask('linked');
      const made = await linked.approvals.createApprovalLink(h.confirmationId, {
        approver: { id: 'lead-wu', flags: { outbound: true } },
      });
      if (!made.ok) throw new Error(made.error);
      const token = new URL(made.url).hash.slice(1);
      const link = { person: null, headers: { 'x-approval-link': token } };
      const opened = await expectDocumented(
        'GET',
        '/api/confirmations/{id}',
        await linked.call(`/api/confirmations/${h.confirmationId}`, link),
      );
      expect(opened).toMatchObject({ person: { id: 'lead-wu' }, link: { expiresAt: made.expiresAt } });
      // With publicUrl, clients are pointed where people reach the console.
      expect((await servedDocument(linked)).servers).toEqual([{ url: 'https://desk.example/approvals' }]);
      await expectDocumented(
        'POST',
        confirm,
        await linked.call(`/api/confirmations/${h.confirmationId}/confirm`, {
          ...link,
          body: { digest: h.digest },
        }),
      );
      const spent = await expectDocumented(
        'POST',
        '/api/confirmations/{id}/reject',
        await linked.call(`/api/confirmations/${h.confirmationId}/reject`, { ...link, body: {} }),
      );
      expect(spent).toMatchObject({ ok: false, code: 'LINK_REFUSED' });
    } finally {
      linked.close();
    }

    // Passkeys: refused where the registry has none, answered where it has them (the person's own).
    await check('GET', '/passkeys', '/passkeys');
    await check('GET', '/api/passkeys', '/api/passkeys');
    await check('POST', '/api/passkeys/options', '/api/passkeys/options', { body: {} });
    await check('POST', '/api/passkeys', '/api/passkeys', { body: {} });
    await check('POST', '/api/passkeys', '/api/passkeys', { body: { response: {} } });
    const own = { origin: 'http://console.test', 'content-type': 'application/json' };
    await check('DELETE', '/api/passkeys/{id}', '/api/passkeys/abc', { body: {}, headers: own });
    const p = await f.ask('needs a challenge');
    await check(
      'POST',
      '/api/confirmations/{id}/passkey-challenge',
      `/api/confirmations/${p.confirmationId}/passkey-challenge`,
      { body: { digest: p.digest } },
    );
    await check(
      'POST',
      '/api/confirmations/{id}/passkey-challenge',
      `/api/confirmations/${p.confirmationId}/passkey-challenge`,
      { body: {} },
    );
    const three = await bundle();
    await check(
      'POST',
      '/api/bundles/{id}/passkey-challenge',
      `/api/bundles/${three.bundleId}/passkey-challenge`,
      {
        body: { digest: three.digest },
      },
    );
    const keyed = consoleFixture(memory[1], {
      registryOptions: {
        passkeys: createPasskeys({ rpID: 'console.test', rpName: 'Desk', origin: 'http://console.test' }),
      },
    });
    try {
      const answered = async (method: string, path: string, url: string, init = {}) =>
        expectDocumented(method, path, await keyed.call(url, { method, ...init }));
      expect(await answered('GET', '/api/passkeys', '/api/passkeys')).toEqual({ ok: true, credentials: [] });
      expect(
        await answered('POST', '/api/passkeys/options', '/api/passkeys/options', { body: {} }),
      ).toMatchObject({ ok: true, options: { user: { name: 'lead-li' } } });
      await answered('DELETE', '/api/passkeys/{id}', '/api/passkeys/abc', { body: {}, headers: own });
    } finally {
      keyed.close();
    }

    const operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.filter((operation) => !checked.has(operation))).toEqual([]);
  });
});
