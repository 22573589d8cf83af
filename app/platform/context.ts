// What every service call receives: the database (or the transaction it runs in), who acts,
// request facts for the audit trail and the process's runtime (its job queue); and the one
// permission check every service makes on it.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import type { Runtime } from './runtime.ts';
import { forbidden, notFound } from './errors.ts';
import {
  can,
  canGroupWide,
  companyScope,
  outOfScope,
  type Action,
  type Area,
  type Principal,
} from './lib/permissions.ts';

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
  { kind: 'user'; user: AuthUser } | { kind: 'system'; label: 'system' | 'cli' | 'worker' | 'integration' };

export interface RequestMeta {
  ip?: string | null;
  userAgent?: string | null;
  sessionId?: string | null;
}

export interface ServiceContext {
  db: Db;
  actor: Actor;
  meta: RequestMeta;
  runtime: Runtime;
}

export const systemActor = (label: 'system' | 'cli' | 'worker' | 'integration' = 'system'): Actor => ({
  kind: 'system',
  label,
});

export function actorUserId(actor: Actor): number | null {
  return actor.kind === 'user' ? actor.user.id : null;
}

export function actorLabel(actor: Actor): string {
  return actor.kind === 'user' ? actor.user.username : actor.label;
}

/** The signed-in user who acts, or null for a system actor (the worker, the CLI). */
export function actingUser(ctx: Pick<ServiceContext, 'actor'>): AuthUser | null {
  return ctx.actor.kind === 'user' ? ctx.actor.user : null;
}

export interface PermissionOptions {
  /** The 403's message (default 'Forbidden'). */
  message?: string;
  /** It writes what the whole group shares: a user limited to one company only reads it (403). */
  groupWide?: boolean;
  /**
   * 404 instead when only the user's company scope keeps them out (outOfScope): what spans the
   * installation does not exist for an admin of one company.
   */
  hideOutOfScope?: boolean;
}

/**
 * A service's permission check (docs/security.md): the acting user when they may do `action` in
 * `area` (`can`), else forbidden (or, with `hideOutOfScope`, notFound). A system actor (the worker,
 * the CLI) keeps every right: null.
 */
export function requirePermission(
  ctx: Pick<ServiceContext, 'actor'>,
  area: Area,
  action: Action = 'read',
  options: PermissionOptions = {},
): AuthUser | null {
  const user = actingUser(ctx);
  if (!user || (options.groupWide ? canGroupWide(user, area, action) : can(user, area, action))) return user;
  if (options.hideOutOfScope && outOfScope(user, area)) throw notFound();
  throw forbidden(options.message);
}

/** A service only a signed-in user calls (their own profile, settings, notifications): that user, else forbidden. */
export function requireUser(ctx: Pick<ServiceContext, 'actor'>): AuthUser {
  const user = actingUser(ctx);
  if (!user) throw forbidden();
  return user;
}

/** The one company the acting user is limited to; null: every company (and a system actor). */
export function actorCompanyScope(ctx: Pick<ServiceContext, 'actor'>): number | null {
  const user = actingUser(ctx);
  return user ? companyScope(user) : null;
}

/** Runs fn in a transaction, joining the caller's when there already is one. */
export async function inTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db);
  return db.transaction().execute(fn);
}
