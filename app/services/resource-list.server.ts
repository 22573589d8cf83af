// Lists of a declared resource: the conditions of a list query (search, the dropdown filter,
// company, company type, source and a date range), its sort, its total (from row_counts when
// the resource declares them and nothing narrows the list), one page, or every row in batches.
import { sql, type Expression, type SqlBool } from 'kysely';
import { containsText, dialectOf } from '../../db/dialect.ts';
import { streamQuery } from '../../db/stream.ts';
import { dayAfter, dayStart } from '../lib/dates.ts';
import { snakeCase } from '../lib/names.ts';
import { companyColumnOf, companySelf, type ResourceDef } from '../resources/define.ts';
import { COMPANY_COLUMNS, companyResource } from '../resources/index.ts';
import type { ServiceContext } from './context.ts';
import { authorizeRead, baseQuery, columnOf, ref, scopeOf, selectRow, toApiRow, type ApiRow, type Row, type RowQuery } from './resource-rows.server.ts';

export interface ListQuery {
  q?: string | null;
  /** Value of the declaration's dropdown filter. */
  filter?: string | null;
  sort?: string | null;
  dir?: 'asc' | 'desc' | null;
  limit: number;
  offset: number;
  companyId?: number | null;
  /** Company name. */
  company?: string | null;
  companyType?: string | null;
  source?: string | null;
  /** Equality filters on the declaration's `list.exact` integer fields (year, month). */
  exact?: Record<string, number> | null;
  /** Inclusive day range (YYYY-MM-DD) on the resource's first date field, else on createdAt. */
  from?: string | null;
  to?: string | null;
}

/** The column a from/to range filters: the first date field, or the creation instant. */
function dateColumnOf(def: ResourceDef): { column: string; instant: boolean } {
  const field = def.fields.find((f) => f.kind === 'date');
  return field ? { column: field.name, instant: false } : { column: 'createdAt', instant: true };
}

/** The list's conditions, and which joined aliases they need (the count can skip the others). */
export function conditions(ctx: ServiceContext, def: ResourceDef, query: ListQuery): { where: Expression<SqlBool>[]; aliases: Set<string> } {
  const where: Expression<SqlBool>[] = [];
  const aliases = new Set<string>();
  const companyAlias = def.joins.find((j) => j.table === companyResource.table)?.alias;
  const self = companySelf(def);

  const q = query.q?.trim();
  if (q) {
    const matches = (column: ReturnType<typeof sql.ref>) => containsText(dialectOf(ctx.db), sql`cast(${column} as text)`, q);
    const terms = def.list.search.map((column) => {
      const join = column.includes('.') ? def.joins.find((j) => j.alias === column.split('.')[0]) : undefined;
      if (!join) return matches(ref(column));
      // A name of a small reference table: match its ids first, so neither the count nor the
      // scan of a large table has to join it.
      const ids = sql`select id from ${sql.table(snakeCase(join.table))} where ${matches(sql.ref(column.split('.')[1]))}`;
      return sql<SqlBool>`${ref(join.on)} in (${ids})`;
    });
    where.push(sql<SqlBool>`(${sql.join(terms, sql` or `)})`);
  }
  const filter = def.list.filter;
  if (filter && query.filter !== undefined && query.filter !== null && query.filter !== '') {
    where.push(sql<SqlBool>`${ref(filter.column)} = ${query.filter}`);
  }
  const companyColumn = companyColumnOf(def);
  if (query.companyId != null && companyColumn) {
    where.push(sql<SqlBool>`${ref(companyColumn)} = ${query.companyId}`);
  }
  if (query.company) {
    if (self) where.push(sql<SqlBool>`${ref(self.nameColumn)} = ${query.company}`);
    else if (companyAlias) {
      aliases.add(companyAlias);
      where.push(sql<SqlBool>`${ref(`${companyAlias}.${COMPANY_COLUMNS.nameColumn}`)} = ${query.company}`);
    }
  }
  if (query.companyType) {
    const typeField = def.fields.find((f) => f.name === def.companyTypeField);
    if (self) where.push(sql<SqlBool>`${ref(self.typeColumn)} = ${query.companyType}`);
    else if (typeField) where.push(sql<SqlBool>`${ref(columnOf(typeField))} = ${query.companyType}`);
    else if (companyAlias) {
      aliases.add(companyAlias);
      where.push(sql<SqlBool>`${ref(`${companyAlias}.${COMPANY_COLUMNS.typeColumn}`)} = ${query.companyType}`);
    }
  }
  for (const [name, value] of Object.entries(query.exact ?? {})) {
    if (def.list.exact?.includes(name)) where.push(sql<SqlBool>`${ref(name)} = ${value}`);
  }
  if (query.source && def.fields.some((f) => f.name === 'source')) where.push(sql<SqlBool>`${ref('source')} = ${query.source}`);
  if (query.from || query.to) {
    const { column, instant } = dateColumnOf(def);
    // Instants are ISO text on SQLite and timestamptz on PostgreSQL: compare with day bounds.
    if (query.from) where.push(sql<SqlBool>`${ref(column)} >= ${instant ? dayStart(query.from) : query.from}`);
    if (query.to) where.push(instant ? sql<SqlBool>`${ref(column)} < ${dayAfter(query.to)}` : sql<SqlBool>`${ref(column)} <= ${query.to}`);
  }
  return { where, aliases };
}

