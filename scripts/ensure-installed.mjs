// `npm start` and `npm test` work on a fresh clone: install from the lockfile once if nothing is installed.
//
// With `--sdks` (every script but `start`), also the SDK releases the adapters are tested against whose
// own engines ask Node >= 22 (test/sdks/package.json: openai 7, the OpenAI Agents SDK, @google/genai 3,
// Mastra, AI SDK 7, OpenTelemetry 3, the MCP conformance runner). They live in their own lockfile so
// that the project's install on Node 20 prints no engine warning; they are linked into node_modules,
// and CI runs their tests on Node 20 and on Node 24.
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function npmCi(cwd, extra, what) {
  console.log(`graded-tools: installing ${what} (npm ci) …`);
  const { status } = spawnSync('npm', ['ci', '--no-audit', '--no-fund', ...extra], {
    cwd,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (status !== 0) process.exit(status ?? 1);
}

if (!existsSync(join(root, 'node_modules', '.package-lock.json')))
  npmCi(root, [], 'dependencies from package-lock.json');

const sdks = join(root, 'test', 'sdks');
// Not in a copy made only to build or pack (its node_modules are the repository's, links and all).
if (process.argv.includes('--sdks') && existsSync(join(sdks, 'package.json'))) {
  if (!existsSync(join(sdks, 'node_modules', '.package-lock.json')))
    // Their peers (zod, @opentelemetry/api, …) come from the project's own install, one copy each; the
    // engine warnings are theirs, said once above instead of once per package.
    npmCi(
      sdks,
      ['--legacy-peer-deps', '--loglevel=error'],
      'the SDK releases of test/sdks (engines: Node >= 22)',
    );
  const { devDependencies } = JSON.parse(readFileSync(join(sdks, 'package.json'), 'utf8'));
  for (const name of Object.keys(devDependencies)) {
    const link = join(root, 'node_modules', name);
    if (existsSync(link) || isDanglingLink(link)) continue;
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(relative(dirname(link), join(sdks, 'node_modules', name)), link, 'dir');
  }
}

function isDanglingLink(path) {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
