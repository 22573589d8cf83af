// The audit trail and data versions. Every create, update and delete of a domain row goes
// through writeRecord: row, audit entry and version in one transaction (docs/writes.md).
import type { Selectable } from 'kysely';
import type { Database } from '../../db/types.ts';
import { dialectOf, toJson } from '../../db/dialect.ts';
import { snakeCase } from './lib/names.ts';
import { actorLabel, actorUserId, inTransaction, type Db, type ServiceContext } from './context.ts';
import { notFound } from './errors.ts';
import { dynamic, type Row } from './query-types.server.ts';

/** Columns that never enter audit or version data. */
const SECRET_FIELDS = new Set(['passwordHash', 'password', 'tokenHash', 'credentialValue', 'encryptedValue']);

export function redact(row: Record<string, unknown> | null | undefined): Record<string, unknown> | null {
  if (!row) return null;
  return Object.fromEntries(Object.entries(row).filter(([key]) => !SECRET_FIELDS.has(key)));
}

const IGNORED_IN_CHANGES = new Set(['updatedAt']);

export function diff(
  oldData: Record<string, unknown> | null,
  newData: Record<string, unknown> | null,
): Record<string, { old: unknown; new: unknown }> {
  const keys = new Set([...Object.keys(oldData ?? {}), ...Object.keys(newData ?? {})]);
  const changes: Record<string, { old: unknown; new: unknown }> = {};
  for (const key of keys) {
    if (IGNORED_IN_CHANGES.has(key)) continue;
    const before = oldData?.[key] ?? null;
    const after = newData?.[key] ?? null;
    if (JSON.stringify(before) !== JSON.stringify(after)) changes[key] = { old: before, new: after };
  }
  return changes;
}

export type AuditAction = 'create' | 'update' | 'delete' | 'login' | 'login_failed' | 'logout' | 'restore' | 'other';

export interface AuditEntry {
  tableName: string;
  recordId: number | null;
  action: AuditAction;
  oldData?: Record<string, unknown> | null;
  newData?: Record<string, unknown> | null;
  changes?: Record<string, { old: unknown; new: unknown }> | null;
  reason?: string | null;
  /** Overrides the acting user (e.g. a login attempt is the account's own). */
  userId?: number | null;
  /** The company of the row (for company-scoped readers of the trail). */
  companyId?: number | null;
}

export async function recordAudit(
  ctx: Pick<ServiceContext, 'db' | 'actor' | 'meta'>,
  entry: AuditEntry,
): Promise<void> {
  await ctx.db.insertInto('auditLogs').values(auditValues(ctx, entry)).execute();
}

/** The audit row of an entry, as recordAudit stores it (the bulk writer of imports inserts many at once). */
export function auditValues(
  ctx: Pick<ServiceContext, 'actor' | 'meta'>,
  entry: AuditEntry,
  timestamp = new Date().toISOString(),
) {
  return {
    tableName: entry.tableName,
    recordId: entry.recordId,
    action: entry.action,
    oldData: entry.oldData === undefined ? null : toJson(redact(entry.oldData)),
    newData: entry.newData === undefined ? null : toJson(redact(entry.newData)),
    changes: entry.changes ? toJson(entry.changes) : null,
    userId: entry.userId !== undefined ? entry.userId : actorUserId(ctx.actor),
    actorLabel: actorLabel(ctx.actor),
    timestamp,
    ipAddress: ctx.meta.ip ?? null,
    userAgent: ctx.meta.userAgent ?? null,
    reason: entry.reason ?? null,
    sessionId: ctx.meta.sessionId ?? null,
    companyId: entry.companyId ?? null,
  };
}

/** The company a row belongs to: its own id for a company, else its companyId column. */
export function companyOfRow(tableName: string, row: Record<string, unknown> | null): number | null {
  if (!row) return null;
  const id = tableName === 'companies' ? row.id : row.companyId;
  return typeof id === 'number' ? id : id == null ? null : Number(id);
}

/** The author-less version holding a row's state from before versioning began for it. */
export const BASELINE_ACTION = 'baseline';
export const BASELINE_COMMENT = 'Baseline: the record as it was before its first recorded change';

/** When the row last changed (its updatedAt or createdAt), else now. */
function changedAt(row: Record<string, unknown>): string {
  for (const value of [row.updatedAt, row.createdAt]) {
    const time = value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : NaN;
    if (Number.isFinite(time)) return new Date(time).toISOString();
  }
  return new Date().toISOString();
}

