import type { DBOS, DBOSClient } from '@dbos-inc/dbos-sdk';
import type { Notifier } from 'graded-tools';
import { type DbosSender, type DecisionMessage, dbosNotifier } from 'graded-tools/dbos';
import { describe, expectTypeOf, it } from 'vitest';

describe('graded-tools/dbos types', () => {
  it('takes the SDK as it is: a DBOSClient, or DBOS itself, is a sender', () => {
    expectTypeOf<DBOSClient>().toExtend<DbosSender>();
    expectTypeOf<typeof DBOS>().toExtend<DbosSender>();
    expectTypeOf(dbosNotifier).returns.toEqualTypeOf<Notifier>();
  });

  it('a decision message is plain text fields a workflow can read without the core', () => {
    expectTypeOf<DecisionMessage['confirmationId']>().toEqualTypeOf<string>();
    expectTypeOf<DecisionMessage['by']>().toEqualTypeOf<string | undefined>();
    // @ts-expect-error a sender needs send
    dbosNotifier({ client: {} });
  });
});
