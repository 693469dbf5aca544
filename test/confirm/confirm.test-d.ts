import type {
  ConfirmationStatus,
  ConfirmationStore,
  ConfirmRequired,
  ConfirmResult,
  ErrorCode,
  RegistryEvent,
  ToolRegistry,
} from 'graded-tools';
import { createSqliteStore } from 'graded-tools/sqlite';
import { describe, expectTypeOf, it } from 'vitest';

declare const registry: ToolRegistry;

describe('confirmation types', () => {
  it('makes the confirmation fields of a ConfirmRequired always present', () => {
    expectTypeOf<ConfirmRequired['confirmationId']>().toEqualTypeOf<string>();
    expectTypeOf<ConfirmRequired['digest']>().toEqualTypeOf<string>();
    expectTypeOf<ConfirmRequired['expiresAt']>().toEqualTypeOf<string>();
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
