import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { WorkflowTask } from '../../../fixtures/dbos-workflow-app.js';

const root = fileURLToPath(new URL('../../../..', import.meta.url));
const fixture = fileURLToPath(new URL('../../../fixtures/dbos-workflow-app.ts', import.meta.url));

/** One DBOS workflow process (`node --import tsx test/fixtures/dbos-workflow-app.ts`) and its JSON lines. */
export interface WorkflowProcess {
  readonly child: ChildProcess;
  /** Resolves with the first output line that has `key`; rejects if the process ends first. */
  line<T = Record<string, unknown>>(key: string): Promise<T>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** Starts a workflow process on `task`: a real OS process that the test may SIGKILL. */
export function startWorkflowProcess(task: WorkflowTask): WorkflowProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, JSON.stringify(task)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  const lines: Record<string, unknown>[] = [];
  const waiters: { key: string; resolve: (line: Record<string, unknown>) => void }[] = [];
  let buffered = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    buffered += chunk;
    for (let newline = buffered.indexOf('\n'); newline >= 0; newline = buffered.indexOf('\n')) {
      const text = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      const line = parseLine(text);
      if (line === undefined) continue; // DBOS's own log lines
      lines.push(line);
      for (const waiter of waiters.filter((w) => w.key in line)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  });
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>(
    (resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stderr })),
  );
  return {
    child,
    exited,
    line<T>(key: string): Promise<T> {
      const seen = lines.find((line) => key in line);
      if (seen !== undefined) return Promise.resolve(seen as T);
      return Promise.race([
        new Promise<T>((resolve) => waiters.push({ key, resolve: (line) => resolve(line as T) })),
        exited.then(({ code, signal }) => {
          throw new Error(`workflow process exited (${code ?? signal}) before printing "${key}":\n${stderr}`);
        }),
      ]);
    },
  };
}

function parseLine(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
