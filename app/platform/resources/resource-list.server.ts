// Lists of a declared resource: the conditions of a list query (search, the dropdown filter,
// company, company type, source and a date range), its sort, its total (from row_counts when
// the resource declares them and nothing narrows the list), one page, or every row in batches.
import { sql, type Expression, type SqlBool } from 'kysely';
import { containsText, dialectOf } from '../../../db/dialect.ts';
import { runCompiled } from '../../../db/compiled-cache.ts';
import {
  daysContaining,
  ftsTable,
  postgresIndexMatch,
  postgresTermBranches,
  postgresTermMatches,
  postgresTextBranch,
  searchIndexFor,
  searchIndexIds,
  type TermMatches,
} from '../../../db/search-index.ts';
import { streamQuery } from '../../../db/stream.ts';
import { dayAfter, dayStart } from '../lib/dates.ts';
import { snakeCase } from '../lib/names.ts';
import {
  COMPANY_COLUMNS,
  COMPANY_TABLE,
  companyColumnOf,
  companyNamed,
  companySelf,
  MAX_AMOUNT,
  type ResourceDef,
  type RowOf,
} from './define.ts';
import type { ServiceContext } from '../context.ts';
import { dayCounted, dayCountedPageIds } from './day-pages.server.ts';
import { anchoredPageIds } from './page-anchors.server.ts';
import {
  authorizeRead,
  baseQuery,
  baseQueryNarrows,
  columnOf,
  dynamic,
  ref,
  scopeOf,
  selectRow,
  toApiRow,
  type Row,
  type RowQuery,
} from './resource-rows.server.ts';

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

/**
 * The list's conditions, and which joined aliases they need (the count can skip the others).
 * `others` is every condition but the search; `matchIds`, on SQLite with a search index, the
 * ids the search matches (see searchCondition).
 */
export function conditions(
  ctx: ServiceContext,
  def: ResourceDef,
  query: ListQuery,
  lookups?: SearchLookups,
): {
  where: Expression<SqlBool>[];
  aliases: Set<string>;
  others: Expression<SqlBool>[];
  matchIds: Expression<unknown> | null;
} {
  const where: Expression<SqlBool>[] = [];
  const aliases = new Set<string>();
  const companyAlias = def.joins.find((j) => j.table === COMPANY_TABLE)?.alias;
  const self = companySelf(def);

  const q = query.q?.trim();
  const search = q ? searchCondition(ctx, def, q, lookups) : null;
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
  if (query.source && def.fields.some((f) => f.name === 'source'))
    where.push(sql<SqlBool>`${ref('source')} = ${query.source}`);
  if (query.from || query.to) {
    const { column, instant } = dateColumnOf(def);
    // Instants are ISO text on SQLite and timestamptz on PostgreSQL: compare with day bounds.
    if (query.from) where.push(sql<SqlBool>`${ref(column)} >= ${instant ? dayStart(query.from) : query.from}`);
    if (query.to)
      where.push(
        instant ? sql<SqlBool>`${ref(column)} < ${dayAfter(query.to)}` : sql<SqlBool>`${ref(column)} <= ${query.to}`,
      );
  }
  return {
    where: search ? [search.condition, ...where] : where,
    aliases,
    others: where,
    matchIds: search?.matchIds ?? null,
  };
}

/**
 * `q` in any searched column (case-insensitive substring). The table's own columns go through
 * its trigram index when it has one (db/search-index.ts); a name of a small reference table is
 * matched by its ids first, so neither the count nor the scan of a large table joins it. On
 * SQLite with an index the matches are one set of ids (`matchIds`: the index's rows, then the
 * rows of the matching names through their covering indexes), which a count reads without
 * touching the table.
 */
