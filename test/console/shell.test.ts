import { ToolRegistry } from 'graded-tools';
import { createApprovalsConsole } from 'graded-tools/console';
import { describe, expect, it } from 'vitest';
import { PAGE_SCRIPT, PAGE_STYLE } from '../../src/console/page-assets.generated.js';
import { escapeHtml } from '../../src/util/escape-html.js';

const ORIGIN = 'http://console.test';

function consoleFor(personId: string, basePath = '/approvals', locale?: 'en' | 'zh-CN') {
  return createApprovalsConsole({
    registry: new ToolRegistry(),
    authenticate: () => ({ id: personId }),
    basePath,
    allowedHosts: ['console.test'],
    ...(locale === undefined ? {} : { locale }),
  });
}

describe('the HTML shell', () => {
  it('is exactly the contract’s page: base, language and person as attributes, the assets from the base', async () => {
    const response = await consoleFor('lead-li').fetch(new Request(`${ORIGIN}/approvals/`));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await response.text();
    // The tab's icon is inline (a data: SVG the CSP's img-src allows); the rest is exactly this.
    const icon = /<link rel="icon" type="image\/svg\+xml" href="data:image\/svg\+xml,[^"]+">/.exec(html);
    expect(icon).not.toBeNull();
    expect(html.replace(icon?.[0] ?? '', '')).toBe(
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" ' +
        'content="width=device-width, initial-scale=1"><title>Approvals</title><link rel="stylesheet" ' +
        'href="/approvals/assets/console.css"></head><body><div id="app" data-base="/approvals" ' +
        'data-locale="en" data-person="lead-li"></div><script src="/approvals/assets/console.js" defer>' +
        '</script></body></html>',
    );
  });

  it('is served for a confirmation’s own address too, in Chinese from Accept-Language or the option', async () => {
    const fromHeader = await consoleFor('lead-li', '/').fetch(
      new Request(`${ORIGIN}/confirmations/abcdefghijkl`, { headers: { 'accept-language': 'zh-CN' } }),
    );
    const html = await fromHeader.text();
    expect(html).toContain('<html lang="zh-CN">');
    expect(html).toContain('<title>待审批</title>');
    expect(html).toContain('data-base=""');
    expect(html).toContain('<script src="/assets/console.js" defer>');
    const fromOption = await consoleFor('lead-li', '/', 'zh-CN').fetch(
      new Request(`${ORIGIN}/`, { headers: { 'accept-language': 'en' } }),
    );
    expect(await fromOption.text()).toContain('data-locale="zh-CN"');
  });

  it('escapes the person’s id: a hostile id stays inside its attribute', async () => {
    const hostile = `"><script>alert(1)</script><img src=x onerror='alert(2)'>&`;
    const html = await (await consoleFor(hostile).fetch(new Request(`${ORIGIN}/approvals/`))).text();
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img');
    expect(html).toContain(`data-person="${escapeHtml(hostile)}"`);
    expect(html).toContain(
      'data-person="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=&#39;alert(2)&#39;&gt;&amp;"',
    );
    // Exactly one script element: the console's own.
    expect(html.match(/<script/g)).toHaveLength(1);
  });
});

describe('the page assets', () => {
  it('are served from memory, without a session, with their JavaScript and CSS types', async () => {
    const approvals = createApprovalsConsole({
      registry: new ToolRegistry(),
      authenticate: () => undefined,
      allowedHosts: ['console.test'],
    });
    const script = await approvals.fetch(new Request(`${ORIGIN}/assets/console.js`));
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toBe(PAGE_SCRIPT);
    const style = await approvals.fetch(new Request(`${ORIGIN}/assets/console.css`));
    expect(style.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(await style.text()).toBe(PAGE_STYLE);
    expect((await approvals.fetch(new Request(`${ORIGIN}/assets/other.js`))).status).toBe(404);
  });
});

describe('escapeHtml', () => {
  it('replaces the five characters that end text or a quoted attribute, and nothing else', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;',
    );
    expect(escapeHtml('待审批 ✓ plain')).toBe('待审批 ✓ plain');
  });
});
