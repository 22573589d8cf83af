// remix-auth with its form strategy, verifying through our login service (throttling,
// auditing and session rotation live there). remix-auth v4 keeps no session itself: we
// issue our own server-side session cookie from the result, or send a user with two-factor on to
// the second step.
import type { AppLoadContext } from '@remix-run/node';
import { Authenticator } from 'remix-auth';
import { FormStrategy } from 'remix-auth-form';
import { signIn, type SignInStep } from './auth.server.ts';
import { readSessionToken, requestMeta } from '../../platform/session/session.server.ts';

export function authenticatorFor(context: AppLoadContext): Authenticator<SignInStep> {
  const authenticator = new Authenticator<SignInStep>();
  authenticator.use(
    new FormStrategy(async ({ form, request }) =>
      signIn(
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

/**
 * Only paths of this site: "/x", never "//host", "/\host" or "/\t/host". The target is resolved
 * against a dummy origin first, so what is checked is what a browser would follow: "/.//evil",
 * "/a/..//evil" and "/%2e//evil" all normalise to "//evil" and are refused.
 */
export function safeRedirect(target: FormDataEntryValue | string | null | undefined, fallback = '/'): string {
  if (typeof target !== 'string' || target === '') return fallback;
  const base = 'http://x.invalid';
  let url: URL;
  try {
    url = new URL(target, base);
  } catch {
    return fallback;
  }
  if (url.origin !== base) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // Still refuse control characters and backslashes left anywhere in the result.
  if (!path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\') || /[\u0000-\u001f\u007f\\]/.test(path))
    return fallback;
  return path;
}
