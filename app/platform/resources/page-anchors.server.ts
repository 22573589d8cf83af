// PostgreSQL, deep pages of a big list: where the list stands every
// `PAGE_ANCHORS.every` entries (the id there), so that page N starts from the nearest such
// anchor (a keyset seek: `(sort key, id) < (the anchor's)`) and skips fewer than `every`
// entries, instead of walking N × 10 entries of the sort's index (page 50,000 of a million
// rows: 500,000 entries). The URL keeps `?page=N`: an anchor is a position, found again
// by walking the list once (one pass, as far as the page asked for) and kept in this process.
//
// Anchors hold only while the table is as it was: each is stored with the table's change token
// (migration 0014: every statement that writes the table replaces it, in its transaction,
// whatever process writes). A page read from anchors checks the token in the same statement,
// so it sees either the rows the anchors were found in (and the page is exactly what OFFSET
// gives) or nothing (and the anchors are found again, or the caller reads the page with OFFSET).
// Only lists whose conditions name nothing but the table's own columns qualify: a change in
// another table (a company's name) does not change this one's token.
import { sql, type Expression, type SqlBool } from 'kysely';
import type { Db } from '../context.ts';
import { snakeCase } from '../lib/names.ts';
import { dynamic, type RowQuery } from './resource-rows.server.ts';

export const PAGE_ANCHORS = {
  /** An anchor every this many entries: a page skips fewer than this from one. */
  every: 10_000,
  /** Lists (resource, conditions, sort) whose anchors a process keeps, the last used. */
  lists: 64,
  /** How long a list found walkable (see findAnchors) is taken for walkable without asking again. */
  walkableMs: 10 * 60_000,
};

/** A list's anchors: `ids[i]` is the id at offset `(i + 1) × every`-1, in a table with `token`. */
interface Anchors {
  token: string;
  ids: number[];
}

const kept = new Map<string, Anchors>();
/** Lists found walkable (no null sort key, an index gives the order), and when. */
const walkable = new Map<string, number>();

/** Pages read from anchors, and walks that found anchors (tests, benches). */
export const pageAnchorStats = { pages: 0, walks: 0 };

/** Forgets every list's anchors (tests). */
export function forgetPageAnchors(): void {
  kept.clear();
  walkable.clear();
}

export interface AnchoredList {
  /** The table (snake_case, with a change token), read as `t` in `ids`. */
  table: string;
  /** `select t.id from <table> as t where … order by <columns>`: the list's ids, no limit. */
  ids: RowQuery;
  /** The order's columns (camelCase, ending with id), all in `dir`; none may be null. */
  columns: string[];
  dir: 'asc' | 'desc';
}

/**
 * The ids of the page at `offset` through the list's anchors, or null when it cannot be read
 * so (a page within the first `every` entries, sort columns that may be null, or a table that
 * kept changing while its anchors were found): then the caller reads it with OFFSET.
 */
