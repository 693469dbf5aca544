// The runtimes the runtime suites run on, each from the npm registry at a pinned version, installed once
// into a cache folder outside the checkout (never into the project's node_modules: wrangler needs
// Node >= 22, and its engines would warn on a Node 20 install of the project).
//
//   node scripts/runtimes.mjs install   installs any that is missing (what `npm test` runs first)
//   node scripts/runtimes.mjs path bun  prints the binary's path
//
// Tests import `runtimeBinary(name)`; a runtime that could not be installed is `undefined`, and the
// suite that needs it prints why it is skipped.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Each runtime: its npm package and pinned version, and its binary inside that install. */
export const RUNTIMES = {
  bun: { spec: 'bun@1.4.5', bin: 'node_modules/.bin/bun' },
  deno: { spec: 'deno@2.9.6', bin: 'node_modules/.bin/deno' },
  // wrangler (and miniflare, workerd) need Node >= 22: it runs with this Node.
  node24: { spec: 'node@24', bin: 'node_modules/node/bin/node' },
  wrangler: { spec: 'wrangler@4.164.0', bin: 'node_modules/wrangler/bin/wrangler.js' },
};

export const runtimesDir = join(
  process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'),
  'graded-tools-runtimes',
);

const folderOf = (name) => join(runtimesDir, RUNTIMES[name].spec.replace(/[@/]/g, '_'));
const doneMark = (name) => join(folderOf(name), '.installed');

/** The installed binary of `name`, or undefined when it is not installed. */
export function runtimeBinary(name) {
  const path = join(folderOf(name), RUNTIMES[name].bin);
  return existsSync(doneMark(name)) && existsSync(path) ? path : undefined;
}

/** Telemetry off and everything on loopback, for every runtime a test starts. */
export const quietEnv = {
  WRANGLER_SEND_METRICS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  DO_NOT_TRACK: '1',
  DENO_NO_UPDATE_CHECK: '1',
  DENO_NO_PROMPT: '1',
  BUN_DISABLE_TELEMETRY: '1',
  DISABLE_TELEMETRY: '1',
};

/** Installs `name` unless it is there; returns its binary, or undefined with the reason printed. */
export function installRuntime(name) {
  const existing = runtimeBinary(name);
  if (existing !== undefined) return existing;
  const folder = folderOf(name);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  console.log(`graded-tools: installing ${RUNTIMES[name].spec} from npm into ${folder}`);
  const { status, stderr } = spawnSync(
    'npm',
    [
      'install',
      '--prefix',
      folder,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      RUNTIMES[name].spec,
    ],
    { encoding: 'utf8', env: { ...process.env, ...quietEnv } },
  );
  const path = join(folder, RUNTIMES[name].bin);
  if (status !== 0 || !existsSync(path)) {
    console.log(
      `graded-tools: could not install ${RUNTIMES[name].spec}: ${stderr.trim().split('\n').slice(-3).join(' ')}`,
    );
    return undefined;
  }
  writeFileSync(doneMark(name), `${RUNTIMES[name].spec}\n`);
  return path;
}

const isEntry = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
const [command, name] = isEntry ? process.argv.slice(2) : [];
if (command === 'install') {
  const missing = Object.keys(RUNTIMES).filter((runtime) => installRuntime(runtime) === undefined);
  // A runtime that cannot be installed is not a failed install: its suite says it was skipped, and why.
  if (missing.length > 0) console.log(`graded-tools: not installed: ${missing.join(', ')}`);
} else if (command === 'path' && name in RUNTIMES) {
  const path = runtimeBinary(name);
  if (path === undefined) process.exit(1);
  console.log(path);
}
