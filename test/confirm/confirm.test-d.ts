import type {
  ConfirmationStatus,
  ConfirmRequired,
  ConfirmResult,
  ErrorCode,
  RegistryEvent,
  ToolRegistry,
} from 'graded-tools';
import { describeDecision } from 'graded-tools';
import { createSqliteStore } from 'graded-tools/sqlite';
import type { ConfirmationStore } from 'graded-tools/store';
import { describe, expectTypeOf, it } from 'vitest';

declare const registry: ToolRegistry;

describe('confirmation types', () => {
  it('makes the confirmation fields of a ConfirmRequired always present', () => {
    expectTypeOf<ConfirmRequired['confirmationId']>().toEqualTypeOf<string>();
    expectTypeOf<ConfirmRequired['digest']>().toEqualTypeOf<string>();
    expectTypeOf<ConfirmRequired['expiresAt']>().toEqualTypeOf<string>();
  });

  it('types propose as a pending confirmation or a failure, never data', async () => {
    const asked = await registry.propose('message.send', { text: 'x' }, { actor: 'agent', ref: 'conv-1' });
    if (asked.ok) {
      expectTypeOf(asked.requiresConfirm).toEqualTypeOf<true>();
      expectTypeOf(asked.confirmationId).toEqualTypeOf<string>();
      const decided = await registry.confirmations.waitFor(asked.confirmationId, { timeoutMs: 1_000 });
      if (decided.ok) {
        expectTypeOf(decided.confirmation.ref).toEqualTypeOf<string | undefined>();
        expectTypeOf(describeDecision(decided.confirmation, 'zh-CN')).toEqualTypeOf<string>();
      }
    } else {
      expectTypeOf(asked.code).toEqualTypeOf<ErrorCode>();
    }
    // @ts-expect-error: a proposal is never made on the model's behalf as a person
    await registry.propose('message.send', {}, { autonomous: false });
    // @ts-expect-error: links are { label, url }
    await registry.propose('message.send', {}, { links: ['https://desk.example'] });
  });

  it('types confirm with the delivered data, and every failure with a code', async () => {
    const result = await registry.confirm<{ messageId: string }>('id', { approvedBy: 'lead' });
    expectTypeOf(result).toEqualTypeOf<ConfirmResult<{ messageId: string }>>();
    if (result.ok) {
      expectTypeOf(result.data.messageId).toEqualTypeOf<string>();
      expectTypeOf(result.confirmation.status).toEqualTypeOf<ConfirmationStatus>();
    } else {
      expectTypeOf(result.code).toEqualTypeOf<ErrorCode>();
    }
  });

  it('requires who decides', () => {
    // @ts-expect-error approvedBy is required
    void registry.confirm('id', {});
    // @ts-expect-error rejectedBy is required
    void registry.reject('id', { reason: 'no' });
    // @ts-expect-error by is required
    void registry.markDelivered('id', {});
  });

  it('offers no way to change a confirmation through the read view', () => {
    expectTypeOf(registry.confirmations).not.toHaveProperty('claim');
    expectTypeOf(registry.confirmations).toHaveProperty('get');
  });

  it('narrows confirmation events by type', () => {
    const onEvent = (event: RegistryEvent) => {
      if (event.type === 'confirmation') expectTypeOf(event.confirmationId).toEqualTypeOf<string>();
    };
    void onEvent;
  });

  it('makes the SQLite store a ConfirmationStore', () => {
    expectTypeOf(createSqliteStore).returns.toExtend<ConfirmationStore>();
    // @ts-expect-error a path or a database is required
    void (() => createSqliteStore({ table: 'x' }));
  });
});
