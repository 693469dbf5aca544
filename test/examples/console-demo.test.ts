import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startExample } from '../helpers/example-process.js';
import { tempDir } from '../helpers/temp-dir.js';

const dir = tempDir('graded-tools-console-demo-');
afterAll(() => dir.remove());

describe('npm run console (examples/console-demo.ts)', () => {
  it('serves the console behind the demo sign-in, the agent keeps asking, a confirm delivers, Ctrl-C exits 0', async () => {
    const { child, exited, stdout, stderr } = startExample('console-demo.ts', {
      PORT: '0',
      DEMO_DB: join(dir.path, 'demo.db'),
      DEMO_INTERVAL_MS: '250',
    });
    try {
      await expect
        .poll(() => /Approvals console: (http:\/\/127\.0\.0\.1:\d+)\//.exec(stdout())?.[1], {
          timeout: 20_000,
        })
        .toBeDefined();
      const url = /Approvals console: (http:\/\/127\.0\.0\.1:\d+)\//.exec(stdout())?.[1] ?? '';

      const anonymous = await fetch(`${url}/`, { redirect: 'manual' });
      expect(anonymous.status).toBe(303);
      expect(anonymous.headers.get('location')).toBe('/demo/sign-in');
      expect((await fetch(`${url}/api/session`)).status).toBe(401);
      const picker = await fetch(`${url}/demo/sign-in`);
      expect(await picker.text()).toContain('value="lead-li"');

      const signIn = await fetch(`${url}/demo/sign-in`, {
        method: 'POST',
        body: new URLSearchParams({ person: 'lead-li' }),
        redirect: 'manual',
      });
      expect(signIn.status).toBe(303);
      const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      expect(cookie).toBe('demo-person=lead-li');

      const shell = await fetch(`${url}/`, { headers: { cookie } });
      expect(shell.status).toBe(200);
      expect(await shell.text()).toContain('data-person="lead-li"');

      type Inbox = { ok: boolean; confirmations: { id: string; tool: string; digest: string }[] };
      const inbox = async () =>
        (await (await fetch(`${url}/api/confirmations`, { headers: { cookie } })).json()) as Inbox;
      // The scripted agent asks right away and then every 250 ms.
      await expect
        .poll(async () => (await inbox()).confirmations.length, { timeout: 20_000 })
        .toBeGreaterThan(1);
      const [first] = (await inbox()).confirmations;
      expect(first?.tool).toBe('message.send');

      const decided = await fetch(`${url}/api/confirmations/${first?.id}/confirm`, {
        method: 'POST',
        headers: { cookie, origin: url, 'content-type': 'application/json' },
        body: JSON.stringify({ digest: first?.digest }),
      });
      expect(await decided.json()).toMatchObject({ ok: true, status: 'delivered' });
      const short = first?.id.slice(0, 8) ?? '';
      await expect.poll(() => stdout(), { timeout: 20_000 }).toContain(`delivered ${short}…`);
      expect(stdout()).toContain(`confirmed ${short}… by lead-li`);
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
    expect(stdout()).toContain('Stopped. Messages sent: 1.');
    expect(stderr()).toBe('');
  });
});
