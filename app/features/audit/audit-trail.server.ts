// Reading the audit trail (docs/writes.md): audit log entries with filters
// and search done in the database (so they hold over every page), the version history of one
// record, and the security anomalies. Readers need the audit-logs permission; a user limited
// to one company reads only the entries and versions about that company's rows and users.
import { expressionBuilder, sql, type Expression, type SqlBool } from 'kysely';
import { auditEntries } from '../../../db/audit-counts.ts';
import { AUDIT_PAGES, auditPage } from './audit-pages.server.ts';
import type { Database } from '../../../db/types.ts';
import { z } from 'zod';
import { containsText, dialectOf } from '../../../db/dialect.ts';
import { dayAfter, dayStart, isIsoDay } from '../../platform/lib/dates.ts';
import { MAX_ID } from '../../platform/lib/query.ts';
import { integerParam } from '../../platform/lib/query-params.ts';
import { withoutNul } from '../../platform/lib/text.ts';
import type { ValueFormats } from '../../platform/lib/format.ts';
import type { Translate } from '../../platform/i18n/messages.ts';
import { snakeCase } from '../../platform/lib/names.ts';
import { AUDITED_TABLES, RESOURCE_LIST } from '../resources.ts';
import { actorCompanyScope, requirePermission, type ServiceContext } from '../../platform/context.ts';
import { conflict, fieldErrorsFromZod, invalid, notFound } from '../../platform/errors.ts';
import { dynamic, toApiRow } from '../../platform/resources/resource-rows.server.ts';
import { createRecord, updateRecord } from '../../platform/resources/resource-writes.server.ts';
import {
  anomalyDeletes,
  readableChanges,
  readableVersionData,
  type DeletedTally,
  type ReadableChange,
} from './audit-readable.server.ts';
import type { AuditLogEntry, DataVersion, ListedDataVersion, SecurityAnomaly } from './answers.ts';
import { msg } from '../../platform/i18n/messages.ts';
import { REASONS, reasonWith } from '../../platform/audit-reasons.ts';

export const AUDIT_PAGE_SIZE = 25;
const MAX_LIMIT = 1000;

export const AUDIT_ACTIONS = [
  'create',
  'update',
  'delete',
  'restore',
  'login',
  'login_failed',
  'logout',
  'other',
] as const;

const day = z.string().refine(isIsoDay, { message: 'must be a date (YYYY-MM-DD)' });

export const AuditQuerySchema = z.object({
  tableName: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .enum(AUDITED_TABLES.map((t) => t.value) as [string, ...string[]], { error: 'tableName is not an audited table' })
      .optional(),
  ),
  userId: integerParam('userId', 1, 2_147_483_647),
  recordId: integerParam('recordId', 1, 2_147_483_647),
  action: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.enum(AUDIT_ACTIONS, { error: `action must be one of: ${AUDIT_ACTIONS.join(', ')}` }).optional(),
  ),
  from: z.preprocess((v) => (v === '' ? undefined : v), day.optional()),
  to: z.preprocess((v) => (v === '' ? undefined : v), day.optional()),
  q: z.preprocess(
    (v) => (typeof v === 'string' ? withoutNul(v).trim().slice(0, 200) || undefined : v),
    z.string().optional(),
  ),
  limit: integerParam('limit', 1, MAX_LIMIT),
  offset: integerParam('offset', 0),
});
export type AuditQuery = z.output<typeof AuditQuerySchema>;

/** Query parameters (a URL's, or the CLI's) as an audit query; bad ones are a 400 with field errors. */
export function parseAuditQuery(input: Record<string, unknown>): AuditQuery {
  const parsed = AuditQuerySchema.safeParse(input);
  if (!parsed.success) throw invalid(fieldErrorsFromZod(parsed.error.issues));
  return parsed.data;
}

export type { AuditLogEntry, DataVersion, SecurityAnomaly };