export function applyWhere(query: RowQuery, where: Expression<SqlBool>[]): RowQuery {
  return where.reduce((q, condition) => q.where(condition), query);
}

/** The requested sort, or the declaration's default; always ends with id for a stable order. */
export function resolveSort(def: ResourceDef, sort?: string | null, dir?: string | null): { key: string; columns: string[]; dir: 'asc' | 'desc' } {
  const key = sort && Object.hasOwn(def.list.sorts, sort) ? sort : def.list.defaultSort.key;
  const direction = dir === 'asc' || dir === 'desc' ? dir : sort && key === sort ? 'asc' : def.list.defaultSort.dir;
  const { column, then } = def.list.sorts[key];
  return { key, columns: then ? [column, then, 'id'] : [column, 'id'], dir: direction };
}

/** The list's order: the sort's columns, then id, for a stable order. */
function ordered(query: RowQuery, sort: ReturnType<typeof resolveSort>): RowQuery {
  return sort.columns.reduce((q, column) => q.orderBy(`t.${column}`, sort.dir), query);
}

/**
 * The total of an unfiltered list (at most limited to one company) from row_counts, or null
 * when the resource keeps no counts or the list has conditions that need a real count.
 */
async function trackedTotal(ctx: ServiceContext, def: ResourceDef, query: ListQuery): Promise<number | null> {
  if (!def.rowCounts) return null;
  const hasFilter = query.filter !== undefined && query.filter !== null && query.filter !== '';
  if (query.q?.trim() || hasFilter || Object.keys(query.exact ?? {}).length || query.company || query.companyType || query.source || query.from || query.to) return null;
  const companies = [scopeOf(ctx), query.companyId ?? null].filter((id): id is number => id !== null);
  if (companies.length === 2 && companies[0] !== companies[1]) return 0;
  let q = ctx.db.selectFrom('rowCounts').select((eb) => eb.fn.sum<number>('rowCount').as('total')).where('tableName', '=', snakeCase(def.table));
  if (companies.length) q = q.where('companyId', '=', companies[0]);
  const row = await q.executeTakeFirst();
  return Number(row?.total ?? 0);
}

async function countRows(ctx: ServiceContext, def: ResourceDef, where: Expression<SqlBool>[], aliases: Set<string>): Promise<number> {
  let countQuery = baseQuery(ctx, def, false);
  for (const join of def.joins) {
    if (aliases.has(join.alias)) countQuery = countQuery.leftJoin(`${join.table} as ${join.alias}`, `${join.alias}.id`, `t.${join.on}`);
  }
  const counted = await applyWhere(countQuery, where).select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirst();
  return Number(counted?.total ?? 0);
}

export async function listRecords(ctx: ServiceContext, def: ResourceDef, query: ListQuery): Promise<{ rows: ApiRow[]; total: number }> {
  await authorizeRead(ctx, def);
  const { where, aliases } = conditions(ctx, def, query);
  const sort = resolveSort(def, query.sort, query.dir);
  const total = (await trackedTotal(ctx, def, query)) ?? (await countRows(ctx, def, where, aliases));
  if (total === 0 || query.offset >= total) return { rows: [], total };

  const rows = await ordered(selectRow(def, applyWhere(baseQuery(ctx, def), where)), sort)
    .limit(query.limit)
    .offset(query.offset)
    .execute();
  return { rows: rows.map((row) => toApiRow(def, row)), total };
}

/**
 * Rows per cursor batch. Small batches die young: at 1M rows, 250 kept the CLI export's peak RSS
 * ~70 MB lower than 1000 and was no slower (bench/README.md).
 */
export const EXPORT_BATCH_ROWS = 250;

/**
 * Every row of the filtered list in the list's order, in batches read by one cursor (CSV
 * export): one consistent snapshot, memory flat whatever the row count, and on SQLite a
 * separate read connection, so a long download never holds up the app's writes.
 */
export async function* recordBatches(ctx: ServiceContext, def: ResourceDef, query: Omit<ListQuery, 'limit' | 'offset'>, batchSize = EXPORT_BATCH_ROWS): AsyncGenerator<ApiRow[]> {
  await authorizeRead(ctx, def);
  const { where } = conditions(ctx, def, { ...query, limit: 0, offset: 0 });
  const sort = resolveSort(def, query.sort, query.dir);
  const rows = ordered(selectRow(def, applyWhere(baseQuery(ctx, def), where)), sort);
  for await (const batch of streamQuery<Row>(ctx.db, rows, batchSize)) {
    yield batch.map((row) => toApiRow(def, row));
  }
}
