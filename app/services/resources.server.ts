// The generic service behind every declared resource (app/resources): list, read, create,
// update and delete with permission checks, company scope, validation, reference checks and
// the audit/version write helper. Routes, the API, the CLI and jobs all call these.
import { sql, type Expression, type Kysely, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { containsPattern, dialectOf } from '../../db/dialect.ts';
import { streamQuery } from '../../db/stream.ts';
import { dayAfter, dayStart } from '../lib/dates.ts';
import type { ResourceDef } from '../resources/define.ts';
import { patchSchema, recordSchema } from '../resources/define.ts';
import { can, canSeeCompany, companyScope, type Action } from '../lib/permissions.ts';
import { snakeCase } from '../lib/names.ts';
import { writeRecord } from './audit.server.ts';
import type { Db, ServiceContext } from './context.ts';
import { conflict, fieldErrorsFromZod, forbidden, invalid, mapConstraintErrors, notFound, type FieldError } from './errors.ts';

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
  /** Inclusive day range (YYYY-MM-DD) on the resource's first date field, else on createdAt. */
  from?: string | null;
  to?: string | null;
}

/** The column a from/to range filters: the first date field, or the creation instant. */
export function dateColumnOf(def: ResourceDef): { column: string; instant: boolean } {
  const field = def.fields.find((f) => f.kind === 'date');
  return field ? { column: field.name, instant: false } : { column: 'createdAt', instant: true };
}

export type ApiRow = Record<string, unknown> & { id: number };

type AnyDb = Kysely<any>;
type AnyQuery = SelectQueryBuilder<any, any, any>;

const SCALE: Record<string, number> = { money: 100, decimal: 100 };

/** Database column (camelCase) of a field: money in cents, decimals in hundredths. */
export function columnOf(field: { name: string; kind: string }): string {
  if (field.kind === 'money') return `${field.name}Cents`;
  if (field.kind === 'decimal') return `${field.name}Hundredths`;
  return field.name;
}

const hasCompanyColumn = (def: ResourceDef) => def.company === 'column' || def.company === 'category';
/** The finance tables record who created a row. */
const tracksCreator = (def: ResourceDef) => hasCompanyColumn(def) && def.table !== 'expenseCategories';

export function toApiRow(def: ResourceDef, row: Record<string, any>): ApiRow {
  const out: ApiRow = { id: row.id };
  if (hasCompanyColumn(def)) out.companyId = row.companyId;
  for (const field of def.fields) {
    const value = row[columnOf(field)];
    out[field.name] = SCALE[field.kind] && value !== null && value !== undefined ? Number(value) / SCALE[field.kind] : value ?? null;
  }
  for (const join of def.joins) for (const key of Object.keys(join.select)) out[key] = row[key] ?? null;
  if (tracksCreator(def)) out.createdBy = row.createdBy ?? null;
  out.createdAt = row.createdAt;
  out.updatedAt = row.updatedAt;
  return out;
}

function toColumns(def: ResourceDef, value: Record<string, any>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of def.fields) {
    if (!(field.name in value) || value[field.name] === undefined) continue;
    const v = value[field.name];
    out[columnOf(field)] = SCALE[field.kind] && v !== null ? Math.round(v * SCALE[field.kind]) : v;
  }
  return out;
}

export function authorize(ctx: ServiceContext, def: ResourceDef, action: Action) {
  if (ctx.actor.kind !== 'user') return;
  const user = ctx.actor.user;
  if (!can(user, def.area, action)) throw forbidden();
  // A user limited to one company cannot add or remove companies.
  if (def.company === 'self' && action !== 'read' && action !== 'edit' && companyScope(user) !== null) throw forbidden();
}

function scopeOf(ctx: ServiceContext): number | null {
  return ctx.actor.kind === 'user' ? companyScope(ctx.actor.user) : null;
}

function ref(column: string) {
  return sql.ref(column.includes('.') ? column : `t.${column}`);
}

