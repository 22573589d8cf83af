// Service contexts for tests: a signed-in user as the actor, as the HTTP layer builds it.
import type { Db, RequestMeta, ServiceContext } from '../app/platform/context.ts';
import { findUserById } from '../app/features/users/user-queries.server.ts';

export async function userContext(db: Db, userId: number, meta: RequestMeta = {}): Promise<ServiceContext> {
  const user = await findUserById(db, userId);
  if (!user) throw new Error(`no user ${userId}`);
  return { db, actor: { kind: 'user', user }, meta: { ip: '192.0.2.1', userAgent: 'vitest', ...meta } };
}

/** The id of the owner that createPreparedDatabase creates. */
export async function ownerId(db: Db): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', 'owner@example.com')
    .executeTakeFirstOrThrow();
  return row.id;
}
