// Service contexts for tests: a signed-in user as the actor, as the HTTP layer builds it.
import { systemActor, type Actor, type Db, type RequestMeta, type ServiceContext } from '../app/platform/context.ts';
import { createRuntime, type Runtime } from '../app/platform/runtime.ts';
import { findUserById } from '../app/features/users/user-queries.server.ts';

/** A process without a job engine: enqueue is refused, as in the CLI. */
export const noEngine = (): Runtime => createRuntime();

export async function userContext(db: Db, userId: number, meta: RequestMeta = {}): Promise<ServiceContext> {
  const user = await findUserById(db, userId);
  if (!user) throw new Error(`no user ${userId}`);
  return {
    db,
    actor: { kind: 'user', user },
    meta: { ip: '192.0.2.1', userAgent: 'vitest', ...meta },
    runtime: noEngine(),
  };
}

/** A system actor's context (the worker, the CLI) in a process without a job engine. */
export function systemContext(db: Db, label: Extract<Actor, { kind: 'system' }>['label'] = 'system'): ServiceContext {
  return { db, actor: systemActor(label), meta: {}, runtime: noEngine() };
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