function searchCondition(
  ctx: ServiceContext,
  def: ResourceDef,
  q: string,
  lookups?: SearchLookups,
): { condition: Expression<SqlBool>; matchIds: Expression<unknown> | null } {
  const dialect = dialectOf(ctx.db);
  const matches = (column: ReturnType<typeof sql.ref>) => containsText(dialect, sql`cast(${column} as text)`, q);
  const index = searchIndexFor(snakeCase(def.table), q);
  const indexed = index !== null;
  const own: Expression<SqlBool>[] = [];
  // Conditions on keys the table indexes: the ids of matching names, an amount.
  const names: Expression<SqlBool>[] = [];
  const money = moneyColumns(def);
  const cents = searchedCents(q);
  for (const column of def.list.search) {
    const join = column.includes('.') ? def.joins.find((j) => j.alias === column.split('.')[0]) : undefined;
    if (money.has(column)) {
      // Stored in cents: matched as the amount typed, not as text ('1,234.56' is 123456).
      if (cents !== null) names.push(sql<SqlBool>`${ref(column)} = ${cents}`);
      continue;
    }
    if (!join) {
      if (!indexed) own.push(matches(ref(column)));
      continue;
    }
    const known = lookups?.names.get(column);
    if (known) {
      if (known.length) names.push(sql<SqlBool>`${ref(join.on)} in (${sql.join(known)})`);
      continue;
    }
    const ids = sql`select id from ${sql.table(snakeCase(join.table))} where ${matches(sql.ref(column.split('.')[1]))}`;
    // PostgreSQL reads `= any(array(…))` as a list of values (an index lookup, one of a bitmap
    // OR with the trigram index); `in (…)` would be a subplan checked row by row.
    names.push(
      dialect === 'postgres'
        ? sql<SqlBool>`${ref(join.on)} = any(array(${ids}))`
        : sql<SqlBool>`${ref(join.on)} in (${ids})`,
    );
  }
  if (indexed && dialect === 'sqlite') {
    const table = sql.table(snakeCase(def.table));
    const byName = sql`select t.id from ${table} as t where ${sql.join(names, sql` or `)}`;
    // Names known to match nothing leave the index's rows alone (no union to deduplicate).
    const matchIds = names.length ? sql`${searchIndexIds(index, q)} union ${byName}` : searchIndexIds(index, q);
    return { condition: sql<SqlBool>`${sql.ref('t.id')} in (${matchIds})`, matchIds };
  }
  if (indexed) {
    own.push(postgresIndexMatch(index, 't', q, lookups?.terms));
    // Without the looked-up days (a caller that did not look them up), a date column is matched as text.
    if (!lookups)
      for (const column of index.dateColumns ?? [])
        own.push(containsText(dialect, sql`cast(${sql.ref(`t.${column}`)} as text)`, q));
    for (const [column, days] of lookups?.days ?? [])
      if (days.length) own.push(sql<SqlBool>`${sql.ref(`t.${column}`)} in (${sql.join(days)})`);
  }
  return { condition: sql<SqlBool>`(${sql.join([...own, ...names], sql` or `)})`, matchIds: null };
}

/** The columns of a resource's money fields (`amountCents`). */
function moneyColumns(def: ResourceDef): Set<string> {
  return new Set(def.fields.filter((f) => f.kind === 'money').map(columnOf));
}

/** A search typed as an amount (1234.56, 1,234.56, 1234) in cents, or null. */
export function searchedCents(q: string): number | null {
  if (!/^(\d{1,3}(,\d{3})+|\d+)(\.\d{1,2})?$/.test(q)) return null;
  const cents = Math.round(Number(q.replaceAll(',', '')) * 100);
  return cents > 0 && cents <= MAX_AMOUNT * 100 ? cents : null;
}

/** Whether a search matches one of the list's amounts (which the search table does not hold). */
function searchesAmount(def: ResourceDef, q: string): boolean {
  const money = moneyColumns(def);
  return searchedCents(q) !== null && def.list.search.some((c) => money.has(c));
}

export function applyWhere(query: RowQuery, where: Expression<SqlBool>[]): RowQuery {
  return where.reduce((q, condition) => q.where(condition), query);
}

/** The requested sort, or the declaration's default; always ends with id for a stable order. */
export function resolveSort(
  def: ResourceDef,
  sort?: string | null,
  dir?: string | null,
): { key: string; columns: string[]; dir: 'asc' | 'desc' } {
  const key = sort && Object.hasOwn(def.list.sorts, sort) ? sort : def.list.defaultSort.key;
  const direction = dir === 'asc' || dir === 'desc' ? dir : sort && key === sort ? 'asc' : def.list.defaultSort.dir;
  const { column, then } = def.list.sorts[key];
  return { key, columns: then ? [column, then, 'id'] : [column, 'id'], dir: direction };
}

