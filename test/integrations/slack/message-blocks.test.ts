import type { Confirmation } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { approvalMessage, showsWholePayload } from '../../../src/integrations/slack/message-blocks.js';
import { blocksProblem } from './support/fake-slack.js';

const base: Confirmation = {
  id: 'c_0123456789abcdef',
  tool: 'message.send',
  input: {},
  payload: { to: 'ana@example.com', text: 'Hi' },
  digest: 'a'.repeat(64),
  actor: 'agent:desk-bot',
  createdAt: '2030-01-01T00:00:00.000Z',
  expiresAt: '2030-01-01T01:00:00.000Z',
  updatedAt: '2030-01-01T00:00:00.000Z',
  status: 'pending',
  attempt: 0,
  history: [{ at: '2030-01-01T00:00:00.000Z', status: 'pending', by: 'agent:desk-bot' }],
};
const tool = { name: 'message.send', title: 'Reply', description: 'Reply.', editable: [] };
const draw = (confirmation: Partial<Confirmation>, locale: 'en' | 'zh-CN' = 'en') =>
  approvalMessage({ confirmation: { ...base, ...confirmation }, tool, locale, nameOf: (id) => id });

describe('the approval card', () => {
  it('keeps within Block Kit limits for any payload, and says how many fields it left out', () => {
    const payload = Object.fromEntries(
      Array.from({ length: 120 }, (_, i) => [`field_${i}`, i % 3 === 0 ? 'é&<'.repeat(2_000) : `value ${i}`]),
    );
    const message = draw({
      payload,
      note: `${'n'.repeat(1_990)}&`,
      links: Array.from({ length: 10 }, (_, i) => ({
        label: 'L'.repeat(200),
        url: `https://example.com/${i}`,
      })),
      ref: 'r'.repeat(256),
    });
    expect(blocksProblem(message.blocks, 50)).toBeUndefined();
    expect(JSON.stringify(message.blocks)).toMatch(/…and \d+ more fields/);
    expect(message.text.length).toBeLessThanOrEqual(3000);
  });

  it('never cuts an escaped entity in half, and never makes a link from a javascript: URL', () => {
    const message = draw({
      payload: { text: '&'.repeat(5_000) },
      links: [{ label: 'evil', url: 'javascript:alert(1)' }],
    });
    expect(blocksProblem(message.blocks, 50)).toBeUndefined();
    const text = JSON.stringify(message.blocks);
    expect(text).not.toMatch(/&a?m?p?…/);
    expect(text).not.toContain('javascript:');
  });

  it('a payload that is not an object is shown as one value; an unregistered tool by its name', () => {
    const message = approvalMessage({
      confirmation: { ...base, payload: ['a', 'b'] },
      tool: undefined,
      locale: 'en',
      nameOf: (id) => id,
    });
    expect(JSON.stringify(message.blocks)).toContain('[\\"a\\",\\"b\\"]');
    expect(message.text).toContain('message.send');
  });

  it('says what the rules ask, and who decided what, in English and Chinese', () => {
    const requires = { approvals: 2, approverFlags: ['finance'], rules: ['two'] };
    const waiting = draw({ requires, approvals: [{ by: 'li', at: base.createdAt, digest: base.digest }] });
    expect(JSON.stringify(waiting.blocks)).toContain('Needs 2 approvals from finance — 1 of 2 approved: li');
    const rejected = draw({
      status: 'rejected',
      history: [...base.history, { at: base.createdAt, status: 'rejected', by: 'wu', note: '<!here> no' }],
    });
    expect(JSON.stringify(rejected.blocks)).toContain('Rejected by wu: &lt;!here&gt; no');
    expect(JSON.stringify(rejected.blocks)).not.toContain('graded_tools_approve');
    const zh = draw({ status: 'expired' }, 'zh-CN');
    expect(JSON.stringify(zh.blocks)).toContain('已过期');
  });

  it('a held send: who approved it, when it goes and Undo; then who cancelled it, or that it was sent (en, zh-CN)', () => {
    const at = base.createdAt;
    const scheduled = {
      status: 'scheduled' as const,
      deliverAt: '2030-01-01T00:00:30.000Z',
      history: [...base.history, { at, status: 'scheduled' as const, by: 'li' }],
    };
    const time = '<!date^1893456030^{time}|00:00 UTC>';
    const held = draw(scheduled);
    const text = JSON.stringify(held.blocks);
    expect(text).toContain(`Approved by li — sending at ${time} unless someone presses Undo`);
    expect(text).toContain('graded_tools_cancel');
    expect(text).not.toContain('graded_tools_approve');
    expect(blocksProblem(held.blocks, 50)).toBeUndefined();
    expect(JSON.stringify(draw(scheduled, 'zh-CN').blocks)).toContain(
      `li 已批准 — 将于 ${time} 发送，除非有人点击撤销`,
    );
    expect(JSON.stringify(draw(scheduled, 'zh-CN').blocks)).toContain('"text":"撤销"');

    const cancelled = {
      ...scheduled,
      status: 'cancelled' as const,
      history: [...scheduled.history, { at, status: 'cancelled' as const, by: 'wu' }],
    };
    expect(JSON.stringify(draw(cancelled).blocks)).toContain('Cancelled by wu; nothing was sent');
    expect(JSON.stringify(draw(cancelled).blocks)).not.toContain('graded_tools_cancel');
    expect(JSON.stringify(draw(cancelled, 'zh-CN').blocks)).toContain('wu 已撤销，未发送');

    // The sweep's delivery names nobody: the approver is the one who scheduled it.
    const sent = {
      ...scheduled,
      status: 'delivered' as const,
      history: [
        ...scheduled.history,
        { at, status: 'delivering' as const },
        { at, status: 'delivered' as const },
      ],
    };
    expect(JSON.stringify(draw(sent).blocks)).toContain('Approved by li — sent');
    expect(JSON.stringify(draw(sent, 'zh-CN').blocks)).toContain('li 已批准 — 已发送');
    expect(JSON.stringify(draw(sent).blocks)).not.toContain('graded_tools_cancel');
  });

  it('offers Approve and Edit only for a payload it shows whole: not past a cut value, a hidden field or a cut name', () => {
    const editable = { ...tool, editable: ['text'] };
    const card = (payload: unknown, locale: 'en' | 'zh-CN' = 'en', consoleLink?: string) =>
      approvalMessage({
        confirmation: { ...base, payload },
        tool: editable,
        locale,
        nameOf: (id) => id,
        ...(consoleLink === undefined ? {} : { consoleLink }),
      });
    const buttons = (payload: unknown) =>
      JSON.stringify(card(payload).blocks).match(/graded_tools_(approve|edit|reject|open_console)/g);
    const whole = (payload: unknown) =>
      showsWholePayload({ confirmation: { ...base, payload }, tool: editable, locale: 'en' });

    // At the edge: the longest value a section shows whole, escaping included, and one character more.
    const room = 3000 - '*text*\n'.length;
    expect(whole({ text: `${'x'.repeat(room - 5)}&` })).toBe(true);
    expect(whole({ text: `${'x'.repeat(room - 4)}&` })).toBe(false);
    expect(buttons({ text: 'x'.repeat(room) })).toEqual([
      'graded_tools_approve',
      'graded_tools_reject',
      'graded_tools_edit',
    ]);
    for (const cutOff of [
      { text: 'x'.repeat(room + 1) },
      { text: '&'.repeat(1_000) },
      Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`f${i}`, 'v'])),
      { [`k${'e'.repeat(250)}`]: 'a name longer than the card shows' },
      'y'.repeat(4_000),
    ]) {
      expect(whole(cutOff)).toBe(false);
      expect(buttons(cutOff)).toEqual(['graded_tools_reject']);
      expect(blocksProblem(card(cutOff).blocks, 50)).toBeUndefined();
    }
    const linked = card(
      { text: 'x'.repeat(5_000) },
      'en',
      'https://desk.example/approvals/confirmations/c_1',
    );
    expect(JSON.stringify(linked.blocks)).toContain(
      '"url":"https://desk.example/approvals/confirmations/c_1"',
    );
    expect(JSON.stringify(linked.blocks)).toContain('too long to show whole in Slack');
    const zh = JSON.stringify(card({ text: 'x'.repeat(5_000) }, 'zh-CN').blocks);
    expect(zh).toContain('无法在 Slack 中完整显示');
    expect(zh).toContain('没有审批控制台的链接');
    // A javascript: link is no link: the card says there is none.
    const evil = JSON.stringify(card({ text: 'x'.repeat(5_000) }, 'en', 'javascript:alert(1)').blocks);
    expect(evil).not.toContain('javascript:');
    expect(evil).toContain('no link to the approvals console');
  });
});
