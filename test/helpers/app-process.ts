import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { AppTask } from '../fixtures/confirm-app.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixture = fileURLToPath(new URL('../fixtures/confirm-app.ts', import.meta.url));

/** One app process running `test/fixtures/confirm-app.ts`, with its JSON output lines. */
export interface AppProcess {
  readonly child: ChildProcess;
  /** Resolves with the first output line that has `key`. */
  waitFor<T = Record<string, unknown>>(key: string): Promise<T>;
  /** Resolves with the exit code (or signal) once it ends. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** Starts an app process on `task` (a real OS process: `node --import tsx`). */
export function startApp(task: AppTask): AppProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, JSON.stringify(task)], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  const lines: Record<string, unknown>[] = [];
  const waiters: { key: string; resolve: (line: Record<string, unknown>) => void }[] = [];
  let buffered = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    buffered += chunk;
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      const text = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      newline = buffered.indexOf('\n');
      let line: Record<string, unknown>;
      try {
        line = JSON.parse(text) as Record<string, unknown>;
      } catch {
        continue;
      }
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
    (resolve) => {
      child.on('exit', (code, signal) => resolve({ code, signal, stderr }));
    },
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
          throw new Error(`app exited (${code ?? signal}) before printing "${key}":\n${stderr}`);
        }),
      ]);
    },
  };
}