/** The list's order: the sort's columns, then id, for a stable order. */
function ordered(query: RowQuery, sort: ReturnType<typeof resolveSort>, alias = 't'): RowQuery {
  return sort.columns.reduce((q, column) => q.orderBy(`${alias}.${column}`, sort.dir), query);
}

/**
 * The total of an unfiltered list (at most limited to one company) from row_counts, or null
 * when the resource keeps no counts or the list has conditions that need a real count.
 */
async function trackedTotal(ctx: ServiceContext, def: ResourceDef, query: ListQuery): Promise<number | null> {
  if (!countsCover(def, query)) return null;
  const companies = countedCompanies(ctx, query);
  if (companies.length === 2 && companies[0] !== companies[1]) return 0;
  const values = [snakeCase(def.table), ...companies.slice(0, 1)];
  const [row] = await runCompiled(ctx.db, `rowCounts:${values.length}`, values, ([table, company]) =>
    countedTotal(ctx, table as string, values.length > 1 ? (company as number) : null),
  );
  return Number(row?.total ?? 0);
}

/** The companies a counted list is limited to: the user's scope and the company filter (none: every one). */
function countedCompanies(ctx: ServiceContext, query: ListQuery): number[] {
  return [scopeOf(ctx), query.companyId ?? null].filter((id): id is number => id !== null);
}

/** The counted rows of a table (of one company, or of all), as `total`. */
function countedTotal(ctx: ServiceContext, table: string, companyId: number | null) {
  const query = ctx.db
    .selectFrom('rowCounts')
    .select((eb) => eb.fn.sum<number>('rowCount').as('total'))
    .where('tableName', '=', table);
  return companyId === null ? query : query.where('companyId', '=', companyId);
}

/** Whether row_counts holds the list's total: a counted table, no condition but a company. */
function countsCover(def: ResourceDef, query: ListQuery): boolean {
  if (!def.rowCounts) return false;
  const hasFilter = query.filter !== undefined && query.filter !== null && query.filter !== '';
  return !(
    query.q?.trim() ||
    hasFilter ||
    Object.keys(query.exact ?? {}).length ||
    query.company ||
    query.companyType ||
    query.source ||
    query.from ||
    query.to
  );
}

/**
 * The first pages of a whole counted list for a user who sees every company (most page and API
 * requests): the rows and the total from row_counts in one statement, compiled once per
 * resource and sort. Null when the list is another or the page is empty (the usual way then).
 */
async function firstPageWithTotal<D extends ResourceDef>(
  ctx: ServiceContext,
  def: D,
  query: ListQuery,
  where: Expression<SqlBool>[],
  sort: ReturnType<typeof resolveSort>,
): Promise<{ rows: RowOf<D>[]; total: number } | null> {
  if (
    where.length > 0 ||
    scopeOf(ctx) !== null ||
    (query.companyId ?? null) !== null ||
    query.offset >= LIST_PAGING.directPageOffset ||
    !countsCover(def, query)
  )
    return null;
  const rows = await runCompiled(
    ctx.db,
    `listWithTotal:${def.key}:${sort.key}:${sort.dir}`,
    [snakeCase(def.table), query.limit, query.offset],
    ([table, limit, offset]) =>
      ordered(selectRow(def, baseQuery(ctx, def)), sort)
        .select(countedTotal(ctx, table as string, null).as('listTotal'))
        .limit(limit as number)
        .offset(offset as number),
  );
  if (rows.length === 0) return null;
  // As the two statements did: a page never runs past the counted total.
  const total = Number(rows[0].listTotal ?? 0);
  return { rows: rows.slice(0, Math.max(0, total - query.offset)).map((row) => toApiRow(def, row)), total };
}

/**
 * What a search through an index looks up first: the reference rows each searched name matches
 * ('d.name' → ids), and on PostgreSQL the days of each date column whose text matches.
 */
interface SearchLookups {
  names: Map<string, number[]>;
  days: Map<string, string[]>;
  /** PostgreSQL: the ids of the search table's dictionary values that match, per term column. */
  terms?: TermMatches;
}

/**
 * A table with a search index: the reference rows each searched name matches, looked up first
 * (small tables), so that a name that matches nothing costs nothing and one that does is a
 * list of ids for the big table's indexes. PostgreSQL plans with the real list: with
 * `= any(array(…))` it had to guess, guessed a quarter of the table for four companies, and
 * scanned it. On PostgreSQL also the days between the column's first and
 * last that contain the search (its trigram index leaves dates out).
 */
