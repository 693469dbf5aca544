/**
 * What sends a message to a workflow: `DBOS` itself (its static `send`, inside the process that
 * launched DBOS) or a `DBOSClient` (an app server that is not the DBOS runtime). The signature is
 * theirs: destination workflow id, message, topic, idempotency key.
 */
export interface DbosSender {
  send(destinationID: string, message: unknown, topic?: string, idempotencyKey?: string): Promise<void>;
}

let runtime: Promise<DbosSender> | undefined;

/**
 * `DBOS` of the launched runtime in this process, imported on first use so that importing
 * `graded-tools/dbos` with an injected client never loads the SDK. A failed import is tried again
 * next time (the SDK may be installed by then; a test may mock it).
 */
export function runtimeSender(): Promise<DbosSender> {
  runtime ??= import('@dbos-inc/dbos-sdk').then(
    (sdk) => sdk.DBOS,
    (error: unknown) => {
      runtime = undefined;
      throw new Error(
        `@dbos-inc/dbos-sdk could not be loaded (install it, or pass \`client\`): ${error instanceof Error ? error.message : String(error)}`,
      );
    },
  );
  return runtime;
}
