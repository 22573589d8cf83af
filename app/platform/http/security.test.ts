// Response headers and the same-origin rule for state-changing requests (docs/security.md).
import { describe, expect, it } from 'vitest';
import { isSameOrigin, securityHeaders } from './security.ts';
import { safeRedirect } from '../../features/auth/authenticator.server.ts';

const host = 'finance.example.com';
const check = (headers: { origin?: string; referer?: string }) => isSameOrigin({ ...headers, host, protocol: 'https' });

describe('isSameOrigin', () => {
  it('accepts our own origin or referer', () => {
    expect(check({ origin: 'https://finance.example.com' })).toBe(true);
    expect(check({ referer: 'https://finance.example.com/budget-planning?x=1' })).toBe(true);
  });

  it('refuses other origins, even with a same-origin referer', () => {
    expect(check({ origin: 'http://evil.example' })).toBe(false);
    expect(check({ origin: 'https://finance.example.com.evil.example' })).toBe(false);
    expect(check({ origin: 'https://finance.example.com:8443' })).toBe(false);
    expect(check({ origin: 'http://evil.example', referer: 'https://finance.example.com/' })).toBe(false);
    expect(check({ referer: 'https://evil.example/finance.example.com' })).toBe(false);
  });

  it("refuses the opaque 'null' origin and garbage", () => {
    expect(check({ origin: 'null' })).toBe(false);
    expect(check({ origin: 'not a url' })).toBe(false);
    expect(check({ referer: '::::' })).toBe(false);
  });

  it('refuses requests without Origin and Referer', () => {
    expect(check({})).toBe(false);
    expect(check({ origin: '' })).toBe(false);
  });

  it('compares the scheme too', () => {
    expect(check({ origin: 'http://finance.example.com' })).toBe(false);
    expect(check({ referer: 'http://finance.example.com/profile' })).toBe(false);
    expect(isSameOrigin({ origin: 'https://finance.example.com', host, protocol: 'http' })).toBe(false);
    expect(isSameOrigin({ origin: 'http://finance.example.com', host, protocol: 'http' })).toBe(true);
  });
});

describe('securityHeaders', () => {
  it('sets a nonce CSP without unsafe-inline scripts, framing and sniffing protection', () => {
    const headers = securityHeaders('abc123', false);
    const csp = headers['Content-Security-Policy'];
    const scriptSrc = csp
      .split(';')
      .map((d) => d.trim())
      .find((d) => d.startsWith('script-src'));
    expect(scriptSrc).toContain("'nonce-abc123'");
    expect(scriptSrc).not.toContain('unsafe-inline');
    expect(scriptSrc).not.toContain('unsafe-eval');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(headers['X-Frame-Options']).toBe('DENY');
    expect(headers['X-Content-Type-Options']).toBe('nosniff');
    expect(headers['Referrer-Policy']).toBeTruthy();
    expect(headers['Strict-Transport-Security']).toBeUndefined();
  });

  it('adds HSTS only over HTTPS', () => {
    expect(securityHeaders('n', true)['Strict-Transport-Security']).toMatch(/max-age=\d+/);
  });
});

describe('safeRedirect', () => {
  it('keeps same-site paths and refuses everything else', () => {
    expect(safeRedirect('/budget-planning?tab=2')).toBe('/budget-planning?tab=2');
    for (const target of [
      '//evil.example',
      '/\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      '',
      null,
      undefined,
    ]) {
      expect(safeRedirect(target as any), String(target)).toBe('/');
    }
    expect(safeRedirect('http://evil.example', '/home')).toBe('/home');
  });

  it('refuses targets a browser turns into another site once it drops tabs and newlines', () => {
    // WHATWG URL parsing removes ASCII tab and newline: '/\t/evil.example' becomes '//evil.example'.
    for (const target of ['/\t/evil.example', '/\n/evil.example', '/\r\n/evil.example', '/\t\\evil.example']) {
      const result = safeRedirect(target);
      expect(new URL(result, 'https://finance.example.com').host, JSON.stringify(target)).toBe('finance.example.com');
    }
  });

  it('checks the normalised target: dot segments, encoded dots and backslashes cannot reach another host', () => {
    const attacks = [
      '/.//evil.example',
      '/..//evil.example/phish',
      '/a/..//evil.example/x',
      '/%2e//evil.example',
      '/%2E%2E//evil.example',
      '/\\evil.example',
      '\\\\evil.example',
      '/\t/evil.example',
      '/.\t//evil.example',
      '/\n\\evil.example',
      '/./\\evil.example',
      ' //evil.example',
      '//evil.example/%2e%2e',
    ];
    for (const target of attacks) {
      const result = safeRedirect(target);
      expect(result, JSON.stringify(target)).toBe('/');
    }
  });

  it('keeps legitimate paths, normalised', () => {
    expect(safeRedirect('/')).toBe('/');
    expect(safeRedirect('/users?tab=active#row-3')).toBe('/users?tab=active#row-3');
    expect(safeRedirect('/a/../budget-planning')).toBe('/budget-planning');
    expect(safeRedirect('/reports/./monthly?from=2026-01')).toBe('/reports/monthly?from=2026-01');
    expect(safeRedirect('/search?q=%2F%2Fevil')).toBe('/search?q=%2F%2Fevil');
  });
});
