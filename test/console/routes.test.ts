import { describe, expect, it } from 'vitest';
import { matchRoute, normaliseBasePath } from '../../src/console/routes.js';

describe('normaliseBasePath', () => {
  it('normalises the base path and refuses what is not a plain absolute path', () => {
    expect(normaliseBasePath(undefined)).toBe('');
    expect(normaliseBasePath('/')).toBe('');
    expect(normaliseBasePath('/approvals')).toBe('/approvals');
    expect(normaliseBasePath('/approvals/')).toBe('/approvals');
    expect(normaliseBasePath('/ops/approvals')).toBe('/ops/approvals');
    for (const bad of [
      'approvals',
      '//x',
      '/a//b',
      '/a/../b',
      '/./a',
      '/a?b',
      '/a#b',
      '/a b',
      '/a"b',
      7,
      null,
    ])
      expect(normaliseBasePath(bad), String(bad)).toBeUndefined();
  });
});

describe('matchRoute', () => {
  const id = 'AbC-_0123456789xyz';

  it('names every route of the contract, with the id decoded from its path', () => {
    const cases: [string, string, string, string?][] = [
      ['GET', '/approvals', 'inbox'],
      ['GET', '/approvals/', 'inbox'],
      ['GET', `/approvals/confirmations/${id}`, 'detail', id],
      ['GET', '/approvals/assets/console.js', 'script'],
      ['GET', '/approvals/assets/console.css', 'style'],
      ['GET', '/approvals/api/session', 'session'],
      ['GET', '/approvals/api/confirmations', 'list'],
      ['GET', `/approvals/api/confirmations/${id}`, 'get', id],
      ['POST', `/approvals/api/confirmations/${id}/confirm`, 'confirm', id],
      ['POST', `/approvals/api/confirmations/${id}/reject`, 'reject', id],
      ['POST', `/approvals/api/confirmations/${id}/retry`, 'retry', id],
      ['POST', `/approvals/api/confirmations/${id}/mark-delivered`, 'markDelivered', id],
      ['POST', `/approvals/api/confirmations/${id}/preview`, 'preview', id],
      ['POST', '/approvals/api/confirm-many', 'confirmMany'],
      ['POST', '/approvals/api/reject-many', 'rejectMany'],
      ['GET', '/approvals/api/events', 'events'],
    ];
    for (const [method, path, name, routeId] of cases) {
      const match = matchRoute(method, path, '/approvals');
      expect(match, path).toEqual({
        ok: true,
        route: { name, method, ...(routeId === undefined ? {} : { id: routeId }) },
      });
    }
    expect(matchRoute('GET', '/api/confirmations/a%2Fb', '')).toMatchObject({ route: { id: 'a/b' } });
    expect(matchRoute('GET', '/api/confirmations/%E0%A4%A', '')).toMatchObject({ route: { id: '%E0%A4%A' } });
  });

  it('is 404 outside the base path or for an unknown action, and 405 with the allowed method', () => {
    expect(matchRoute('GET', '/api/session', '/approvals')).toEqual({ ok: false, status: 404 });
    expect(matchRoute('GET', '/approvalsx', '/approvals')).toEqual({ ok: false, status: 404 });
    expect(matchRoute('POST', `/api/confirmations/${id}/deliver`, '')).toEqual({ ok: false, status: 404 });
    expect(matchRoute('POST', '/api/constructor', '')).toEqual({ ok: false, status: 404 });
    expect(matchRoute('GET', '/__proto__', '')).toEqual({ ok: false, status: 404 });
    expect(matchRoute('DELETE', '/api/session', '')).toEqual({ ok: false, status: 405, allow: 'GET' });
    expect(matchRoute('GET', `/api/confirmations/${id}/confirm`, '')).toEqual({
      ok: false,
      status: 405,
      allow: 'POST',
    });
  });
});