/** The main table as `t` with its display joins, limited to the caller's company. */
function baseQuery(ctx: ServiceContext, def: ResourceDef, withJoins = true): AnyQuery {
  const db = ctx.db as unknown as AnyDb;
  let query: AnyQuery = db.selectFrom(`${def.table} as t`);
  if (withJoins) {
    for (const join of def.joins) {
      query = query.leftJoin(`${join.table} as ${join.alias}`, `${join.alias}.id`, `t.${join.on}`);
    }
  }
  const scope = scopeOf(ctx);
  if (scope !== null) {
    if (hasCompanyColumn(def)) query = query.where('t.companyId', '=', scope);
    else if (def.company === 'self') query = query.where('t.id', '=', scope);
  }
  return query;
}

function selectRow(def: ResourceDef, query: AnyQuery): AnyQuery {
  let q = query.selectAll('t');
  for (const join of def.joins) {
    for (const [key, column] of Object.entries(join.select)) q = q.select(`${join.alias}.${column} as ${key}`);
  }
  return q;
}

/** Which joined aliases a list query's conditions need (the count can skip the others). */
function conditions(ctx: ServiceContext, def: ResourceDef, query: ListQuery): { where: Expression<SqlBool>[]; aliases: Set<string> } {
  const where: Expression<SqlBool>[] = [];
  const aliases = new Set<string>();
  const companyAlias = def.joins.find((j) => j.table === 'companies')?.alias;
  const pg = dialectOf(ctx.db) === 'postgres';

  const q = query.q?.trim();
  if (q) {
    const pattern = containsPattern(q);
    const matches = (column: ReturnType<typeof sql.ref>) =>
      pg ? sql<SqlBool>`cast(${column} as text) ilike ${pattern} escape '\\'` : sql<SqlBool>`cast(${column} as text) like ${pattern} escape '\\'`;
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
  if (query.companyId != null && def.company !== 'none') {
    where.push(sql<SqlBool>`${ref(def.company === 'self' ? 'id' : 'companyId')} = ${query.companyId}`);
  }
  if (query.company) {
    if (def.company === 'self') where.push(sql<SqlBool>`${ref('name')} = ${query.company}`);
    else if (companyAlias) {
      aliases.add(companyAlias);
      where.push(sql<SqlBool>`${ref(`${companyAlias}.name`)} = ${query.company}`);
    }
  }
  if (query.companyType) {
    if (def.company === 'self') where.push(sql<SqlBool>`${ref('type')} = ${query.companyType}`);
    else if (def.fields.some((f) => f.name === 'companyType')) where.push(sql<SqlBool>`${ref('companyType')} = ${query.companyType}`);
    else if (companyAlias) {
      aliases.add(companyAlias);
      where.push(sql<SqlBool>`${ref(`${companyAlias}.type`)} = ${query.companyType}`);
    }
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

function applyWhere(query: AnyQuery, where: Expression<SqlBool>[]): AnyQuery {
  return where.reduce((q, condition) => q.where(condition), query);
}

/** The requested sort, or the declaration's default; always ends with id for a stable order. */
export function resolveSort(def: ResourceDef, sort?: string | null, dir?: string | null): { key: string; column: string; dir: 'asc' | 'desc' } {
  const key = sort && Object.hasOwn(def.list.sorts, sort) ? sort : def.list.defaultSort.key;
  const direction = dir === 'asc' || dir === 'desc' ? dir : sort && key === sort ? 'asc' : def.list.defaultSort.dir;
  return { key, column: def.list.sorts[key].column, dir: direction };
}

/** Tables whose rows per company are kept in row_counts by triggers (migration 0003). */
const COUNTED_TABLES = new Set(['budgets', 'actualExpenses', 'revenueProjections', 'actualRevenue', 'subscriberMetrics']);

/**
 * The total of an unfiltered list (at most limited to one company) from row_counts, or null
 * when the list has conditions that need a real count.
 */
async function trackedTotal(ctx: ServiceContext, def: ResourceDef, query: ListQuery): Promise<number | null> {
  if (!COUNTED_TABLES.has(def.table)) return null;
  const hasFilter = query.filter !== undefined && query.filter !== null && query.filter !== '';
  if (query.q?.trim() || hasFilter || query.company || query.companyType || query.source || query.from || query.to) return null;
  const companies = [scopeOf(ctx), query.companyId ?? null].filter((id): id is number => id !== null);
  if (companies.length === 2 && companies[0] !== companies[1]) return 0;
  let q = ctx.db.selectFrom('rowCounts').select((eb) => eb.fn.sum<number>('rowCount').as('total')).where('tableName', '=', snakeCase(def.table));
  if (companies.length) q = q.where('companyId', '=', companies[0]);
  const row = await q.executeTakeFirst();
  return Number(row?.total ?? 0);
}

export async function listRecords(ctx: ServiceContext, def: ResourceDef, query: ListQuery): Promise<{ rows: ApiRow[]; total: number }> {
  authorize(ctx, def, 'read');
  const { where, aliases } = conditions(ctx, def, query);
  const sort = resolveSort(def, query.sort, query.dir);
  const total = (await trackedTotal(ctx, def, query)) ?? (await countRows(ctx, def, where, aliases));
  if (total === 0 || query.offset >= total) return { rows: [], total };

  const rows = await selectRow(def, applyWhere(baseQuery(ctx, def), where))
    .orderBy(`t.${sort.column}`, sort.dir)
    .orderBy('t.id', sort.dir)
    .limit(query.limit)
    .offset(query.offset)
    .execute();
  return { rows: rows.map((row) => toApiRow(def, row)), total };
}

async function countRows(ctx: ServiceContext, def: ResourceDef, where: Expression<SqlBool>[], aliases: Set<string>): Promise<number> {
  let countQuery = baseQuery(ctx, def, false);
  for (const join of def.joins) {
    if (aliases.has(join.alias)) countQuery = countQuery.leftJoin(`${join.table} as ${join.alias}`, `${join.alias}.id`, `t.${join.on}`);
  }
  const counted = await applyWhere(countQuery, where).select((eb: any) => eb.fn.countAll().as('total')).executeTakeFirst();
  return Number(counted?.total ?? 0);
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
  authorize(ctx, def, 'read');
  const { where } = conditions(ctx, def, { ...query, limit: 0, offset: 0 });
  const sort = resolveSort(def, query.sort, query.dir);
  const rows = selectRow(def, applyWhere(baseQuery(ctx, def), where))
    .orderBy(`t.${sort.column}`, sort.dir)
    .orderBy('t.id', sort.dir);
  for await (const batch of streamQuery<Record<string, any>>(ctx.db, rows, batchSize)) {
    yield batch.map((row) => toApiRow(def, row));
  }
}

/** The same rows one at a time. */
export async function* iterateRecords(ctx: ServiceContext, def: ResourceDef, query: Omit<ListQuery, 'limit' | 'offset'>, batchSize = EXPORT_BATCH_ROWS): AsyncGenerator<ApiRow> {
  for await (const batch of recordBatches(ctx, def, query, batchSize)) yield* batch;
}

async function findRow(ctx: ServiceContext, def: ResourceDef, id: number): Promise<Record<string, any>> {
  const row = await selectRow(def, baseQuery(ctx, def)).where('t.id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

export async function getRecord(ctx: ServiceContext, def: ResourceDef, id: number): Promise<ApiRow> {
  authorize(ctx, def, 'read');
  return toApiRow(def, await findRow(ctx, def, id));
}

function parse<T>(schema: { safeParse(input: unknown): { success: true; data: T } | { success: false; error: { issues: any[] } } }, input: unknown): T {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) throw invalid([{ field: 'body', message: 'Expected a JSON object' }]);
  const result = schema.safeParse(input);
  if (!result.success) throw invalid(fieldErrorsFromZod(result.error.issues));
  return result.data;
}

/**
 * Checks the record's references exist and are visible, and works out its company.
 * Returns the company_id to store (for company-bearing resources).
 */
async function resolveReferences(ctx: ServiceContext, def: ResourceDef, value: Record<string, any>): Promise<number | undefined> {
  const errors: FieldError[] = [];
  const user = ctx.actor.kind === 'user' ? ctx.actor.user : null;
  const visible = (companyId: number) => !user || canSeeCompany(user, companyId);
  let companyId: number | undefined;
  for (const field of def.fields) {
    if (field.kind !== 'reference' || value[field.name] == null) continue;
    const id = value[field.name] as number;
    const notFoundError = { field: field.name, message: `${field.label} not found` };
    if (field.reference === 'departments') {
      const row = await ctx.db.selectFrom('departments').select('id').where('id', '=', id).executeTakeFirst();
      if (!row) errors.push(notFoundError);
    } else if (field.reference === 'expenseCategories') {
      const row = await ctx.db.selectFrom('expenseCategories').select(['id', 'companyId']).where('id', '=', id).executeTakeFirst();
      if (!row || !visible(row.companyId)) errors.push(notFoundError);
      else if (def.company === 'category') companyId = row.companyId;
    } else if (field.reference === 'companies') {
      const row = await ctx.db.selectFrom('companies').select(['id', 'type']).where('id', '=', id).executeTakeFirst();
      if (!row || !visible(row.id)) errors.push(notFoundError);
      else {
        if (def.company === 'column' && field.name === 'companyId') companyId = row.id;
        const typeField = def.companyTypeField;
        if (typeField && value[typeField] !== row.type) {
          errors.push({ field: field.name, message: `This company is not a ${value[typeField]} company` });
        }
      }
    }
  }
  if (errors.length) throw invalid(errors);
  return companyId;
}

async function checkUnique(ctx: ServiceContext, def: ResourceDef, value: Record<string, any>, exceptId?: number) {
  const db = ctx.db as unknown as AnyDb;
  for (const rule of def.unique ?? []) {
    let q = db.selectFrom(def.table).select('id');
    for (const field of rule.fields) q = q.where(field, '=', value[field]);
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
    if (await q.executeTakeFirst()) throw invalid([{ field: rule.fields[rule.fields.length - 1], message: rule.message }]);
  }
}

/** A write whose unique or foreign-key violation (a race the checks did not see) is a 400/409. */
function write<T>(def: ResourceDef, fn: () => Promise<T>): Promise<T> {
  const rule = def.unique?.[0];
  return mapConstraintErrors(fn, {
    unique: () => invalid([{ field: rule?.fields.at(-1) ?? 'body', message: rule?.message ?? 'This record already exists' }]),
    foreignKey: 'This record is still referenced by other records',
  });
}

export interface WriteMeta {
  reason?: string | null;
}

export async function createRecord(ctx: ServiceContext, def: ResourceDef, input: unknown, meta: WriteMeta = {}): Promise<ApiRow> {
  authorize(ctx, def, 'create');
  const value = parse(recordSchema(def), input) as Record<string, any>;
  const companyId = await resolveReferences(ctx, def, value);
  await checkUnique(ctx, def, value);
  const values: Record<string, unknown> = toColumns(def, value);
  if (def.company === 'category') values.companyId = companyId;
  if (tracksCreator(def)) values.createdBy = ctx.actor.kind === 'user' ? ctx.actor.user.id : null;
  const row = await write(def, () => writeRecord(ctx, def.table as any, { action: 'create', values }, { reason: meta.reason }));
  return getRecordAs(ctx, def, row.id);
}

/** Reads a row just written (the caller may not pass the read check's scope otherwise). */
async function getRecordAs(ctx: ServiceContext, def: ResourceDef, id: number): Promise<ApiRow> {
  return toApiRow(def, await findRow(ctx, def, id));
}

/** Applies any subset of fields; the merged record must pass every rule of a new one. */
export async function updateRecord(ctx: ServiceContext, def: ResourceDef, id: number, input: unknown, meta: WriteMeta = {}): Promise<ApiRow> {
  authorize(ctx, def, 'edit');
  const patch = parse(patchSchema(def), input) as Record<string, any>;
  const existing = toApiRow(def, await findRow(ctx, def, id));
  const merged: Record<string, any> = { ...existing };
  for (const [key, v] of Object.entries(patch)) if (v !== undefined) merged[key] = v;
  const value = parse(recordSchema(def), Object.fromEntries(def.fields.map((f) => [f.name, merged[f.name] ?? undefined]))) as Record<string, any>;
  const companyId = await resolveReferences(ctx, def, value);
  await checkUnique(ctx, def, value, id);
  const values: Record<string, unknown> = toColumns(def, value);
  if (def.company === 'category') values.companyId = companyId;
  await write(def, () => writeRecord(ctx, def.table as any, { action: 'update', id, values }, { reason: meta.reason }));
  return getRecordAs(ctx, def, id);
}

export async function deleteRecord(ctx: ServiceContext, def: ResourceDef, id: number, meta: WriteMeta = {}): Promise<ApiRow> {
  authorize(ctx, def, 'delete');
  const existing = toApiRow(def, await findRow(ctx, def, id));
  const db = ctx.db as unknown as AnyDb;
  const uses: string[] = [];
  for (const reference of def.referencedBy ?? []) {
    const row: any = await db.selectFrom(reference.table).select((eb: any) => eb.fn.countAll().as("n")).where(reference.column, "=", id).executeTakeFirst();
    const n = Number(row?.n ?? 0);
    if (n > 0) uses.push(`${n.toLocaleString('en-US')} ${n === 1 ? reference.one : reference.label}`);
  }
  if (uses.length) throw conflict(`Cannot delete this ${def.noun.toLowerCase()}: it is still used by ${joinWords(uses)}`);
  await write(def, () => writeRecord(ctx, def.table as any, { action: 'delete', id }, { reason: meta.reason }));
  return existing;
}

function joinWords(items: string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

export interface Choice {
  value: string;
  label: string;
  group?: string;
}

/** Dropdown choices for a resource's form and filter, limited to what the user may see. */
export async function formChoices(ctx: ServiceContext, def: ResourceDef, fixed: Partial<ListQuery> = {}, options: { form?: boolean } = {}): Promise<{
  companies: { id: number; name: string; type: string }[];
  departments: Choice[];
  categories: Choice[];
  filter: Choice[];
}> {
  authorize(ctx, def, 'read');
  const scope = scopeOf(ctx);
  const needs = new Set(def.fields.filter((f) => f.kind === 'reference').map((f) => f.reference));
  const companiesQuery = ctx.db.selectFrom('companies').select(['id', 'name', 'type']).orderBy('id');
  const companies = needs.has('companies') || needs.has('expenseCategories') || def.companyTypeField
    ? await (scope === null ? companiesQuery : companiesQuery.where('id', '=', scope)).execute()
    : [];
  const needDepartments = needs.has('departments') || def.list.filter?.options === 'departments';
  const departments = needDepartments
    ? (await ctx.db.selectFrom('departments').select(['id', 'name']).orderBy('name').execute()).map((d) => ({ value: String(d.id), label: d.name }))
    : [];
  let categories: Choice[] = [];
  // The category picker is the longest list: only sent with an open form.
  if (needs.has('expenseCategories') && options.form !== false) {
    let q = ctx.db.selectFrom('expenseCategories as cat').innerJoin('companies as c', 'c.id', 'cat.companyId')
      .select(['cat.id', 'cat.name', 'c.name as companyName']).orderBy('c.id').orderBy('cat.name');
    if (scope !== null) q = q.where('cat.companyId', '=', scope);
    categories = (await q.execute()).map((c) => ({ value: String(c.id), label: c.name, group: c.companyName }));
  }
  let filter: Choice[] = [];
  const filterDef = def.list.filter;
  if (filterDef?.options === 'departments') filter = departments;
  else if (filterDef?.options === 'distinct') {
    const labels = def.fields.find((f) => f.name === filterDef.column)?.optionLabels;
    // Choices come from the rows the screen can list (e.g. only fintech metric names).
    const { where } = conditions(ctx, def, { companyId: fixed.companyId, companyType: fixed.companyType, limit: 0, offset: 0 });
    const rows = await applyWhere(baseQuery(ctx, def, false), where).select(`t.${filterDef.column} as value`).distinct().orderBy(`t.${filterDef.column}`).limit(500).execute();
    filter = rows.map((r: any) => ({ value: String(r.value), label: labels?.[r.value] ?? String(r.value) }));
  }
  return { companies, departments, categories, filter };
}
