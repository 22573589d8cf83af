// Response headers and the same-origin rule for state-changing requests.

const CSP_DIRECTIVES = [
  "default-src 'self'",
  // Remix needs its inline hydration scripts; they carry this response's nonce.
  "script-src 'self' 'nonce-{nonce}'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  // The push service worker (public/sw.js) and nothing else.
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');
// Joined once: every response only puts its nonce in between.
const [CSP_BEFORE_NONCE, CSP_AFTER_NONCE] = CSP_DIRECTIVES.split('{nonce}');

export function securityHeaders(nonce: string, secure: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Security-Policy': CSP_BEFORE_NONCE + nonce + CSP_AFTER_NONCE,
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
 * scheme and host. A request with neither is refused: browsers send one of them on
 * every cross-site or same-site POST we serve, and API clients can set Origin themselves.
 * `protocol` is the request's scheme as express sees it (X-Forwarded-Proto only through trusted
 * proxies), so an https Origin posting to a plain-http address is refused.
 */
export function isSameOrigin(req: { origin?: string; referer?: string; host: string; protocol: string }): boolean {
  const source = req.origin ?? req.referer;
  if (source === undefined || source === '' || source === 'null') return false;
  try {
    const url = new URL(source);
    return url.host === req.host && url.protocol === `${req.protocol.replace(/:$/, '')}:`;
  } catch {
    return false;
  }
}
