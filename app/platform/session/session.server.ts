// The session cookie (a signed random token) and the guards every loader and action use.
import { redirect, type Cookie } from '@remix-run/node';
import { createCookie } from './cookie.server.ts';
import type { AppLoadContext } from '@remix-run/node';
import { findScreen, canOpen } from '../screen/navigation.ts';
import { outOfScope } from '../lib/permissions.ts';
import type { AuthUser, RequestMeta, ServiceContext } from '../context.ts';
import { REMEMBER_ME_DAYS, resolveSession, type SessionInfo, type TwoFactorFacts } from './sessions.server.ts';
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

// A sign-in waiting for its second factor: the challenge's token, for 5 minutes. It opens
// nothing by itself (app/features/auth/two-factor-challenges.server.ts).
const challengeCookies = new WeakMap<object, Cookie>();
function challengeCookie(context: AppLoadContext): Cookie {
  let cookie = challengeCookies.get(context.config);
  if (!cookie) {
    cookie = createCookie('__two_factor', {
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      secrets: [context.config.sessionSecret],
    });
    challengeCookies.set(context.config, cookie);
  }
  return cookie;
}

export async function readChallengeToken(request: Request, context: AppLoadContext): Promise<string | null> {
  const value = await challengeCookie(context).parse(request.headers.get('Cookie'));
  return typeof value === 'string' && value.length > 0 ? value : null;
}

export function challengeCookieHeader(context: AppLoadContext, token: string, expiresAt: string): Promise<string> {
  return challengeCookie(context).serialize(token, { secure: context.secure, expires: new Date(expiresAt) });
}

export function clearChallengeCookieHeader(context: AppLoadContext): Promise<string> {
  return challengeCookie(context).serialize('', { secure: context.secure, maxAge: 0 });
}

export interface Auth {
  user: AuthUser;
  session: SessionInfo;
  mustChangePassword: boolean;
  /** An owner or admin without a second factor where the owner requires one: sent to set it up first. */
  mustSetUpTwoFactor: boolean;
  twoFactorEnabled: boolean;
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
    const { user, session, settings, twoFactor } = resolved;
    return {
      user,
      session,
      settings,
      mustChangePassword: user.isTemporaryPassword || user.passwordChangeRequired,
      mustSetUpTwoFactor: mustSetUpTwoFactor(user, twoFactor),
      twoFactorEnabled: twoFactor.enabled,
    };
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

/** Owners and admins must set up a second factor when the owner requires it (System Settings). */
export function mustSetUpTwoFactor(user: Pick<AuthUser, 'role'>, facts: TwoFactorFacts): boolean {
  return facts.requiredForAdmins && !facts.enabled && (user.role === 'owner' || user.role === 'admin');
}

/** Where a signed-in user must go before anything else opens, if anywhere: the password first. */
export function requiredStep(auth: Auth): '/change-password' | '/two-factor' | null {
  if (auth.mustChangePassword) return '/change-password';
  if (auth.mustSetUpTwoFactor) return '/two-factor';
  return null;
}

/**
 * Screens: the signed-in user, or a redirect to the login page. A user who must change their
 * password is sent to /change-password from every other screen, then one who must set up
 * two-factor to /two-factor.
 */
export async function requireAuth(
  request: Request,
  context: AppLoadContext,
  options: { allowStep?: '/change-password' | '/two-factor' } = {},
): Promise<Auth> {
  const auth = await getAuth(request, context);
  if (!auth) {
    const target = safeRedirectTarget(request);
    throw redirect(target === '/' ? '/login' : `/login?redirectTo=${encodeURIComponent(target)}`);
  }
  const step = requiredStep(auth);
  if (step && step !== options.allowStep) throw redirect(step);
  return auth;
}

export function forbiddenResponse(): Response {
  return new Response('Forbidden', { status: 403, statusText: 'Forbidden' });
}

/** Screens of the route table: the permission comes from the table entry for the path. */
export async function requireScreen(request: Request, context: AppLoadContext): Promise<Auth> {
  const screen = findScreen(new URL(request.url).pathname);
  if (!screen) throw new Response('Not Found', { status: 404 });
  const auth = await requireAuth(request, context, {
    allowStep: screen.path === '/change-password' || screen.path === '/two-factor' ? screen.path : undefined,
  });
  if (!canOpen(auth.user, screen)) {
    // An installation-wide screen does not exist for an admin of one company.
    if (outOfScope(auth.user, screen.area)) throw new Response('Not Found', { status: 404 });
    throw forbiddenResponse();
  }
  return auth;
}