export async function listAuditLogs(
  ctx: ServiceContext,
  query: AuditQuery,
): Promise<{ rows: AuditLogEntry[]; total: number }> {
  requirePermission(ctx, 'auditLogs');
  const scope = actorCompanyScope(ctx);
  const dialect = dialectOf(ctx.db);
  const eb = expressionBuilder<{ a: Database['auditLogs'] }, 'a'>();
  const where: Expression<SqlBool>[] = [];
  if (scope !== null) where.push(eb('a.companyId', '=', scope));
  if (query.tableName) where.push(eb('a.tableName', '=', query.tableName));
  if (query.userId) where.push(eb('a.userId', '=', query.userId));
  if (query.recordId) where.push(eb('a.recordId', '=', query.recordId));
  if (query.action) where.push(eb('a.action', '=', query.action));
  if (query.from) where.push(eb('a.timestamp', '>=', dayStart(query.from)));
  if (query.to) where.push(eb('a.timestamp', '<', dayAfter(query.to)));
  if (query.q) {
    const text = (column: Expression<unknown>) => containsText(dialect, column, query.q!);
    where.push(
      eb.or([
        text(sql.ref('a.tableName')),
        text(sql.ref('a.action')),
        text(sql`coalesce(${sql.ref('u.username')}, ${sql.ref('a.actorLabel')}, '')`),
        text(sql`coalesce(${sql.ref('a.reason')}, '')`),
      ]),
    );
  }
  const conditions = eb.and(where);
  const base = () => ctx.db.selectFrom('auditLogs as a').leftJoin('users as u', 'u.id', 'a.userId').where(conditions);
  // The count joins the users only when the search needs their names: a count of the whole
  // trail then reads one index instead of looking up a user per entry.
  const countable = () => (query.q ? base() : ctx.db.selectFrom('auditLogs as a').where(conditions));
  // The whole trail (of the reader's company) is counted as it is written (db/audit-counts.ts).
  const unfiltered =
    !query.tableName && !query.userId && !query.recordId && !query.action && !query.from && !query.to && !query.q;
  const total = unfiltered
    ? await auditEntries(ctx.db, scope)
    : Number(
        (
          await countable()
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
  if (total === 0) return { rows: [], total };
  const limit = query.limit ?? AUDIT_PAGE_SIZE;
  const offset = query.offset ?? 0;
  // The page's ids, then its entries, in one statement: skipping an entry costs an index step,
  // not the entry and its user. A deep page of the whole trail (or the reader's company's) is
  // placed by the kept day counts (audit-pages.server.ts); others walk from the newest entry.
  const page =
    unfiltered && offset >= AUDIT_PAGES.placedFrom
      ? auditPage(ctx.db, scope, limit, offset)
      : {
          from: ctx.db,
          ids: base().select('a.id').orderBy('a.timestamp', 'desc').orderBy('a.id', 'desc').limit(limit).offset(offset),
        };
  const rows = await page.from
    .selectFrom('auditLogs as a')
    .leftJoin('users as u', 'u.id', 'a.userId')
    .select([
      'a.id',
      'a.action',
      'a.tableName',
      'a.recordId',
      'a.userId',
      'a.actorLabel',
      'a.timestamp',
      'a.reason',
      'a.changes',
      'a.ipAddress',
      'u.username',
    ])
    .where('a.id', 'in', page.ids)
    .orderBy('a.timestamp', 'desc')
    .orderBy('a.id', 'desc')
    .execute();
  return {
    total,
    rows: rows.map((r) => ({
      id: r.id,
      action: r.action,
      tableName: r.tableName,
      recordId: r.recordId,
      userId: r.userId,
      username: r.username ?? r.actorLabel ?? 'system',
      user: r.userId !== null && r.username ? { id: r.userId, username: r.username } : null,
      timestamp: r.timestamp,
      reason: r.reason,
      changes: r.changes ?? null,
      ipAddress: r.ipAddress,
    })),
  };
}

/** Entries with their changes labelled and formatted as the screens show them (one lookup for the page's names). */
export async function withReadableChanges<T extends AuditLogEntry>(
  ctx: ServiceContext,
  rows: T[],
  formats?: ValueFormats,
  t?: Translate,
): Promise<(T & { readableChanges: ReadableChange[] })[]> {
  const readable = await readableChanges(ctx, rows, formats, t);
  return rows.map((row, i) => ({ ...row, readableChanges: readable[i] }));
}

/** Versions with their author's name, in one statement. */
const versionRows = (db: ServiceContext['db']) =>
  db
    .selectFrom('dataVersions as v')
    .leftJoin('users as u', 'u.id', 'v.createdBy')
    .selectAll('v')
    .select('u.username as createdByName');

export const VersionQuerySchema = z.object({
  tableName: z.enum(AUDITED_TABLES.map((t) => t.value) as [string, ...string[]], {
    error: 'tableName is not an audited table',
  }),
  recordId: integerParam('recordId', 1, 2_147_483_647).pipe(z.number({ error: 'recordId is required' })),
});

/** The versions of one record, newest first (`tableName` snake_case, as the trail stores it). */
export async function listDataVersions(
  ctx: ServiceContext,
  input: { tableName?: unknown; recordId?: unknown },
  formats?: ValueFormats,
  t?: Translate,
): Promise<ListedDataVersion[]> {
  requirePermission(ctx, 'auditLogs');
  const scope = actorCompanyScope(ctx);
  const parsed = VersionQuerySchema.safeParse(input);
  if (!parsed.success) throw invalid(fieldErrorsFromZod(parsed.error.issues));
  let q = versionRows(ctx.db)
    .where('v.tableName', '=', parsed.data.tableName)
    .where('v.recordId', '=', parsed.data.recordId);
  if (scope !== null) q = q.where('v.companyId', '=', scope);
  const versions = (await q.orderBy('v.version', 'desc').execute()).map(toVersion);
  const fields = await readableVersionData(ctx, versions, formats, t);
  return versions.map((version, i) => ({ ...version, fields: fields[i] }));
}

/** One version by id, as the reader may see it (another company's: not found). */
export async function getDataVersion(ctx: ServiceContext, id: number): Promise<DataVersion> {
  requirePermission(ctx, 'auditLogs');
  const scope = actorCompanyScope(ctx);
  let q = versionRows(ctx.db).where('v.id', '=', id);
  if (scope !== null) q = q.where('v.companyId', '=', scope);
  const row = await q.executeTakeFirst();
  if (!row) throw notFound();
  return toVersion(row);
}

function toVersion(row: {
  id: number;
  tableName: string;
  recordId: number;
  version: number;
  action: string;
  isActive: boolean;
  createdAt: string;
  createdBy: number | null;
  createdByName: string | null;
  comment: string | null;
  data: Record<string, unknown> | null;
}): DataVersion {
  return {
    id: row.id,
    tableName: row.tableName,
    recordId: row.recordId,
    version: row.version,
    action: row.action,
    isActive: row.isActive,
    createdAt: row.createdAt,
    createdBy: row.createdBy,
    createdByName: row.createdByName ?? null,
    comment: row.comment,
    data: row.data ?? null,
  };
}

/** Anomalies with what their deletes removed, per table (one lookup for the page). */
export async function withDeletedTallies(
  ctx: ServiceContext,
  anomalies: SecurityAnomaly[],
): Promise<(SecurityAnomaly & { deleted: DeletedTally[] })[]> {
  const tallies = await anomalyDeletes(ctx, anomalies);
  return anomalies.map((anomaly, i) => ({ ...anomaly, deleted: tallies[i] }));
}

/** The recorded anomalies, newest first (`since`: whose window ended then or later); a company-limited reader sees its own users' only. */
export async function listSecurityAnomalies(
  ctx: ServiceContext,
  options: { limit?: number; since?: string } = {},
): Promise<SecurityAnomaly[]> {
  requirePermission(ctx, 'auditLogs');
  const scope = actorCompanyScope(ctx);
  let q = ctx.db.selectFrom('securityAnomalies as s').leftJoin('users as u', 'u.id', 's.userId').selectAll('s');
  if (scope !== null) q = q.where('u.companyId', '=', scope);
  if (options.since) q = q.where('s.windowEnd', '>=', options.since);
  const rows = await q
    .orderBy('s.windowEnd', 'desc')
    .orderBy('s.id', 'desc')
    .limit(options.limit ?? 100)
    .execute();
  return rows.map((r) => ({ ...r, deleteCount: Number(r.deleteCount) }));
}

/**
 * Restores a version: the record gets that version's fields back
 * through the audited write helper, an update with the reason 'Restored version N', or, when
 * the record was deleted, a create with its old id. Today's rules apply: the data is checked
 * against the current schema and references (a 400 naming what blocks it, e.g. a deleted
 * category), and the reader needs edit (or create) permission on the table as well.
 */
export async function restoreVersion(
  ctx: ServiceContext,
  versionId: number,
): Promise<{ version: DataVersion; record: Record<string, unknown>; created: boolean }> {
  const version = await getDataVersion(ctx, versionId);
  const def = RESOURCE_LIST.find((d) => snakeCase(d.table) === version.tableName);
  if (!def || def.readOnly)
    throw conflict(msg('Versions of this table cannot be restored here; user accounts are changed in User Management'));
  if (!version.data) throw conflict(msg('This version holds no data to restore'));
  const fields = Object.fromEntries(def.fields.map((f) => [f.name, toApiRow(def, version.data!)[f.name] ?? null]));
  const reason = reasonWith(REASONS.restoredVersion, { version: version.version });
  const exists = await dynamic(ctx.db)
    .selectFrom(def.table)
    .select('id')
    .where('id', '=', version.recordId)
    .executeTakeFirst();
  if (exists) {
    if (version.isActive) throw conflict(msg('This is already the current version'));
    return { version, record: await updateRecord(ctx, def, version.recordId, fields, { reason }), created: false };
  }
  return {
    version,
    record: await createRecord(ctx, def, withoutNulls(fields), { reason, id: version.recordId }),
    created: true,
  };
}

/** Optional fields stored as null are left out of a create (the schema fills them). */
function withoutNulls(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== null));
}

/** The screen's restore button (intent restore): the data version to restore. */
export const RestoreVersionForm = z.object({ versionId: z.number().int().min(1).max(MAX_ID) });
