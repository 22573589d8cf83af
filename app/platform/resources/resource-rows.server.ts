// What every part of the generic resource service shares: who may do what to a declared
// resource, its rows as the API shows them (money in cents and decimals in hundredths become
// decimals) and back, and the main table read as `t` with its display joins, limited to the
// caller's company. Tables and columns come from the declarations, which defineResource checked
// against the database types, so the query builder is used over names chosen at run time.
import { sql, type SelectQueryBuilder } from 'kysely';
import { canSeeCompany, type Action } from '../lib/permissions.ts';
import {
  companyColumnOf,
  companyNamed,
  companySelf,
  type ApiRow,
  type FieldDef,
  type ResourceDef,
  type RowOf,
} from './define.ts';
import { actingUser, actorCompanyScope, requirePermission, type ServiceContext } from '../context.ts';
import { forbidden, notFound } from '../errors.ts';
import { dynamic, type Row } from '../query-types.server.ts';

export type { ApiRow } from './define.ts';
/** A row as the database returns it (camelCase columns); the query builder over tables named by declarations. */
export { dynamic, type Row };
export type RowQuery = SelectQueryBuilder<Record<string, Row>, string, Row>;

/**
 * What a declaration adds to its area's permission: a log is never written through the generic
 * layer, whoever asks; a user limited to one company neither adds nor removes companies nor
 * changes what the whole group shares (departments, integration sources and endpoints).
 */
export function authorize(ctx: ServiceContext, def: ResourceDef, action: Action) {
  if (def.readOnly && action !== 'read') throw forbidden();
  const groupWide = def.company === 'none' || (companySelf(def) !== null && action !== 'edit');
  requirePermission(ctx, def.area, action, { groupWide });
}

/** The caller's company scope, as every query of the generic layer applies it. */
export const scopeOf = actorCompanyScope;

const SCALE: Partial<Record<FieldDef['kind'], number>> = { money: 100, decimal: 100, percent: 100 };

/** Database column (camelCase) of a field: money in cents, decimals in hundredths. */
export function columnOf(field: Pick<FieldDef, 'name' | 'kind'>): string {
  if (field.kind === 'money') return `${field.name}Cents`;
  if (field.kind === 'decimal' || field.kind === 'percent') return `${field.name}Hundredths`;
  return field.name;
}

/** A row as the API shows it: of the declaration's row type (define.ts), which is made from these same rules. */
export function toApiRow<D extends ResourceDef>(def: D, row: Row): RowOf<D> {
  const out: ApiRow = { id: Number(row.id) };
  if (companyColumnOf(def) === 'companyId') out.companyId = row.companyId;
  for (const field of def.fields) {
    const value = row[columnOf(field)];
    const scale = SCALE[field.kind];
    // Counts are bigint on PostgreSQL (pg returns text for them): numbers like the rest.
    out[field.name] =
      value === null || value === undefined
        ? null
        : scale
          ? Number(value) / scale
          : field.kind === 'integer'
            ? Number(value)
            : value;
  }
  for (const join of def.joins) for (const key of Object.keys(join.select)) out[key] = row[key] ?? null;
  for (const column of def.readOnlyColumns ?? []) out[column] = row[column] ?? null;
  for (const [key, compute] of Object.entries(def.derived ?? {})) out[key] = compute(out, row);
  if (def.createdBy) out.createdBy = row.createdBy ?? null;
  out.createdAt = row.createdAt;
  out.updatedAt = row.updatedAt;
  return out as RowOf<D>;
}

/** The columns to store for a validated record (fields left undefined are not written). */
export function toColumns(def: ResourceDef, value: Record<string, unknown>): Row {
  const out: Row = {};
  for (const field of def.fields) {
    const v = value[field.name];
    if (v === undefined) continue;
    const scale = SCALE[field.kind];
    out[columnOf(field)] = scale && typeof v === 'number' ? Math.round(v * scale) : v;
  }
  return out;
}

/** A column of the main table (`t`), or `alias.column` of a join. */
export function ref(column: string) {
  return sql.ref(column.includes('.') ? column : `t.${column}`);
}

/** The main table as `t` with its display joins, limited to the caller's company. */
export function baseQuery(ctx: ServiceContext, def: ResourceDef, withJoins = true): RowQuery {
  let query: RowQuery = dynamic(ctx.db).selectFrom(`${def.table} as t`);
  if (withJoins) {
    for (const join of def.joins)
      query = query.leftJoin(`${join.table} as ${join.alias}`, `${join.alias}.id`, `t.${join.on}`);
  }
  const scope = scopeOf(ctx);
  const companyColumn = companyColumnOf(def);
  if (scope !== null && companyColumn) query = query.where(`t.${companyColumn}`, '=', scope);
  const named = companyNamed(def);
  if (named !== null)
    query = query.where(
      't.companyId',
      '=',
      dynamic(ctx.db).selectFrom('companies').select('id').where('name', '=', named),
    );
  return query;
}

/** Whether baseQuery adds conditions of its own (the user's company scope, or a named company). */
export function baseQueryNarrows(ctx: ServiceContext, def: ResourceDef): boolean {
  return (scopeOf(ctx) !== null && !!companyColumnOf(def)) || companyNamed(def) !== null;
}

/** A read of a resource's rows: the permission, and for a named company's rows that the user may see them. */
export async function authorizeRead(ctx: ServiceContext, def: ResourceDef): Promise<void> {
  authorize(ctx, def, 'read');
  await namedCompanyId(ctx, def);
}

/**
 * The company a resource's rows all belong to by its rule (`{ named: 'One Network' }`): its
 * id, or null when no company has that name. A user limited to another company gets a 404,
 * as for any other company's rows.
 */
export async function namedCompanyId(ctx: ServiceContext, def: ResourceDef): Promise<number | null> {
  const named = companyNamed(def);
  if (named === null) return null;
  const row = await dynamic(ctx.db).selectFrom('companies').select('id').where('name', '=', named).executeTakeFirst();
  const id = row ? Number(row.id) : null;
  const user = actingUser(ctx);
  if (user && !canSeeCompany(user, id)) throw notFound();
  return id;
}

/** The main table's columns and the joins' selected names. */
export function selectRow(def: ResourceDef, query: RowQuery): RowQuery {
  let q = query.selectAll('t');
  for (const join of def.joins) {
    for (const [key, column] of Object.entries(join.select)) q = q.select(`${join.alias}.${column} as ${key}`);
  }
  for (const [alias, column] of Object.entries(def.monthTotals ?? {})) {
    // The (company, year, month, type) unique index finds the month's rows.
    q = q.select(
      sql<number>`(select sum(${sql.ref(`s.${column}`)}) from ${sql.table(def.table)} as s where s.company_id = t.company_id and s.year = t.year and s.month = t.month)`.as(
        alias,
      ),
    );
  }
  return q;
}

/** A row the caller may see, with its joined names; another company's row is not found. */
export async function findRow(ctx: ServiceContext, def: ResourceDef, id: number): Promise<Row> {
  const row = await selectRow(def, baseQuery(ctx, def)).where('t.id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}