async function searchLookups(ctx: ServiceContext, def: ResourceDef, q: string): Promise<SearchLookups | undefined> {
  const index = searchIndexFor(snakeCase(def.table), q);
  if (!index) return undefined;
  const dialect = dialectOf(ctx.db);
  const lookups: SearchLookups = { names: new Map(), days: new Map() };
  for (const column of def.list.search) {
    const [alias, name] = column.split('.');
    const join = name ? def.joins.find((j) => j.alias === alias) : undefined;
    if (!join) continue;
    const { rows } = await sql<{
      id: number;
    }>`select id from ${sql.table(snakeCase(join.table))} where ${containsText(dialect, sql`cast(${sql.ref(name)} as text)`, q)}`.execute(
      ctx.db,
    );
    lookups.names.set(
      column,
      rows.map((r) => Number(r.id)),
    );
  }
  if (dialect === 'postgres') {
    for (const column of index.dateColumns ?? []) {
      const table = sql.table(index.table);
      const { rows } = await sql<{ first: string | null; last: string | null }>`
        select (select min(${sql.ref(column)}) from ${table}) as first, (select max(${sql.ref(column)}) from ${table}) as last`.execute(
        ctx.db,
      );
      const { first, last } = rows[0] ?? {};
      lookups.days.set(column, first && last ? daysContaining(String(first), String(last), q) : []);
    }
    lookups.terms = await postgresTermMatches(ctx.db, index, q);
  }
  return lookups;
}

/** The list's conditions with its search's names, days and dictionary values looked up first. */
async function lookedUpConditions(ctx: ServiceContext, def: ResourceDef, query: ListQuery) {
  const q = query.q?.trim();
  const lookups = q ? await searchLookups(ctx, def, q) : undefined;
  return { lookups, ...conditions(ctx, def, query, lookups) };
}

/** How pages are found (an object so that tests can take every way with a few rows). */
export const LIST_PAGING = {
  /** Pages fewer rows than this from the nearer end are read in one query; deeper ones ids first. */
  directPageOffset: 200,
  // SQLite searches:
  /** Up to this many matches are sorted directly (one row read each). */
  sortMatchesUpTo: 2_000,
  /** How far down the sort's index a page is looked for before sorting the matches. */
  walkEntries: 100_000,
};

/**
 * SQLite, a search with many matches: the page found by walking the first `walkEntries` entries
 * of the sort's index (ids and sort keys only, no row read) and keeping the matches, or null
 * when that stretch holds too few of them (matches that cluster elsewhere, such as one month's
 * dates): then sorting the matches is the way. A common term fills a page within a few hundred
 * entries; sorting its 60,000 matches would read 60,000 rows.
 */
async function walkedPage(
  ctx: ServiceContext,
  def: ResourceDef,
  others: Expression<SqlBool>[],
  aliases: Set<string>,
  matchIds: Expression<unknown>,
  seek: ReturnType<typeof resolveSort>,
  limit: number,
  offset: number,
): Promise<number[] | null> {
  const stretch = ordered(filtered(ctx, def, others, aliases), seek)
    .select(seek.columns.map((c) => `t.${c}`))
    .limit(LIST_PAGING.walkEntries)
    .as('w');
  const page = await ordered(
    dynamic(ctx.db)
      .selectFrom(stretch)
      .select('w.id')
      .where(sql<SqlBool>`${sql.ref('w.id')} in (${matchIds})`),
    seek,
    'w',
  )
    .limit(limit)
    .offset(offset)
    .execute();
  return page.length === limit ? page.map((r) => Number(r.id)) : null;
}

/** PostgreSQL, a search through the trigram index. */
function postgresIndexedSearch(ctx: ServiceContext, def: ResourceDef, q: string | undefined): boolean {
  return dialectOf(ctx.db) === 'postgres' && searchIndexFor(snakeCase(def.table), q) !== null;
}

/**
 * PostgreSQL, a search: the page and the total in one pass over the matches (`matches`: their
 * ids and sort keys), read through the trigram index and sorted (each match costs a heap read
 * and a recheck, so one pass instead of a count and then a page halves the time). Null past
 * the last match (the count then comes on its own).
 */
