import { expect } from 'vitest';

/** What every runtime must have seen: the same answers as Node, one delivery, a whole audit chain. */
export function expectScenario(result: Record<string, unknown>, runtime: string): void {
  expect(result).toMatchObject({
    runtime,
    modelSees: ['orders__lookup'],
    read: { ok: true, data: { order: 'o-42', status: 'shipped' } },
    // JSON Schema's `pattern` (re2js) and zod's email both refuse, as structured results.
    badPattern: { ok: false, code: 'INVALID_INPUT' },
    badZod: { ok: false, code: 'INVALID_INPUT' },
    // The send tool is not in the model's list, and its name is answered as unknown.
    hiddenSend: { ok: false, code: 'UNKNOWN_TOOL' },
    console: { listStatus: 200, pageStatus: 200, pageIsHtml: true, sweepingSessionStatus: 200 },
    // Two confirms at once: one claims, one is refused; a third is refused as already decided.
    confirms: [false, true],
    again: { ok: false, code: 'ALREADY_DECIDED' },
    status: 'delivered',
    delivered: 1,
    deliveredId: true,
    auditOk: true,
  });
  expect((result.console as { listedIds: string[] }).listedIds).toHaveLength(1);
}

/** What a proposal within the run of `fixtures/runs.mjs` records, on every runtime and store. */
export const EXPECTED_ORIGINS = {
  to: [{ from: 'request' }, { from: 'trusted', list: 'contacts' }, { from: 'tool', tool: 'inbox.read' }],
};
