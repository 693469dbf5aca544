// graded-tools/dbos: durable runs. A DBOS workflow proposes a send with `ref: DBOS.workflowID` and
// waits in `DBOS.recv(DECISION_TOPIC)`; this channel hands it the decision, once.

export type { DbosNotifierOptions } from './dbos-notifier.js';
export { dbosNotifier } from './dbos-notifier.js';
export type { DbosSender } from './dbos-sender.js';
export type { DecisionMessage } from './decision-message.js';
export { DECISION_TOPIC } from './decision-message.js';
