import { describe, expect, it } from 'vitest';
import { EventStreams } from '../../src/console/events-stream.js';
import { consoleRoutes, matchRoute, normaliseBasePath } from '../../src/console/routes.js';

const routes = consoleRoutes(new EventStreams());

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

  it('matches every route of the contract, with the id decoded from its path', () => {
    const cases: [string, string, string, string?][] = [
      ['GET', '/approvals', '/'],
      ['GET', '/approvals/', '/'],
      ['GET', `/approvals/confirmations/${id}`, '/confirmations/:id', id],
      ['GET', '/approvals/assets/console.js', '/assets/console.js'],
      ['GET', '/approvals/assets/console.css', '/assets/console.css'],
      ['GET', '/approvals/api/session', '/api/session'],
      ['GET', '/approvals/api/confirmations', '/api/confirmations'],
      ['GET', `/approvals/api/confirmations/${id}`, '/api/confirmations/:id', id],
      ['POST', `/approvals/api/confirmations/${id}/confirm`, '/api/confirmations/:id/confirm', id],
      ['POST', `/approvals/api/confirmations/${id}/reject`, '/api/confirmations/:id/reject', id],
      ['POST', `/approvals/api/confirmations/${id}/retry`, '/api/confirmations/:id/retry', id],
      [
        'POST',
        `/approvals/api/confirmations/${id}/mark-delivered`,
        '/api/confirmations/:id/mark-delivered',
        id,
      ],
      ['POST', `/approvals/api/confirmations/${id}/cancel`, '/api/confirmations/:id/cancel', id],
      ['POST', `/approvals/api/confirmations/${id}/preview`, '/api/confirmations/:id/preview', id],
      ['GET', `/approvals/link/${id}`, '/link/:id', id],
      ['POST', '/approvals/api/confirm-many', '/api/confirm-many'],
      ['POST', '/approvals/api/reject-many', '/api/reject-many'],
      ['GET', '/approvals/api/events', '/api/events'],
    ];
    for (const [method, path, pattern, routeId] of cases) {
      const match = matchRoute(routes, method, path, '/approvals');
      expect(match, path).toMatchObject({ ok: true, route: { method, path: pattern }, id: routeId ?? '' });
    }
    expect(matchRoute(routes, 'GET', '/api/confirmations/a%2Fb', '')).toMatchObject({ id: 'a/b' });
    expect(matchRoute(routes, 'GET', '/api/confirmations/%E0%A4%A', '')).toMatchObject({ id: '%E0%A4%A' });
  });

  it('is 404 outside the base path or for an unknown action, and 405 with the allowed method', () => {
    expect(matchRoute(routes, 'GET', '/api/session', '/approvals')).toEqual({ ok: false, status: 404 });
    expect(matchRoute(routes, 'GET', '/approvalsx', '/approvals')).toEqual({ ok: false, status: 404 });
    expect(matchRoute(routes, 'POST', `/api/confirmations/${id}/deliver`, '')).toEqual({
      ok: false,
      status: 404,
    });
    expect(matchRoute(routes, 'POST', '/api/constructor', '')).toEqual({ ok: false, status: 404 });
    expect(matchRoute(routes, 'GET', '/__proto__', '')).toEqual({ ok: false, status: 404 });
    expect(matchRoute(routes, 'GET', '/api/confirmations/', '')).toEqual({ ok: false, status: 404 });
    expect(matchRoute(routes, 'POST', '/api/confirmations//confirm', '')).toEqual({ ok: false, status: 404 });
    expect(matchRoute(routes, 'DELETE', '/api/session', '')).toEqual({
      ok: false,
      status: 405,
      allow: 'GET',
    });
    expect(matchRoute(routes, 'GET', `/api/confirmations/${id}/confirm`, '')).toEqual({
      ok: false,
      status: 405,
      allow: 'POST',
    });
  });
});
