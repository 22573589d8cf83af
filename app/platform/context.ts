// What every service call receives: the database (or the transaction it runs in), who acts,
// and request facts for the audit trail.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import type { Principal } from './lib/permissions.ts';

export type Db = Kysely<Database>;

export type AuthUser = Principal & {
  username: string;
  email: string;
  fullName: string | null;
  position: string | null;
  phoneNumber: string | null;
  isActive: boolean;
  isTemporaryPassword: boolean;
  passwordChangeRequired: boolean;
  lastLoginAt: string | null;
  createdAt: string;
};

export type Actor =
  | { kind: 'user'; user: AuthUser }
  | { kind: 'system'; label: 'system' | 'cli' | 'worker' | 'integration' };

export interface RequestMeta {
  ip?: string | null;
  userAgent?: string | null;
  sessionId?: string | null;
}

export interface ServiceContext {
  db: Db;
  actor: Actor;
  meta: RequestMeta;
}

export const systemActor = (label: 'system' | 'cli' | 'worker' | 'integration' = 'system'): Actor => ({ kind: 'system', label });

export function actorUserId(actor: Actor): number | null {
  return actor.kind === 'user' ? actor.user.id : null;
}

export function actorLabel(actor: Actor): string {
  return actor.kind === 'user' ? actor.user.username : actor.label;
}

/** Runs fn in a transaction, joining the caller's when there already is one. */
export async function inTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db);
  return db.transaction().execute(fn);
}