async function postgresSearchPage(
  ctx: ServiceContext,
  matches: ReturnType<typeof postgresMatches>,
  sort: ReturnType<typeof resolveSort>,
  limit: number,
  offset: number,
): Promise<{ ids: number[]; total: number } | null> {
  const page = await ordered(
    dynamic(ctx.db)
      .selectFrom(matches)
      .select(['m.id', sql<number>`count(*) over ()`.as('total')]),
    sort,
    'm',
  )
    .limit(limit)
    .offset(offset)
    .execute();
  if (page.length === 0) return null;
  return { ids: page.map((r) => Number(r.id)), total: Number(page[0].total) };
}

/**
 * PostgreSQL, a search's matches with their sort keys (as `m`). When the search table holds all
 * the search needs (no condition but the search, the user's company scope and the Company filter, no company name
 * that matches, a sort by its keys) only that table is read: one index lookup per kind of match
 * (matching dictionary values of each term column, the row's own text, matching departments or
 * categories, matching days), each an index-only scan that gives the sort keys, appended one
 * after another (each leaves out the rows an earlier one gave). Otherwise the table with the
 * list's conditions. `offset 0` keeps the planner from walking the sort's index instead, which
 * it prefers when it takes the matches for evenly spread: a month's dates or a year's receipts
 * cluster, and that walk read most of a 1M-row table.
 */
function postgresMatches(
  ctx: ServiceContext,
  def: ResourceDef,
  q: string,
  lookups: SearchLookups | undefined,
  list: {
    where: Expression<SqlBool>[];
    aliases: Set<string>;
    others: Expression<SqlBool>[];
    companyFilter: number | null;
  },
  sort: ReturnType<typeof resolveSort>,
) {
  const index = searchIndexFor(snakeCase(def.table), q);
  const keys = new Set(['id', ...(index?.keys ?? [])]);
  const scope = scopeOf(ctx);
  const companyColumn = companyColumnOf(def);
  // Matching names, by the key the search table would hold them in.
  const names = [...(lookups?.names ?? [])]
    .filter(([, ids]) => ids.length > 0)
    .map(([column, ids]) => ({ key: snakeCase(def.joins.find((j) => j.alias === column.split('.')[0])!.on), ids }));
  // The Company filter is one of the list's conditions; the search table holds the company too.
  const companyFilter = companyColumn !== null ? list.companyFilter : null;
  const companyKept = companyColumn !== null && keys.has(snakeCase(companyColumn));
  const searchTableOnly =
    index !== null &&
    lookups?.terms !== undefined &&
    list.others.length === (companyFilter !== null ? 1 : 0) &&
    companyNamed(def) === null &&
    !searchesAmount(def, q) &&
    ((scope === null && companyFilter === null) || companyKept) &&
    sort.columns.every((c) => keys.has(snakeCase(c))) &&
    names.every((n) => index.nameKeys?.includes(n.key));
  if (searchTableOnly) {
    const lookupsOfRows = [
      ...postgresTermBranches(index, 't', q, lookups.terms),
      ...names.map((n) => sql<SqlBool>`${sql.ref(`t.${n.key}`)} in (${sql.join(n.ids)})`),
      ...[...lookups.days]
        .filter(([, days]) => days.length > 0)
        .map(([column, days]) => sql<SqlBool>`${sql.ref(`t.${column}`)} in (${sql.join(days)})`),
    ];
    const text = postgresTextBranch(index, 't', q);
    const branches = text ? [...lookupsOfRows, text] : lookupsOfRows;
    // Each lookup leaves out the rows an earlier one gave (from the same index entries), so the
    // lookups are simply appended: no union of tens of thousands of rows to deduplicate.
    const matching = (branch: Expression<SqlBool>, earlier: Expression<SqlBool>[]) => {
      let query = dynamic(ctx.db)
        .selectFrom(`${ftsTable(index)} as t`)
        .where(branch);
      if (earlier.length) query = query.where(sql<SqlBool>`not coalesce(${sql.join(earlier, sql` or `)}, false)`);
      if (scope !== null && companyColumn) query = query.where(`t.${companyColumn}`, '=', scope);
      if (companyFilter !== null) query = query.where(`t.${companyColumn}`, '=', companyFilter);
      return query.select(sort.columns.map((c) => `t.${c}`));
    };
    if (branches.length === 0) return matching(sql<SqlBool>`false`, []).as('m');
    const [first, ...rest] = branches;
    return rest
      .reduce((all, branch, i) => all.unionAll(matching(branch, branches.slice(0, i + 1))), matching(first, []))
      .offset(0)
      .as('m');
  }
  return filtered(ctx, def, list.where, list.aliases)
    .select(sort.columns.map((c) => `t.${c}`))
    .offset(0)
    .as('m');
}

