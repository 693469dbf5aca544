import { type ErrorCode, formatMessage, ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { en } from '../../src/messages/en.js';
import { zhCN } from '../../src/messages/zh-CN.js';
import { readTool } from '../helpers/tools.js';

// The catalogs are typed by ErrorCode, so their keys are every code there is.
const codes = Object.keys(en) as ErrorCode[];

describe('messages', () => {
  it('keeps the Chinese catalog in step with the English one', () => {
    expect(Object.keys(zhCN).sort()).toEqual(Object.keys(en).sort());
    expect(codes.length).toBeGreaterThanOrEqual(11);
  });

  it.each(codes)('has an English and a Chinese message for %s', (code) => {
    const en = formatMessage(code, { tool: 'kb.search' }, 'en');
    const zh = formatMessage(code, { tool: 'kb.search' }, 'zh-CN');
    expect(en).not.toBe('');
    expect(zh).not.toBe('');
    expect(zh).not.toBe(en);
    expect(zh).toMatch(/[\u4e00-\u9fff]/);
  });

  it('changes the message with the locale but never the code', async () => {
    const registry = new ToolRegistry({ locale: 'zh-CN' }).register(
      readTool('kb.search', { featureFlag: 'kb' }).tool,
    );
    const zh = await registry.invoke('kb.search', { query: 'x' });
    const en = await registry.invoke('kb.search', { query: 'x' }, { locale: 'en' });
    expect(zh).toMatchObject({ code: 'FLAG_NOT_GRANTED' });
    expect(en).toMatchObject({ code: 'FLAG_NOT_GRANTED' });
    expect(zh.ok ? '' : zh.error).toContain('功能开关');
    expect(en.ok ? '' : en.error).toContain('feature flag');
  });

  it('falls back to English for an unknown locale', () => {
    expect(formatMessage('ABORTED', {}, 'fr' as never)).toBe(formatMessage('ABORTED', {}, 'en'));
  });
});

describe('messages: a locale naming an Object.prototype member (issue 7, hole 1)', () => {
  // The catalog lookup must be an own-key lookup: `catalogs['constructor']` is `Object`, not a catalog.
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'])(
    'gives the English message for locale %j instead of throwing',
    (locale) => {
      for (const code of ['UNKNOWN_TOOL', 'ABORTED', 'INVALID_OPTION'] as const) {
        expect(() => formatMessage(code, {}, locale as never)).not.toThrow();
        expect(formatMessage(code, {}, locale as never)).toBe(formatMessage(code, {}, 'en'));
      }
    },
  );
});
