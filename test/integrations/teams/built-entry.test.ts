import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../../support/ensure-built.js';

// jose and @microsoft/teams.cards are optional peers: only graded-tools/teams loads them. Checked on the built files.
const dist = join(ROOT, 'dist');

function run(script: string): unknown {
  return JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' }),
  );
}

describe('graded-tools/teams as built', () => {
  beforeAll(() => ensureBuilt());

  it.each(['jose', '@microsoft/teams.cards'])(
    'no entry or chunk but teams.mjs imports %s, and the root entry never loads it',
    (peer) => {
      const from = new RegExp(`from\\s*["']${peer.replace(/[./]/g, '\\$&')}["']`);
      const naming = readdirSync(dist).filter(
        (f) => f.endsWith('.mjs') && f !== 'teams.mjs' && from.test(readFileSync(join(dist, f), 'utf8')),
      );
      expect(naming).toEqual([]);
      expect(readFileSync(join(dist, 'teams.mjs'), 'utf8')).toMatch(from);
      const loaded = run(`
      import { createRequire } from 'node:module';
      await import(${JSON.stringify(join(dist, 'index.mjs'))});
      console.log(JSON.stringify(Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('/node_modules/${peer}/'))));`);
      expect(loaded).toBe(false);
    },
  );

  it('loads in a fresh Node process and refuses an unsigned activity', () => {
    const out = run(`
      import { teamsApprovals } from ${JSON.stringify(join(dist, 'teams.mjs'))};
      const teams = teamsApprovals({ registry: () => { throw new Error('not reached'); }, appId: 'app', appPassword: 's',
        serviceUrl: 'https://smba.trafficmanager.net/emea/', conversationId: '19:a@thread.tacv2', person: () => undefined });
      const answer = await teams.fetch(new Request('https://desk.example/api/messages', { method: 'POST',
        body: JSON.stringify({ type: 'invoke', channelId: 'msteams', serviceUrl: 'https://smba.trafficmanager.net/emea/' }) }));
      console.log(JSON.stringify({ channel: teams.notifier.channel, status: answer.status }));`);
    expect(out).toEqual({ channel: 'teams-approvals', status: 401 });
  });
});
