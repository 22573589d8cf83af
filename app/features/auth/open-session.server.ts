// Opening the session of a completed sign-in (a password alone, or a password and a second
// factor): counted on the user and audited.
import { recordAudit } from '../../platform/audit.server.ts';
import type { AuthUser, Db, RequestMeta } from '../../platform/context.ts';
import { createSession, endSessions } from '../../platform/session/sessions.server.ts';
import type { LoginResult } from './auth.server.ts';

/**
 * Opens a session for a user whose sign-in is complete (ending `previousToken`'s), counts the
 * sign-in and audits it with `reason`. Runs in the caller's transaction.
 */
export async function openSession(
  trx: Db,
  user: AuthUser,
  meta: RequestMeta,
  options: { rememberMe: boolean; previousToken?: string | null; reason: string },
): Promise<LoginResult> {
  if (options.previousToken) await endSessions(trx, { token: options.previousToken }, 'rotated');
  const now = new Date().toISOString();
  const { token, session } = await createSession(trx, {
    userId: user.id,
    ip: meta.ip,
    userAgent: meta.userAgent,
    rememberMe: options.rememberMe,
  });
  const counters = await trx
    .selectFrom('users')
    .select(['loginCount', 'totalSessionDuration'])
    .where('id', '=', user.id)
    .executeTakeFirstOrThrow();
  const loginCount = counters.loginCount + 1;
  await trx
    .updateTable('users')
    .set({
      lastLoginAt: now,
      lastActivityAt: now,
      loginCount,
      averageSessionDuration: Math.round(counters.totalSessionDuration / loginCount),
    })
    .where('id', '=', user.id)
    .execute();
  await recordAudit(
    { db: trx, actor: { kind: 'user', user }, meta: { ...meta, sessionId: session.sessionId } },
    { tableName: 'users', recordId: user.id, action: 'login', reason: options.reason },
  );
  return { user: { ...user, lastLoginAt: now }, token, session };
}
