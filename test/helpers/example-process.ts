import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

/** A script of `examples/` running as a user runs it (`npx tsx examples/<script>`), with what it printed so far. */
export interface ExampleProcess {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** The exit code once it ends. */
  readonly exited: Promise<number | null>;
}

/** Starts `examples/<script>` with `env` added to this process's environment. */
export function startExample(script: string, env: Readonly<Record<string, string>>): ExampleProcess {
  const child = spawn(join(root, 'node_modules', '.bin', 'tsx'), [`examples/${script}`], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}
