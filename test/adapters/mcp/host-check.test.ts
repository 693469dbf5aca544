import { describe, expect, it } from 'vitest';
import { hostRefusal, LOOPBACK_HOSTS } from '../../../src/adapters/mcp/host-check.js';

const loopback = { allowedHosts: LOOPBACK_HOSTS, allowedOrigins: [] };

describe('hostRefusal', () => {
  it.each([
    ['127.0.0.1:3000', undefined],
    ['localhost', undefined],
    ['[::1]:8080', undefined],
    ['LOCALHOST:1', undefined],
  ])('serves Host %s', (host, origin) => {
    expect(hostRefusal(host, origin, loopback)).toBeUndefined();
  });

  it.each([
    [undefined, undefined, 'Host header not allowed'],
    ['evil.example', undefined, 'Host header not allowed'],
    ['127.0.0.1.evil.example:80', undefined, 'Host header not allowed'],
    ['localhost@evil.example', undefined, 'Host header not allowed'],
    ['localhost/path', undefined, 'Host header not allowed'],
    ['localhost:99999', undefined, 'Host header not allowed'],
    ['local host', undefined, 'Host header not allowed'],
    ['localhost:3000', 'https://evil.example', 'Origin not allowed'],
    ['localhost:3000', 'null', 'Origin not allowed'],
    ['localhost:3000', 'not a url', 'Origin not allowed'],
  ])('refuses Host %s with Origin %s: %s', (host, origin, refusal) => {
    expect(hostRefusal(host, origin, loopback)).toBe(refusal);
  });

  it('takes listed origins and any host behind a checking proxy', () => {
    const policy = { allowedHosts: 'any' as const, allowedOrigins: ['https://app.example.com'] };
    expect(hostRefusal('mcp.example.com', undefined, policy)).toBeUndefined();
    expect(hostRefusal('mcp.example.com', 'https://app.example.com', policy)).toBeUndefined();
    expect(hostRefusal('mcp.example.com', 'https://other.example.com', policy)).toBe('Origin not allowed');
  });
});
