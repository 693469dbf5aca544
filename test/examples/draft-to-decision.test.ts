import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

describe('examples/draft-to-decision.ts', () => {
  it('drafts through read tools, proposes, and hands back a confirm, a reject with its reason and an expiry', async () => {
    const { stdout, stderr } = await promisify(execFile)(
      join(root, 'node_modules', '.bin', 'tsx'),
      ['examples/draft-to-decision.ts'],
      { cwd: root, timeout: 30_000 },
    );
    expect(stderr).toBe('');
    const [, confirmed = '', rejected = '', expired = '', never = ''] = stdout.split(/^== \d\. /m);

    // The model is shown read tools only, in every run.
    expect(stdout.match(/the model is shown: conversation__read, kb__search$/gm)).toHaveLength(3);
    expect(stdout).not.toMatch(/the model is shown: .*message__send/);

    expect(confirmed).toContain('model calls conversation__read({"conversationId":"c-4411"}) → ok');
    expect(confirmed).toContain('model calls kb__search({"query":"export"}) → ok');
    expect(confirmed).toContain('proposed: pending until 2026-12-02T09:30:00.000Z; sent so far: 0');
    // What the person is shown: the tool's effect filled from the payload, the note, the link.
    expect(confirmed).toContain(
      'the person sees: "Reply to the customer" — Emails the customer at ana@example.com',
    );
    expect(confirmed).toContain('asked by agent:desk-bot: The customer asked twice for the export');
    expect(confirmed).toContain('Conversation c-4411: https://desk.example/c/c-4411');
    expect(confirmed).toContain('lead-li confirms → delivered');
    expect(confirmed).toContain('back to the agent: Sent at 2026-12-02T09:01:30.000Z');
    expect(confirmed).toContain('回给智能体：已于 2026-12-02T09:01:30.000Z 发送');

    expect(rejected).toContain('proposed: pending until 2026-12-02T09:31:30.000Z; sent so far: 1');
    expect(rejected).toContain('lead-li rejects → rejected');
    expect(rejected).toContain(
      'back to the agent: A person rejected this: We close accounts only after the customer confirms by email',
    );
    expect(rejected).toContain('回给智能体：有人拒绝了此请求：We close accounts only after');

    expect(expired).toContain('nobody decides; 31 minutes later the sweep expires it');
    expect(expired).toContain('back to the agent: Nobody decided in time');
    expect(expired).toContain('回给智能体：无人及时决定');

    // The agent can never send: not through the model's exit, not through invoke.
    expect(never).toContain(
      'the model calls message__send → UNKNOWN_TOOL: There is no tool named "message__send"',
    );
    expect(never).toContain("the agent's run invokes message.send → SEND_REQUIRES_CONFIRM");
    expect(never).toContain('registry.propose()');
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('Messages sent: 1, to ana@example.com.');
  });
});
