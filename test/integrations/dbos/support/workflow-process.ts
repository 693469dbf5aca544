import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { WorkflowTask } from '../../../fixtures/dbos-workflow-app.js';
import { startFixture } from '../../../helpers/app-process.js';

const fixture = fileURLToPath(new URL('../../../fixtures/dbos-workflow-app.ts', import.meta.url));

/** One DBOS workflow process (`node --import tsx test/fixtures/dbos-workflow-app.ts`) and its JSON lines. */
export interface WorkflowProcess {
  readonly child: ChildProcess;
  /** Resolves with the first output line that has `key`; rejects if the process ends first. */
  line<T = Record<string, unknown>>(key: string): Promise<T>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** Starts a workflow process on `task`: a real OS process that the test may SIGKILL. DBOS's own log lines are skipped. */
export function startWorkflowProcess(task: WorkflowTask): WorkflowProcess {
  const app = startFixture(fixture, task, { stdin: 'ignore', name: 'workflow process' });
  return { child: app.child, exited: app.exited, line: (key) => app.waitFor(key) };
}
