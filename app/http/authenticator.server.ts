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

/** Only same-site paths: "/x", never "//host" or "/\host". */
export function safeRedirect(target: FormDataEntryValue | string | null | undefined, fallback = '/'): string {
  if (typeof target !== 'string' || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return fallback;
  return target;
}
