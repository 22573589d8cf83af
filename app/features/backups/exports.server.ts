// Whole-table CSV exports: the declared resources with
// the web export's own columns and cells (resourceCsv: on PostgreSQL written by COPY), plus users
// (never with password data). Rows are streamed (a cursor in batches, or COPY), so memory stays
// flat for millions of rows. Used by `finhub export`; the Backup & Recovery screen's Export tab can use it too.
import { sql } from 'kysely';
import { dayAfter, dayStart, isIsoDay } from '../../platform/lib/dates.ts';
import { camelCase, snakeCase } from '../../platform/lib/names.ts';
import { can, type Principal } from '../../platform/lib/permissions.ts';
import type { ResourceDef, ResourceTable } from '../../platform/resources/define.ts';
import { findResource, RESOURCE_LIST } from '../resources.ts';
import { actorCompanyScope, requirePermission, type ServiceContext } from '../../platform/context.ts';
import type { CsvColumn, CsvOptions } from '../../platform/resources/csv.server.ts';
import { forbidden, invalid, notFound } from '../../platform/errors.ts';
import {
  csvOfBatches,
  exportColumns,
  resourceCsv,
  type ResourceCsv,
} from '../../platform/resources/resource-csv.server.ts';
import { EXPORT_BATCH_ROWS, type ApiRow } from '../../platform/resources/resources.server.ts';
import { streamQuery } from '../../../db/stream.ts';
import { PUBLIC_USER_COLUMNS } from '../../platform/session/sessions.server.ts';

/** A table the export knows: users (not a resource), or a declared resource's table (camelCase). */
type ExportTable = 'users' | ResourceTable;

/**
 * The exportable tables in order, and the resource behind each (null = users): users,
 * then every declared resource in the registry's order.
 */
export const EXPORT_TABLES: ReadonlyMap<ExportTable, ResourceDef | null> = new Map<ExportTable, ResourceDef | null>([
  ['users', null],
  ...RESOURCE_LIST.map((def) => [def.table, def] as const),
]);

/** 'actualExpenses', 'actual_expenses', 'actual-expenses' and the resource key ('actual-revenues') all name the same table. */
export function resolveExportTable(name: string): ExportTable | undefined {
  const text = name.trim();
  const camel = camelCase(text);
  const table = [...EXPORT_TABLES.keys()].find((t) => t === camel);
  return table ?? findResource(text)?.table;
}

/** The tables' names as the export URLs spell them; given a user, only those they may export. */
export const exportTableNames = (user?: Principal) =>
  [...EXPORT_TABLES.keys()].filter((t) => !user || mayExport(user, t)).map(snakeCase);

interface ExportFilter {
  companyId?: number | null;
  /** Inclusive days (YYYY-MM-DD). */
  from?: string | null;
  to?: string | null;
}

interface TableExport {
  columns: CsvColumn<ApiRow>[];
  /** The CSV (header and rows); call once. Resources go through resourceCsv (COPY on PostgreSQL). */
  csv(options?: CsvOptions): ResourceCsv;
}

function checkDay(field: string, value: string | null | undefined) {
  if (value != null && !isIsoDay(value)) throw invalid([{ field, message: `${field} must be a date (YYYY-MM-DD)` }]);
}

/** Whether the user may read the table an export would download. */
export function mayExport(user: Principal, table: ExportTable): boolean {
  const def = EXPORT_TABLES.get(table);
  return def === null ? can(user, 'users') : def !== undefined && can(user, def.area);
}

/**
 * Whole-table exports need the backups permission (docs/security.md) and the right to read the table:
 * its resource's area, or managing users for the users table. The CLI acts as the system.
 */
export function exportTable(ctx: ServiceContext, table: ExportTable, filter: ExportFilter = {}): TableExport {
  const user = requirePermission(ctx, 'backups');
  if (user && !mayExport(user, table)) throw forbidden();
  checkDay('from', filter.from);
  checkDay('to', filter.to);
  const def = EXPORT_TABLES.get(table);
  if (def === undefined) throw notFound(`Unknown table ${table}`);
  if (def === null) {
    return { columns: USER_COLUMNS, csv: (options) => csvOfBatches(USER_COLUMNS, userBatches(ctx, filter), options) };
  }
  return {
    columns: exportColumns(def),
    csv: (options) =>
      resourceCsv(ctx, def, { companyId: filter.companyId ?? null, from: filter.from, to: filter.to }, options),
  };
}

const USER_COLUMNS: CsvColumn<ApiRow>[] = [
  { header: 'ID', value: (u) => u.id },
  { header: 'Username', value: (u) => u.username },
  { header: 'Email', value: (u) => u.email },
  { header: 'Full Name', value: (u) => u.fullName },
  { header: 'Role', value: (u) => u.role },
  { header: 'Company ID', value: (u) => u.companyId },
  { header: 'Company', value: (u) => u.companyName },
  { header: 'Position', value: (u) => u.position },
  { header: 'Phone Number', value: (u) => u.phoneNumber },
  { header: 'Active', value: (u) => u.isActive },
  { header: 'Temporary Password', value: (u) => u.isTemporaryPassword },
  { header: 'Can Access Financial Data', value: (u) => u.canAccessFinancialData },
  { header: 'Can Access Subscriber Data', value: (u) => u.canAccessSubscriberData },
  { header: 'Can Access API Integrations', value: (u) => u.canAccessApiIntegrations },
  { header: 'Can Access Analytics', value: (u) => u.canAccessAnalytics },
  { header: 'Can Access Audit Logs', value: (u) => u.canAccessAuditLogs },
  { header: 'Can Access Backups', value: (u) => u.canAccessBackups },
  { header: 'Can Create', value: (u) => u.canCreate },
  { header: 'Can Edit', value: (u) => u.canEdit },
  { header: 'Can Delete', value: (u) => u.canDelete },
  { header: 'Can Manage Users', value: (u) => u.canManageUsers },
  { header: 'Last Login At', value: (u) => u.lastLoginAt },
  { header: 'Created At', value: (u) => u.createdAt },
];

function userBatches(
  ctx: ServiceContext,
  filter: ExportFilter,
  batchSize = EXPORT_BATCH_ROWS,
): AsyncGenerator<ApiRow[]> {
  let q = ctx.db
    .selectFrom('users as u')
    .leftJoin('companies as c', 'c.id', 'u.companyId')
    .select(PUBLIC_USER_COLUMNS.map((c) => `u.${c}` as const))
    .select('c.name as companyName');
  const scope = actorCompanyScope(ctx);
  if (scope !== null) q = q.where('u.companyId', '=', scope);
  if (filter.companyId != null) q = q.where('u.companyId', '=', filter.companyId);
  if (filter.from) q = q.where(sql`u.created_at`, '>=', dayStart(filter.from));
  if (filter.to) q = q.where(sql`u.created_at`, '<', dayAfter(filter.to));
  return streamQuery(ctx.db, q.orderBy('u.id'), batchSize) as AsyncGenerator<ApiRow[]>;
}

/** A company by id (digits) or exact name (case-insensitive). */
export async function findCompany(ctx: ServiceContext, key: string): Promise<{ id: number; name: string } | undefined> {
  const text = key.trim();
  if (/^\d+$/.test(text))
    return ctx.db.selectFrom('companies').select(['id', 'name']).where('id', '=', Number(text)).executeTakeFirst();
  return ctx.db
    .selectFrom('companies')
    .select(['id', 'name'])
    .where(sql`lower(name)`, '=', text.toLowerCase())
    .executeTakeFirst();
}
