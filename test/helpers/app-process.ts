import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { AppTask } from '../fixtures/confirm-app.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const confirmApp = fileURLToPath(new URL('../fixtures/confirm-app.ts', import.meta.url));

/** One fixture process (a real OS process: `node --import tsx <fixture> <task as JSON>`) and its JSON output lines. */
export interface AppProcess {
  readonly child: ChildProcess;
  /** Resolves with the first output line that has `key`; rejects if the process ends first. */
  waitFor<T = Record<string, unknown>>(key: string): Promise<T>;
  /** Resolves with the exit code (or signal) once it ends. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** Starts an app process on `task` running `test/fixtures/confirm-app.ts`. */
export function startApp(task: AppTask): AppProcess {
  return startFixture(confirmApp, task, { stdin: 'pipe', name: 'app' });
}

/**
 * Starts `fixture` on `task`. Output lines that are not a JSON object (a library's own log lines) are
 * skipped; the others are what `waitFor` finds.
 */
export function startFixture(
  fixture: string,
  task: unknown,
  options: { readonly stdin: 'pipe' | 'ignore'; readonly name: string },
): AppProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, JSON.stringify(task)], {
    cwd: root,
    stdio: [options.stdin, 'pipe', 'pipe'],
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
      const line = parseLine(buffered.slice(0, newline));
      buffered = buffered.slice(newline + 1);
      if (line === undefined) continue;
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
    waitFor<T>(key: string): Promise<T> {
      const seen = lines.find((line) => key in line);
      if (seen !== undefined) return Promise.resolve(seen as T);
      return Promise.race([
        new Promise<T>((resolve) => waiters.push({ key, resolve: (line) => resolve(line as T) })),
        exited.then(({ code, signal }) => {
          throw new Error(`${options.name} exited (${code ?? signal}) before printing "${key}":\n${stderr}`);
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
