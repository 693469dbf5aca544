import { describe, expect, it } from 'vitest';
import { passkeyRequiredText, passkeyWords, requiresPasskey } from '../../src/messages/passkey-words.js';

describe('passkey words', () => {
  it('say every sentence in English and Chinese, English for any other locale', () => {
    const en = passkeyWords('en');
    const zh = passkeyWords('zh-CN');
    expect(passkeyWords('fr')).toBe(en);
    expect(passkeyWords({ toString: () => 'zh-CN' })).toBe(en);
    expect(en.approve).toBe('Approve with passkey');
    expect(zh.approve).toBe('使用通行密钥批准');
    expect(en.bulk).toBe('Needs a passkey: approve it on its card.');
    expect(zh.bulk).toBe('需要通行密钥：请在它的卡片上批准。');
    expect(en.approveCount(1, 2)).toBe('Approve with passkey (1 of 2)');
    expect(en.approveAll(3)).toBe('Approve all 3 steps with passkey');
    expect(zh.approveAll(3)).toBe('使用通行密钥全部批准（共 3 步）');
    expect(passkeyRequiredText('zh-CN')).toBe(zh.required);
    // Every string of one language has its counterpart in the other, and none is left in English.
    const keys = (w: object): string[] => Object.keys(w).sort();
    expect(keys(zh)).toEqual(keys(en));
    expect(keys(zh.page)).toEqual(keys(en.page));
    for (const [key, value] of Object.entries({ ...zh, ...zh.page }))
      if (typeof value === 'string' && key !== 'lang') expect(value, key).toMatch(/[\u4e00-\u9fff]/);
  });

  it('reads requires.passkey only when it is exactly true', () => {
    expect(requiresPasskey({ requires: { approvals: 1, passkey: true } })).toBe(true);
    expect(requiresPasskey({ requires: { approvals: 1, passkey: 'yes' } })).toBe(false);
    expect(requiresPasskey({ requires: null })).toBe(false);
    expect(requiresPasskey({})).toBe(false);
    expect(requiresPasskey(undefined)).toBe(false);
  });
});
