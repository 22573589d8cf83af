// remix-auth with its form strategy, verifying through our login service (throttling,
// auditing and session rotation live there). remix-auth v4 keeps no session itself: we
// issue our own server-side session cookie from the result.
import type { AppLoadContext } from '@remix-run/node';
import { Authenticator } from 'remix-auth';
import { FormStrategy } from 'remix-auth-form';
import { login, type LoginResult } from '../services/auth.server.ts';
import { readSessionToken, requestMeta } from './session.server.ts';

export function authenticatorFor(context: AppLoadContext): Authenticator<LoginResult> {
  const authenticator = new Authenticator<LoginResult>();
  authenticator.use(
    new FormStrategy(async ({ form, request }) =>
      login(
        context.db,
        requestMeta(request, context),
        {
          email: String(form.get('email') ?? ''),
          password: String(form.get('password') ?? ''),
          rememberMe: form.get('rememberMe') === 'on',
        },
        await readSessionToken(request, context),
      ),
    ),
    'form',
  );
  return authenticator;
}

/** Only paths of this site: "/x", never "//host", "/\host" or "/\t/host". */
export function safeRedirect(target: FormDataEntryValue | string | null | undefined, fallback = '/'): string {
  // Browsers drop tabs and newlines and read "\" as "/", so such characters are refused
  // outright; what remains must resolve to this site.
  if (typeof target !== 'string' || !target.startsWith('/') || /[\u0000-\u001f\u007f\\]/.test(target)) return fallback;
  const base = 'http://finhub.invalid';
  let url: URL;
  try {
    url = new URL(target, base);
  } catch {
    return fallback;
  }
  if (url.origin !== base) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}
