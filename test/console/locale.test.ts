import { describe, expect, it } from 'vitest';
import { fromAcceptLanguage, requestLocale } from '../../src/console/locale.js';

describe('the console’s language', () => {
  it('reads Accept-Language by weight: any zh is zh-CN, else en', () => {
    expect(fromAcceptLanguage(null)).toBe('en');
    expect(fromAcceptLanguage('')).toBe('en');
    expect(fromAcceptLanguage('zh')).toBe('zh-CN');
    expect(fromAcceptLanguage('zh-TW')).toBe('zh-CN');
    expect(fromAcceptLanguage('zh-Hans-CN,zh;q=0.9')).toBe('zh-CN');
    expect(fromAcceptLanguage('en-US,zh;q=0.9')).toBe('en');
    expect(fromAcceptLanguage('en;q=0.4, zh-CN;q=0.8')).toBe('zh-CN');
    expect(fromAcceptLanguage('fr-FR, de;q=0.9, zh;q=0.5')).toBe('zh-CN');
    expect(fromAcceptLanguage('fr-FR, de;q=0.9')).toBe('en');
    expect(fromAcceptLanguage('zh;q=0, en')).toBe('en');
    expect(fromAcceptLanguage('zhx, xzh')).toBe('en');
    expect(fromAcceptLanguage('*')).toBe('en');
  });

  it('prefers the configured language over the request’s', () => {
    const request = new Request('http://x.test/', { headers: { 'accept-language': 'zh-CN' } });
    expect(requestLocale(undefined, request)).toBe('zh-CN');
    expect(requestLocale('en', request)).toBe('en');
  });
});