/** The table with the list's conditions, joined only to what the conditions name. */
function filtered(ctx: ServiceContext, def: ResourceDef, where: Expression<SqlBool>[], aliases: Set<string>): RowQuery {
  let query = baseQuery(ctx, def, false);
  for (const join of def.joins) {
    if (aliases.has(join.alias))
      query = query.leftJoin(`${join.table} as ${join.alias}`, `${join.alias}.id`, `t.${join.on}`);
  }
  return applyWhere(query, where);
}

async function countRows(
  ctx: ServiceContext,
  def: ResourceDef,
  where: Expression<SqlBool>[],
  aliases: Set<string>,
): Promise<number> {
  const counted = await filtered(ctx, def, where, aliases)
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirst();
  return Number(counted?.total ?? 0);
}

export async function listRecords<D extends ResourceDef>(
  ctx: ServiceContext,
  def: D,
  query: ListQuery,
): Promise<{ rows: RowOf<D>[]; total: number }> {
  await authorizeRead(ctx, def);
  const q = query.q?.trim();
  const { lookups, where, aliases, others, matchIds } = await lookedUpConditions(ctx, def, query);
  const sort = resolveSort(def, query.sort, query.dir);
  if (postgresIndexedSearch(ctx, def, q)) {
    const page = await postgresSearchPage(
      ctx,
      postgresMatches(ctx, def, q!, lookups, { where, aliases, others, companyFilter: query.companyId ?? null }, sort),
      sort,
      query.limit,
      query.offset,
    );
    if (!page) return { rows: [], total: await countRows(ctx, def, where, aliases) };
    const rows = await ordered(selectRow(def, baseQuery(ctx, def)), sort)
      .where('t.id', 'in', page.ids)
      .execute();
    return { rows: rows.map((row) => toApiRow(def, row)), total: page.total };
  }
  const first = await firstPageWithTotal(ctx, def, query, where, sort);
  if (first) return first;
  const total =
    (await trackedTotal(ctx, def, query)) ??
    (matchIds && others.length === 0 && !baseQueryNarrows(ctx, def)
      ? await countIds(ctx, matchIds)
      : await countRows(ctx, def, where, aliases));
  if (total === 0 || query.offset >= total) return { rows: [], total };

  // Deep pages: the page's ids first, from the sort's index alone (no row is read or joined
  // until the page is known), counted from whichever end of the list is nearer; then those
  // rows with their names. OFFSET 500,000 through the joins read 500,000 rows.
  const limit = Math.min(query.limit, total - query.offset);
  const fromEnd = query.offset + limit > total / 2;
  const seek = fromEnd ? { ...sort, dir: sort.dir === 'asc' ? ('desc' as const) : ('asc' as const) } : sort;
  const offset = fromEnd ? total - query.offset - limit : query.offset;
  const walked =
    matchIds && total > LIST_PAGING.sortMatchesUpTo
      ? await walkedPage(ctx, def, others, aliases, matchIds, seek, limit, offset)
      : null;
  if (!walked && offset < LIST_PAGING.directPageOffset) {
    // Near either end one query does it (the common case: the first pages), cheaper to build.
    const build = () => ordered(selectRow(def, applyWhere(baseQuery(ctx, def), where)), seek);
    // The whole list of a user who sees every company (most requests): compiled once per
    // resource and sort. A company scope is a value inside baseQuery, so those compile each time.
    const near =
      where.length === 0 && scopeOf(ctx) === null
        ? await runCompiled(ctx.db, `list:${def.key}:${seek.key}:${seek.dir}`, [limit, offset], ([l, o]) =>
            build()
              .limit(l as number)
              .offset(o as number),
          )
        : await build().limit(limit).offset(offset).execute();
    if (fromEnd) near.reverse();
    return { rows: near.map((row) => toApiRow(def, row)), total };
  }
  const listIds = ordered(filtered(ctx, def, where, aliases), seek).select('t.id');
  const byDay = !walked ? await dayCountedPage(ctx, def, query, listIds, seek, limit, offset) : null;
  const anchored =
    !walked && !byDay && anchorable(ctx, def, q, aliases)
      ? await anchoredPageIds(
          ctx.db,
          { table: snakeCase(def.table), ids: listIds, columns: seek.columns, dir: seek.dir },
          limit,
          offset,
        )
      : null;
  const ids = walked ?? byDay ?? anchored ?? listIds.limit(limit).offset(offset);
  const rows = await ordered(selectRow(def, baseQuery(ctx, def)), sort)
    .where('t.id', 'in', ids)
    .execute();
  return { rows: rows.map((row) => toApiRow(def, row)), total };
}

