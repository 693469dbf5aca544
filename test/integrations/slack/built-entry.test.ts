import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../../support/ensure-built.js';

// @slack/web-api is an optional peer: only graded-tools/slack names it. Checked on the built files.
const dist = join(ROOT, 'dist');

function run(script: string): unknown {
  return JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' }),
  );
}

describe('graded-tools/slack as built', () => {
  beforeAll(() => ensureBuilt());

  it('no entry or chunk but slack.mjs names the Slack SDK, and the root entry never loads it', () => {
    const naming = readdirSync(dist).filter(
      (f) =>
        f.endsWith('.mjs') && f !== 'slack.mjs' && readFileSync(join(dist, f), 'utf8').includes('@slack/'),
    );
    expect(naming).toEqual([]);
    const loaded = run(`
      import { createRequire } from 'node:module';
      await import(${JSON.stringify(join(dist, 'index.mjs'))});
      console.log(JSON.stringify(Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('/@slack/'))));`);
    expect(loaded).toBe(false);
  });

  it('loads in a fresh Node process and refuses an unsigned request', () => {
    const out = run(`
      import { slackApprovals } from ${JSON.stringify(join(dist, 'slack.mjs'))};
      const slack = slackApprovals({ registry: () => { throw new Error('not reached'); }, signingSecret: 's', botToken: 'xoxb-1',
        channel: 'C0APPROVERS', person: () => undefined });
      const answer = await slack.fetch(new Request('https://desk.example/slack', { method: 'POST', body: 'payload=%7B%7D' }));
      console.log(JSON.stringify({ channel: slack.notifier.channel, status: answer.status }));`);
    expect(out).toEqual({ channel: 'slack-approvals', status: 401 });
  });
});
