import { createMemoryStore, ToolRegistry } from 'graded-tools';
import { createPostgresStore } from 'graded-tools/postgres';
import { createSqliteStore } from 'graded-tools/sqlite';
import {
  type ConfirmationStore,
  type CoreStore,
  type FullConfirmationStore,
  type HeldSendStore,
  hasCapability,
  type LimitStore,
  type LinkStore,
  type RunStore,
  type StoreWith,
} from 'graded-tools/store';
import { describe, expectTypeOf, it } from 'vitest';

declare const core: CoreStore;
declare const links: LinkStore;
declare const limits: LimitStore;
declare const held: HeldSendStore;
declare const runs: RunStore;
declare const someStore: ConfirmationStore;

describe('a store has each capability whole or not at all', () => {
  it('takes the core alone, or the core with whole groups', () => {
    expectTypeOf(core).toExtend<ConfirmationStore>();
    expectTypeOf({ ...core, ...links, ...limits }).toExtend<ConfirmationStore>();
    const store: ConfirmationStore = { ...core, ...held };
    void new ToolRegistry({ confirmations: store });
  });

  it('refuses half a group, wherever a store is taken', () => {
    // @ts-expect-error links without `useLink`
    const halfLinks: ConfirmationStore = { ...core, saveLink: links.saveLink, findLink: links.findLink };
    // @ts-expect-error limits without `refundLimit` and `peekLimit`
    void new ToolRegistry({ confirmations: { ...core, spendLimit: limits.spendLimit } });
    // @ts-expect-error held sends without `cancel`
    const halfHeld: ConfirmationStore = {
      ...core,
      dueScheduled: held.dueScheduled,
      deliverDue: held.deliverDue,
    };
    // @ts-expect-error `audit` must be an audit chain, not anything
    const badAudit: ConfirmationStore = { ...core, audit: {} };
    // @ts-expect-error runs without `pruneRuns`
    const halfRuns: ConfirmationStore = {
      ...core,
      beginRun: runs.beginRun,
      readRun: runs.readRun,
      rememberRead: runs.rememberRead,
      endRun: runs.endRun,
    };
    const wholeRuns: ConfirmationStore = { ...core, ...runs };
    expectTypeOf(createMemoryStore()).toExtend<StoreWith<'runs'>>();
    void [halfLinks, halfHeld, badAudit, halfRuns, wholeRuns];
  });

  it('shows what each built-in store has in its type', () => {
    expectTypeOf(createSqliteStore).returns.toExtend<FullConfirmationStore>();
    expectTypeOf(createPostgresStore).returns.toExtend<FullConfirmationStore>();
    expectTypeOf(createMemoryStore).returns.toExtend<
      StoreWith<'links' | 'limits' | 'held' | 'quorum' | 'audit'>
    >();
    // The memory store lives in one process: nothing to watch.
    expectTypeOf(createMemoryStore).returns.not.toHaveProperty('watch');
    expectTypeOf(createMemoryStore).returns.toExtend<ConfirmationStore>();
  });

  it('narrows a store to the capability hasCapability found', () => {
    const store = someStore;
    expectTypeOf(store.findLink).toEqualTypeOf<LinkStore['findLink'] | undefined>();
    if (hasCapability(store, 'links')) expectTypeOf(store.findLink).toEqualTypeOf<LinkStore['findLink']>();
    // @ts-expect-error no such capability
    hasCapability(store, 'teleport');
  });

  it('keeps the store contract off the root entry', () => {
    // @ts-expect-error a store's author imports it from graded-tools/store
    type Root = import('graded-tools').ConfirmationStore;
    expectTypeOf<StoreWith<'links'>>().toExtend<ConfirmationStore>();
    expectTypeOf<StoreWith<'links'>>().toHaveProperty('useLink');
    expectTypeOf<StoreWith<'links'>>().not.toHaveProperty('spendLimit');
    void (undefined as unknown as Root);
  });
});