async function recordVersion(
  db: Db,
  ctx: ServiceContext,
  tableName: string,
  recordId: number,
  action: AuditAction,
  data: Record<string, unknown> | null,
  comment: string | null,
  companyId: number | null,
  before: Record<string, unknown> | null,
): Promise<void> {
  const last = await db
    .selectFrom('dataVersions')
    .select((eb) => eb.fn.max('version').as('version'))
    .where('tableName', '=', tableName)
    .where('recordId', '=', recordId)
    .executeTakeFirst();
  let previous = Number(last?.version ?? 0);
  // A row that existed before it was versioned (seeded, imported, restored from an older
  // backup) first gets a version of the state this change replaces, so the change can be undone.
  if (previous === 0 && before && action !== 'create') {
    await db
      .insertInto('dataVersions')
      .values({
        tableName,
        recordId,
        version: 1,
        data: toJson(redact(before)),
        createdBy: null,
        createdAt: changedAt(before),
        action: BASELINE_ACTION,
        comment: BASELINE_COMMENT,
        isActive: false,
        companyId: companyOfRow(tableName, before),
      })
      .execute();
    previous = 1;
  }
  await db
    .updateTable('dataVersions')
    .set({ isActive: false })
    .where('tableName', '=', tableName)
    .where('recordId', '=', recordId)
    .where('isActive', '=', true)
    .execute();
  await db
    .insertInto('dataVersions')
    .values(activeVersionValues(ctx, { tableName, recordId, version: previous + 1, action, data, comment, companyId }))
    .execute();
}

/** A row's newest (active) version as recordVersion stores it; a created row's is version 1. */
export function activeVersionValues(
  ctx: Pick<ServiceContext, 'actor'>,
  version: {
    tableName: string;
    recordId: number;
    version: number;
    action: AuditAction;
    data: Record<string, unknown> | null;
    comment: string | null;
    companyId: number | null;
  },
  createdAt = new Date().toISOString(),
) {
  return {
    tableName: version.tableName,
    recordId: version.recordId,
    version: version.version,
    data: toJson(redact(version.data)),
    createdBy: actorUserId(ctx.actor),
    createdAt,
    action: version.action,
    comment: version.comment,
    isActive: true,
    companyId: version.companyId,
  };
}

type TableName = keyof Database & string;

export type WriteOperation =
  | { action: 'create'; values: Record<string, unknown> }
  | { action: 'update'; id: number; values: Record<string, unknown> }
  | { action: 'delete'; id: number };

export interface WriteOptions {
  reason?: string | null;
  comment?: string | null;
}

/**
 * Writes one row of a table with an `id` column, its audit entry and its data version in a
 * single transaction (joining the caller's if there is one). Returns the row as stored
 * (before deletion for deletes). Throws notFound for a missing id.
 */
export async function writeRecord<T extends TableName>(
  ctx: ServiceContext,
  table: T,
  op: WriteOperation,
  options: WriteOptions = {},
): Promise<Selectable<Database[T]>> {
  // snake_case in audit/version rows: the tables' names in the database.
  const tableName = snakeCase(table);
  const row = await inTransaction(ctx.db, async (trx) => {
    // The table is chosen at run time, so the query builder is used untyped here.
    const q = dynamic(trx);
    const target: string = table;
    let before: Row | null = null;
    let after: Row | null = null;
    let id: number;

    if (op.action === 'create') {
      after = await q.insertInto(target).values(op.values).returningAll().executeTakeFirstOrThrow();
      id = Number(after.id);
    } else {
      id = op.id;
      // PostgreSQL: locked until commit, so a concurrent write waits and the `changes` below
      // are only this write's (SQLite transactions begin immediate: nothing runs in between).
      let read = q.selectFrom(target).selectAll().where('id', '=', id);
      if (dialectOf(trx) === 'postgres') read = read.forUpdate();
      before = (await read.executeTakeFirst()) ?? null;
      if (!before) throw notFound();
      if (op.action === 'update') {
        const values = 'updatedAt' in before ? { ...op.values, updatedAt: new Date().toISOString() } : op.values;
        after = await q.updateTable(target).set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
      } else {
        await q.deleteFrom(target).where('id', '=', id).execute();
      }
    }

    const changes = diff(redact(before), redact(after));
    const txCtx = { ...ctx, db: trx };
    const companyId = companyOfRow(tableName, after ?? before);
    await recordAudit(txCtx, {
      tableName,
      recordId: id,
      action: op.action,
      oldData: before,
      newData: after,
      changes,
      reason: options.reason,
      companyId,
    });
    await recordVersion(
      trx,
      txCtx,
      tableName,
      id,
      op.action,
      op.action === 'delete' ? before : after,
      options.comment ?? options.reason ?? null,
      companyId,
      before,
    );
    return (op.action === 'delete' ? before : after)!;
  });
  // The row of table T as stored.
  return row as Selectable<Database[T]>;
}
