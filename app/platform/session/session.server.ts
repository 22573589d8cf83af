// The session cookie (a signed random token) and the guards every loader and action use.
import { redirect, type Cookie } from '@remix-run/node';
import { createCookie } from './cookie.server.ts';
import type { AppLoadContext } from '@remix-run/node';
import { findScreen, canOpen } from '../screen/navigation.ts';
import { outOfScope } from '../lib/permissions.ts';
import type { AuthUser, RequestMeta, ServiceContext } from '../context.ts';
import { REMEMBER_ME_DAYS, resolveSession, type SessionInfo } from './sessions.server.ts';
import type { UserSettings } from './user-settings-row.ts';

const cookies = new WeakMap<object, Cookie>();
function sessionCookie(context: AppLoadContext): Cookie {
  let cookie = cookies.get(context.config);
  if (!cookie) {
    cookie = createCookie('__session', {
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      secrets: [context.config.sessionSecret],
    });
    cookies.set(context.config, cookie);
  }
  return cookie;
}

export async function readSessionToken(request: Request, context: AppLoadContext): Promise<string | null> {
  const value = await sessionCookie(context).parse(request.headers.get('Cookie'));
  return typeof value === 'string' && value.length > 0 ? value : null;
}

export function sessionCookieHeader(context: AppLoadContext, token: string, rememberMe: boolean): Promise<string> {
  return sessionCookie(context).serialize(token, {
    secure: context.secure,
    maxAge: rememberMe ? REMEMBER_ME_DAYS * 86_400 : undefined,
  });
}

export function clearSessionCookieHeader(context: AppLoadContext): Promise<string> {
  return sessionCookie(context).serialize('', { secure: context.secure, maxAge: 0 });
}

export interface Auth {
  user: AuthUser;
  session: SessionInfo;
  mustChangePassword: boolean;
  /** The user's settings row as read with the session, before this request's action (null: none yet). */
  settings: UserSettings | null;
}

/** The signed-in user of this request, resolved once per request. */
export async function getAuth(request: Request, context: AppLoadContext): Promise<Auth | null> {
  const memo = context.memo.get('auth') as Promise<Auth | null> | undefined;
  if (memo) return memo;
  const pending = (async () => {
    const token = await readSessionToken(request, context);
    if (!token) return null;
    const resolved = await resolveSession(context.db, token);
    if (!resolved) return null;
    const { user, session, settings } = resolved;
    return { user, session, settings, mustChangePassword: user.isTemporaryPassword || user.passwordChangeRequired };
  })();
  context.memo.set('auth', pending);
  return pending;
}

export function requestMeta(request: Request, context: AppLoadContext, auth?: Auth | null): RequestMeta {
  return {
    ip: context.clientIp,
    userAgent: request.headers.get('User-Agent'),
    sessionId: auth?.session.sessionId ?? null,
  };
}

export function serviceContext(request: Request, context: AppLoadContext, auth: Auth): ServiceContext {
  return {
    db: context.db,
    actor: { kind: 'user', user: auth.user },
    meta: requestMeta(request, context, auth),
    runtime: context.runtime,
  };
}

function safeRedirectTarget(request: Request): string {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
}

/**
 * Screens: the signed-in user, or a redirect to the login page. A user who must change their
 * password is sent to /change-password from every other screen.
 */
export async function requireAuth(
  request: Request,
  context: AppLoadContext,
  options: { allowPasswordChange?: boolean } = {},
): Promise<Auth> {
  const auth = await getAuth(request, context);
  if (!auth) {
    const target = safeRedirectTarget(request);
    throw redirect(target === '/' ? '/login' : `/login?redirectTo=${encodeURIComponent(target)}`);
  }
  if (auth.mustChangePassword && !options.allowPasswordChange) throw redirect('/change-password');
  return auth;
}

export function forbiddenResponse(): Response {
  return new Response('Forbidden', { status: 403, statusText: 'Forbidden' });
}

/** Screens of the route table: the permission comes from the table entry for the path. */
export async function requireScreen(request: Request, context: AppLoadContext): Promise<Auth> {
  const screen = findScreen(new URL(request.url).pathname);
  if (!screen) throw new Response('Not Found', { status: 404 });
  const auth = await requireAuth(request, context, { allowPasswordChange: screen.path === '/change-password' });
  if (!canOpen(auth.user, screen)) {
    // An installation-wide screen does not exist for an admin of one company.
    if (outOfScope(auth.user, screen.area)) throw new Response('Not Found', { status: 404 });
    throw forbiddenResponse();
  }
  return auth;
}