/**
 * PostgreSQL: a deep page of a list that day_counts covers (a day-counted table sorted by its
 * date, no condition but a company, as for row_counts) placed by those counts
 * (day-pages.server.ts), or null for another list or when the page is past the end.
 */
async function dayCountedPage(
  ctx: ServiceContext,
  def: ResourceDef,
  query: ListQuery,
  ids: RowQuery,
  seek: ReturnType<typeof resolveSort>,
  limit: number,
  offset: number,
): Promise<number[] | null> {
  const table = snakeCase(def.table);
  const columns = seek.columns.map(snakeCase);
  if (
    dialectOf(ctx.db) !== 'postgres' ||
    !countsCover(def, query) ||
    companyNamed(def) !== null ||
    !dayCounted(table, columns)
  )
    return null;
  const companies = [...new Set(countedCompanies(ctx, query))];
  const page = await dayCountedPageIds(ctx.db, { table, ids, columns, dir: seek.dir, companies }, limit, offset);
  return page.length ? page : null;
}

/**
 * PostgreSQL: whether a deep page may start from the list's anchors (page-anchors.server.ts): a
 * table with a change token (the counted ones, migration 0014) and conditions on its own
 * columns only. A search, a joined name or a named company read other tables, whose changes
 * the token does not follow.
 */
function anchorable(ctx: ServiceContext, def: ResourceDef, q: string | undefined, aliases: Set<string>): boolean {
  return dialectOf(ctx.db) === 'postgres' && !!def.rowCounts && !q && aliases.size === 0 && companyNamed(def) === null;
}

/** How many ids a set holds (SQLite search: the matches, counted without reading the table). */
async function countIds(ctx: ServiceContext, ids: Expression<unknown>): Promise<number> {
  const { rows } = await sql<{ total: number }>`select count(*) as total from (${ids}) as matches`.execute(ctx.db);
  return Number(rows[0]?.total ?? 0);
}

/**
 * Rows per cursor batch. Small batches die young: at 1M rows, 250 kept the CLI export's peak RSS
 * lower than 1000 did and was no slower (bench/README.md).
 */
export const EXPORT_BATCH_ROWS = 250;

/**
 * Every row of the filtered list in the list's order, in batches read by one cursor (CSV
 * export): one consistent snapshot, memory flat whatever the row count, and on SQLite a
 * separate read connection, so a long download never holds up the app's writes.
 */
export async function* recordBatches<D extends ResourceDef>(
  ctx: ServiceContext,
  def: D,
  query: Omit<ListQuery, 'limit' | 'offset'>,
  batchSize = EXPORT_BATCH_ROWS,
): AsyncGenerator<RowOf<D>[]> {
  await authorizeRead(ctx, def);
  for await (const batch of streamQuery<Row>(ctx.db, selectRow(def, await recordQuery(ctx, def, query)), batchSize)) {
    yield batch.map((row) => toApiRow(def, row));
  }
}

/**
 * The filtered list in its order, nothing selected yet: recordBatches' rows, and the PostgreSQL
 * CSV export's (resource-csv.server.ts). A search looks its names, days and dictionary values
 * up first, as the list does, so the export finds the same rows through the same indexes.
 */
export async function recordQuery(
  ctx: ServiceContext,
  def: ResourceDef,
  query: Omit<ListQuery, 'limit' | 'offset'>,
): Promise<RowQuery> {
  const { where } = await lookedUpConditions(ctx, def, { ...query, limit: 0, offset: 0 });
  return ordered(applyWhere(baseQuery(ctx, def), where), resolveSort(def, query.sort, query.dir));
}
