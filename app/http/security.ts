// Response headers and the same-origin rule for state-changing requests.

export function securityHeaders(nonce: string, secure: boolean): Record<string, string> {
  const csp = [
    "default-src 'self'",
    // Remix needs its inline hydration scripts; they carry this response's nonce.
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  const headers: Record<string, string> = {
    'Content-Security-Policy': csp,
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
  };
  if (secure) headers['Strict-Transport-Security'] = 'max-age=31536000; includeSubDomains';
  return headers;
}

/**
 * A state-changing request is ours when its Origin (or, without one, its Referer) names this
 * host. Requests with neither come from non-browser clients, which cannot ride a victim's
 * cookies (and SameSite=Lax keeps browsers from sending them cross-site anyway).
 */
export function isSameOrigin(req: { origin?: string; referer?: string; host: string; protocol: string }): boolean {
  const source = req.origin ?? req.referer;
  if (source === undefined) return true;
  if (source === 'null') return false;
  try {
    return new URL(source).host === req.host;
  } catch {
    return false;
  }
}