export async function anchoredPageIds(
  db: Db,
  list: AnchoredList,
  limit: number,
  offset: number,
): Promise<number[] | null> {
  const k = Math.floor(offset / PAGE_ANCHORS.every);
  if (k === 0) return null;
  const compiled = list.ids.compile();
  const values = JSON.stringify(compiled.parameters, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
  const key = `${list.table}|${PAGE_ANCHORS.every}|${compiled.sql}|${values}`;
  const page = { limit, skip: offset - k * PAGE_ANCHORS.every };
  let anchors = kept.get(key);
  if (anchors && anchors.ids.length >= k) {
    const rows = await list.ids
      .where(after(list, anchors.ids[k - 1]))
      .where(tokenIs(list.table, anchors.token))
      .limit(page.limit)
      .offset(page.skip)
      .execute();
    if (rows.length > 0) {
      remember(key, anchors);
      pageAnchorStats.pages++;
      return rows.map((r) => Number(r.id));
    }
    // The table changed (or the list shrank past the page): the walk starts from the first entry.
    kept.delete(key);
    anchors = undefined;
  }
  const walked = await findAnchors(db, list, key, k, page, anchors);
  if (!walked) return null;
  remember(key, walked.anchors);
  // The list ends before the page (rows deleted since the total was read): OFFSET says so.
  if (walked.anchors.ids.length < k || walked.page.length === 0) return null;
  pageAnchorStats.pages++;
  return walked.page;
}

function remember(key: string, anchors: Anchors): void {
  kept.delete(key);
  kept.set(key, anchors);
  while (kept.size > PAGE_ANCHORS.lists) kept.delete(kept.keys().next().value!);
}

/** The table's change token equals `token` (read in the statement's own snapshot). */
function tokenIs(table: string, token: string): Expression<SqlBool> {
  return sql<SqlBool>`(select token from change_tokens where table_name = ${table}) = ${token}`;
}

/**
 * Entries after the anchor `anchor` (an id, or an expression giving one) in the list's order:
 * a row comparison the sort's index seeks to, with the anchor's keys read by its id.
 */
function after(list: AnchoredList, anchor: number | Expression<unknown>): Expression<SqlBool> {
  const table = sql.table(list.table);
  const value = typeof anchor === 'number' ? sql`${anchor}` : anchor;
  const keys = list.columns.map((c) =>
    c === 'id' ? value : sql`(select ${sql.ref(`k.${c}`)} from ${table} as k where k.id = ${value})`,
  );
  const columns = list.columns.map((c) => sql.ref(`t.${c}`));
  return sql<SqlBool>`(${sql.join(columns)}) ${sql.raw(list.dir === 'asc' ? '>' : '<')} (${sql.join(keys)})`;
}

/**
 * Walks the list once up to anchor `k` (from `from`'s last anchor when given) and returns the
 * anchors with the token they hold for, and the page `page.skip` entries after anchor `k`, all
 * read in one statement (one snapshot). Anchors continued from `from` under another token are
 * worthless: then the walk starts over from the first entry. Null when a sort column may be
 * null (a row comparison would skip those rows) or no index gives the list's order.
 */
async function findAnchors(
  db: Db,
  list: AnchoredList,
  key: string,
  k: number,
  page: { limit: number; skip: number },
  from?: Anchors,
): Promise<{ anchors: Anchors; page: number[] } | null> {
  const checked = walkable.get(key);
  const known = checked !== undefined && Date.now() - checked < PAGE_ANCHORS.walkableMs;
  if (!known && !(await sortColumnsNotNull(db, list))) return null;
  const step = (q: RowQuery) => q.offset(PAGE_ANCHORS.every - 1).limit(1);
  const start = from?.ids.length ? from : undefined;
  const first = start ? step(list.ids.where(after(list, start.ids[start.ids.length - 1]))) : step(list.ids);
  const next = step(list.ids.where(after(list, sql.ref('a.id'))));
  const rest = list.ids
    .where(after(list, sql.ref('a.id')))
    .limit(page.limit)
    .offset(page.skip);
  const walk = sql<{ n: number; id: number | null; token: string | null; page: unknown[] | null }>`
    with recursive a(n, id) as (
      select cast(${(start?.ids.length ?? 0) + 1} as integer), (${first})
      union all
      select a.n + 1, (${next}) from a where a.n < ${k} and a.id is not null
    )
    select a.n, a.id, (select token from change_tokens where table_name = ${list.table}) as token,
      case when a.n = ${k} then array(${rest}) end as page
    from a`;
  // Each step must continue along an index: were the list sorted (no index gives its order
  // under its conditions), every step would sort what is left of the list again.
  if (!known) {
    const plan = await sql<{ 'QUERY PLAN': unknown }>`explain (format json) ${walk}`.execute(dynamic(db));
    if (sorts(plan.rows[0]?.['QUERY PLAN'])) return null;
    walkable.delete(key);
    walkable.set(key, Date.now());
    while (walkable.size > PAGE_ANCHORS.lists) walkable.delete(walkable.keys().next().value!);
  }
  const { rows } = await walk.execute(dynamic(db));
  pageAnchorStats.walks++;
  const token = rows[0]?.token;
  if (!token) return null;
  if (start && token !== start.token) return findAnchors(db, list, key, k, page);
  const found = rows
    .filter((r) => r.id !== null)
    .sort((a, b) => a.n - b.n)
    .map((r) => Number(r.id));
  const last = rows.find((r) => r.n === k && r.id !== null);
  return { anchors: { token, ids: [...(start?.ids ?? []), ...found] }, page: (last?.page ?? []).map(Number) };
}

/** Whether an EXPLAIN (format json) holds a sort anywhere. */
function sorts(plan: unknown): boolean {
  if (Array.isArray(plan)) return plan.some(sorts);
  if (!plan || typeof plan !== 'object') return false;
  const node = plan as Record<string, unknown>;
  if (typeof node['Node Type'] === 'string' && /Sort/.test(node['Node Type'])) return true;
  return Object.values(node).some((v) => typeof v === 'object' && sorts(v));
}

/** Whether the catalog says no sort column of the list's table holds nulls. */
async function sortColumnsNotNull(db: Db, list: AnchoredList): Promise<boolean> {
  const columns = [...new Set(list.columns.map(snakeCase))];
  const { rows } = await sql<{ notNull: number }>`
    select count(*) as not_null from pg_attribute
    where attrelid = to_regclass(${list.table}) and attname in (${sql.join(columns)}) and attnotnull and not attisdropped`.execute(
    dynamic(db),
  );
  return Number(rows[0]?.notNull ?? 0) === columns.length;
}
