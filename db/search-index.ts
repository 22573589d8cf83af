// Substring search over the big tables without reading them whole. A list's `q` is a
// case-insensitive substring of any of its searched columns; at a million rows a LIKE over each
// column scans the table. So each big table keeps a trigram index of those columns:
// - SQLite: an FTS5 table with the trigram tokenizer over the table's own rows (external
//   content: it stores the index, not a copy), kept in step by triggers. A phrase query is a
//   substring match of one column, case folded.
// - PostgreSQL: a search table beside it (same name as SQLite's FTS5 table), one row per row,
//   kept in step by a row trigger: its id, the keys a list scopes and sorts by, the keys of the
//   reference rows a search matches by name, and the searched text lowercased once, when
//   written. Columns whose values repeat (a vendor, a description) are kept once in a
//   dictionary (`…_search_terms`, under a pg_trgm GIN index) and the row holds their ids; the
//   rest (a receipt number) is the row's own `text`, under a pg_trgm GIN index. A search finds
//   the few dictionary values that match, then their rows through a btree index that holds the
//   sort keys (no visit of each match's row: that visit was most of a search's
//   cost), and `text LIKE lower(q)` is what ILIKE does inside, without lowercasing every
//   match again. Exact as long as the search has no newline (such searches use the columns
//   one by one). Dates are matched as a list of days.
// Both need three characters or more; shorter searches scan as before.
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import { containsPattern, type DialectName } from './dialect.ts';

export interface SearchIndex {
  /** The indexed table (snake_case). */
  table: string;
  /** Its searched columns (snake_case); dates are matched as their YYYY-MM-DD text. */
  columns: readonly string[];
  dateColumns?: readonly string[];
  /**
   * PostgreSQL: the columns the search table keeps beside the text (snake_case): a search
   * scoped, sorted and paged by these alone never reads the table itself.
   */
  keys?: readonly string[];
  /**
   * PostgreSQL: searched columns whose values repeat (snake_case), kept once in the search
   * table's dictionary; the search table holds each row's value ids (`<column>_term`).
   */
  termColumns?: readonly string[];
  /**
   * PostgreSQL: the keys of the reference rows a search matches by name (snake_case: a
   * department, a category), kept in the search table with an index each, so that such a
   * search is answered there too.
   */
  nameKeys?: readonly string[];
}

/** Tables with a search index, by table name. Changing one needs a migration. */
export const SEARCH_INDEXES: Readonly<Record<string, SearchIndex>> = {
  actual_expenses: {
    table: 'actual_expenses',
    columns: ['description', 'vendor', 'receipt_number', 'expense_date'],
    dateColumns: ['expense_date'],
    keys: ['company_id', 'expense_date', 'amount_cents'],
    termColumns: ['description', 'vendor'],
    nameKeys: ['department_id', 'category_id'],
  },
};

/** Trigrams: a shorter search cannot use the index. */
export const SEARCH_INDEX_MIN_CHARACTERS = 3;

/** The table of a table's index: SQLite's FTS5 table, PostgreSQL's search table. */
export function ftsTable(index: SearchIndex): string {
  return `${index.table}_search`;
}

/** PostgreSQL: the search table's dictionary of repeated values (one row per column and value). */
export function termsTable(index: SearchIndex): string {
  return `${ftsTable(index)}_terms`;
}

/** PostgreSQL: the search table's column of a term column's value ids. */
export function termIdColumn(column: string): string {
  return `${column}_term`;
}

/** The index's tables (and SQLite's shadow tables) are derived data, never backed up. */
export function isSearchIndexTable(name: string): boolean {
  return Object.values(SEARCH_INDEXES).some(
    (index) => name === ftsTable(index) || name.startsWith(`${ftsTable(index)}_`),
  );
}

/**
 * PostgreSQL: the searched columns kept as the search table's own `text`: neither a date nor a
 * term column. Date columns stay out: turning each row's date into text cost far more than
 * the rest; a search finds them as a list of days (daysContaining).
 */
function textColumns(index: SearchIndex): string[] {
  return index.columns.filter((c) => !index.dateColumns?.includes(c) && !index.termColumns?.includes(c));
}

/** PostgreSQL: the search table's text, from the row `row` (an alias, or NEW in the trigger). */
function postgresText(index: SearchIndex, row: string): string {
  const columns = textColumns(index);
  return columns.length ? `lower(${columns.map((c) => `coalesce(${row}.${c}, '')`).join(` || E'\\n' || `)})` : `''`;
}

/** PostgreSQL: the search table's columns, in order. */
function postgresSearchColumns(index: SearchIndex): string[] {
  return [
    'id',
    ...(index.keys ?? []),
    ...(index.nameKeys ?? []),
    ...(index.termColumns ?? []).map(termIdColumn),
    'text',
  ];
}

/**
 * PostgreSQL: the search table's columns a search looks rows up by, each with a btree index
 * that also holds the id, the keys and the other such columns: an index-only scan gives a
 * match's sort keys, and leaves out the rows an earlier lookup of the same search gave.
 */
function postgresLookupColumns(index: SearchIndex): string[] {
  return [...(index.termColumns ?? []).map(termIdColumn), ...(index.nameKeys ?? []), ...(index.dateColumns ?? [])];
}

/**
 * PostgreSQL: the indexes of the search table and its dictionary, built after their rows
 * (`trigrams`: the pg_trgm extension's schema, quoted), and their names.
 */
function postgresIndexes(index: SearchIndex, trigrams: string): { name: string; create: string }[] {
  const search = ftsTable(index);
  const terms = termsTable(index);
  const indexes = [
    {
      name: `${search}_text_idx`,
      create: `create index ${search}_text_idx on ${search} using gin (text ${trigrams}.gin_trgm_ops)`,
    },
  ];
  for (const column of postgresLookupColumns(index)) {
    const held = [...new Set(['id', ...(index.keys ?? []), ...postgresLookupColumns(index)])].filter(
      (c) => c !== column,
    );
    indexes.push({
      name: `${search}_${column}_idx`,
      create: `create index ${search}_${column}_idx on ${search} (${column}) include (${held.join(', ')})`,
    });
  }
  if (index.termColumns?.length) {
    indexes.push({
      name: `${terms}_value_idx`,
      create: `create index ${terms}_value_idx on ${terms} using gin (value ${trigrams}.gin_trgm_ops)`,
    });
  }
  return indexes;
}

/**
 * The days from `first` to `last` (YYYY-MM-DD) whose text contains `text`: how a search matches
 * a date column on PostgreSQL, as an index lookup of a few days instead of text per row.
 */
export function daysContaining(first: string, last: string, text: string): string[] {
  const term = text.toLowerCase();
  if (!/^[0-9-]+$/.test(term)) return [];
  const days: string[] = [];
  const end = Date.parse(`${last}T00:00:00Z`);
  for (let t = Date.parse(`${first}T00:00:00Z`); t <= end; t += 86_400_000) {
    const day = new Date(t).toISOString().slice(0, 10);
    if (day.includes(term)) days.push(day);
  }
  return days;
}

/** Whether a search of `text` can use an index. */
export function usesSearchIndex(text: string): boolean {
  return [...text].length >= SEARCH_INDEX_MIN_CHARACTERS && !/[\n\r]/.test(text);
}

/** The index a search of `text` over `table` goes through, or null (no index, or too short). */
export function searchIndexFor(table: string, text: string | null | undefined): SearchIndex | null {
  const index = SEARCH_INDEXES[table];
  return index && text && usesSearchIndex(text) ? index : null;
}

/** PostgreSQL: `expression` (lowercased text) contains `text`: a plain LIKE of the lowered search. */
function lowerContains(expression: Expression<unknown>, text: string): Expression<SqlBool> {
  return sql<SqlBool>`${expression} like lower(${containsPattern(text)}) escape '\\'`;
}

/**
 * PostgreSQL, what a search of `text` matches in the search table's dictionary, looked up first:
 * per term column the ids of the values that contain it. Each is then one index lookup of the
 * search table (postgresTermBranches).
 */
export type TermMatches = Map<string, number[]>;

export async function postgresTermMatches(db: Kysely<any>, index: SearchIndex, text: string): Promise<TermMatches> {
  const termColumns = index.termColumns ?? [];
  if (termColumns.length === 0) return new Map();
  const { rows } = await sql<{
    field: string;
    id: number;
  }>`select column_name as field, id from ${sql.table(termsTable(index))} where ${lowerContains(sql.ref('value'), text)}`.execute(
    db,
  );
  return new Map(termColumns.map((c) => [c, rows.filter((r) => r.field === c).map((r) => Number(r.id))]));
}

/**
 * PostgreSQL: the conditions on the search table (as `alias`) of the rows whose term columns
 * contain `text`, one per index lookup: from the looked-up matches (none for a column whose
 * values match nothing), or, without them, with the dictionary read in the statement.
 */
export function postgresTermBranches(
  index: SearchIndex,
  alias: string,
  text: string,
  matches?: TermMatches,
): Expression<SqlBool>[] {
  const branches: Expression<SqlBool>[] = [];
  for (const column of index.termColumns ?? []) {
    const ref = sql.ref(`${alias}.${termIdColumn(column)}`);
    if (!matches) {
      const ids = sql`select id from ${sql.table(termsTable(index))} where column_name = ${column} and ${lowerContains(sql.ref('value'), text)}`;
      branches.push(sql<SqlBool>`${ref} = any(array(${ids}))`);
      continue;
    }
    const ids = matches.get(column) ?? [];
    if (ids.length) branches.push(sql<SqlBool>`${ref} = any(cast(${`{${ids.join(',')}}`} as integer[]))`);
  }
  return branches;
}

/** PostgreSQL: the search table's rows (as `alias`) whose own text contains `text`, or null when it keeps none. */
export function postgresTextBranch(index: SearchIndex, alias: string, text: string): Expression<SqlBool> | null {
  return textColumns(index).length ? lowerContains(sql.ref(`${alias}.text`), text) : null;
}

/**
 * PostgreSQL: the rows of `alias` (the indexed table) whose own text or term columns contain
 * `text`, as a list of ids from the search table (dates and names: the caller's conditions).
 */
export function postgresIndexMatch(
  index: SearchIndex,
  alias: string,
  text: string,
  matches?: TermMatches,
): Expression<SqlBool> {
  const own = postgresTextBranch(index, 's', text);
  const branches = [...postgresTermBranches(index, 's', text, matches), ...(own ? [own] : [])];
  if (branches.length === 0) return sql<SqlBool>`false`;
  const search = sql.table(ftsTable(index));
  return sql<SqlBool>`${sql.ref(`${alias}.id`)} = any(array(select s.id from ${search} as s where ${sql.join(branches, sql` or `)}))`;
}

/** SQLite: the ids of the rows that contain `text` in an indexed column (a phrase of the FTS5 table). */
export function searchIndexIds(index: SearchIndex, text: string): Expression<unknown> {
  const fts = sql.table(ftsTable(index));
  const phrase = `"${text.replaceAll('"', '""')}"`;
  return sql`select rowid as id from ${fts} where ${fts} match ${phrase}`;
}

/** Creates a table's index and what keeps it in step (a migration's step). */
export async function createSearchIndex(db: Kysely<any>, dialect: DialectName, index: SearchIndex): Promise<void> {
  const { table, columns } = index;
  if (dialect === 'postgres') {
    await createPostgresSearchTable(db, index);
    return;
  }
  const fts = ftsTable(index);
  const list = columns.join(', ');
  const values = (row: string) => columns.map((c) => `${row}.${c}`).join(', ');
  await sql
    .raw(`create virtual table ${fts} using fts5(${list}, content='${table}', content_rowid='id', tokenize='trigram')`)
    .execute(db);
  await sql
    .raw(
      `create trigger ${fts}_insert after insert on ${table} begin
      insert into ${fts} (rowid, ${list}) values (new.id, ${values('new')}); end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger ${fts}_delete after delete on ${table} begin
      insert into ${fts} (${fts}, rowid, ${list}) values ('delete', old.id, ${values('old')}); end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger ${fts}_update after update of ${list} on ${table} begin
      insert into ${fts} (${fts}, rowid, ${list}) values ('delete', old.id, ${values('old')});
      insert into ${fts} (rowid, ${list}) values (new.id, ${values('new')}); end`,
    )
    .execute(db);
  await rebuildSearchIndex(db, dialect, table);
}

/**
 * PostgreSQL: the search table and its dictionary, filled from the rows, their indexes, and the
 * row trigger that keeps them in step (in the writer's transaction). No foreign key: a restore
 * and `finhub db generate` load the table with its triggers off and then rebuild both whole.
 * The dictionary only grows between rebuilds: a value no row holds any more matches no row.
 */
async function createPostgresSearchTable(db: Kysely<any>, index: SearchIndex): Promise<void> {
  const { table } = index;
  const search = ftsTable(index);
  const terms = termsTable(index);
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  // Qualified with this schema: the functions run with whatever search_path the writer has.
  const schema = sql.id(rows[0].schema).compile(db).sql;
  const keys = [...(index.keys ?? []), ...(index.nameKeys ?? [])];
  const termColumns = index.termColumns ?? [];
  await sql
    .raw(
      `create table ${terms} (id integer generated always as identity primary key, column_name text not null, value text not null)`,
    )
    .execute(db);
  // By a hash of the value: a btree entry holds at most ~2.7 KB, and a description may be longer.
  await sql.raw(`create unique index ${terms}_key on ${terms} (column_name, md5(value))`).execute(db);
  await sql
    .raw(
      `create table ${search} as select ${['id', ...keys].map((c) => `t.${c}`).join(', ')}, ${termColumns.map((c) => `null::integer as ${termIdColumn(c)}, `).join('')}${postgresText(index, 't')} as text from ${table} as t with no data`,
    )
    .execute(db);
  await sql.raw(`alter table ${search} add primary key (id), alter column text set not null`).execute(db);
  // A value's id in the dictionary, added when new (a concurrent writer's insert is waited for).
  await sql
    .raw(
      `
    create or replace function ${schema}.${search}_term_id(term_column text, term text) returns integer language plpgsql as $$
    declare
      found integer;
    begin
      if term is null then return null; end if;
      select d.id into found from ${schema}.${terms} as d where d.column_name = term_column and md5(d.value) = md5(term) and d.value = term;
      if found is null then
        insert into ${schema}.${terms} (column_name, value) values (term_column, term) on conflict do nothing returning id into found;
        if found is null then
          select d.id into found from ${schema}.${terms} as d where d.column_name = term_column and md5(d.value) = md5(term) and d.value = term;
        end if;
      end if;
      return found;
    end $$`,
    )
    .execute(db);
  const columns = postgresSearchColumns(index);
  const values = [
    'new.id',
    ...keys.map((k) => `new.${k}`),
    ...termColumns.map((c) => `${schema}.${search}_term_id('${c}', lower(new.${c}))`),
    postgresText(index, 'new'),
  ];
  const assignments = columns
    .slice(1)
    .map((c) => `${c} = excluded.${c}`)
    .join(', ');
  await sql
    .raw(
      `
    create or replace function ${schema}.${search}_sync() returns trigger language plpgsql as $$
    begin
      if tg_op <> 'INSERT' then
        delete from ${schema}.${search} where id = old.id and (tg_op = 'DELETE' or new.id <> old.id);
      end if;
      if tg_op <> 'DELETE' then
        insert into ${schema}.${search} (${columns.join(', ')}) values (${values.join(', ')})
          on conflict (id) do update set ${assignments};
      end if;
      return null;
    end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger ${search}_sync after insert or update or delete on ${table} for each row execute function ${schema}.${search}_sync()`,
    )
    .execute(db);
  await rebuildSearchIndex(db, 'postgres', table);
}

/** PostgreSQL: drops a table's search table, its dictionary and its trigger (migration 0016). */
export async function dropPostgresSearchTable(db: Kysely<any>, index: SearchIndex): Promise<void> {
  const search = ftsTable(index);
  await sql.raw(`drop trigger if exists ${search}_sync on ${index.table}`).execute(db);
  await sql.raw(`drop function if exists ${search}_sync()`).execute(db);
  await sql.raw(`drop function if exists ${search}_term_id(text, text)`).execute(db);
  await sql.raw(`drop table if exists ${search}`).execute(db);
  await sql.raw(`drop table if exists ${termsTable(index)}`).execute(db);
}

/**
 * PostgreSQL: the schema of the pg_trgm extension, installed in public (or, without public, this
 * schema) when missing. An extension exists once per database, whatever schema asks for it.
 */
async function trigramSchema(db: Kysely<any>): Promise<string> {
  const installed = await sql<{
    schema: string;
  }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(
    db,
  );
  if (installed.rows[0]) return installed.rows[0].schema;
  const { rows } = await sql<{
    schema: string;
  }>`select coalesce((select nspname from pg_namespace where nspname = 'public'), current_schema()) as schema`.execute(
    db,
  );
  await sql`create extension if not exists pg_trgm with schema ${sql.id(rows[0].schema)}`.execute(db);
  return rows[0].schema;
}

/**
 * Reads a table's index again from its rows, after a bulk load that ran without the table's
 * triggers (restore, `finhub db generate`).
 */
export async function rebuildSearchIndex(db: Kysely<any>, dialect: DialectName, table: string): Promise<void> {
  if (dialect === 'sqlite') {
    const statement = sqliteRebuildStatement(table);
    if (statement) await sql.raw(statement).execute(db);
    return;
  }
  const index = SEARCH_INDEXES[table];
  if (!index) return;
  const schema = await trigramSchema(db);
  for (const statement of postgresRebuildStatements(index, sql.id(schema).compile(db).sql))
    await sql.raw(statement).execute(db);
}

/**
 * PostgreSQL: the statements that fill the search table and its dictionary again; their indexes
 * are built once after the rows, not entry by entry (`trigrams`: the pg_trgm extension's
 * schema, quoted).
 */
export function postgresRebuildStatements(index: SearchIndex, trigrams: string): string[] {
  const search = ftsTable(index);
  const terms = termsTable(index);
  const keys = [...(index.keys ?? []), ...(index.nameKeys ?? [])];
  const termColumns = index.termColumns ?? [];
  const indexes = postgresIndexes(index, trigrams);
  const joins = termColumns
    .map((c, i) => ` left join ${terms} as d${i} on d${i}.column_name = '${c}' and d${i}.value = lower(t.${c})`)
    .join('');
  return [
    ...indexes.map((i) => `drop index if exists ${i.name}`),
    `truncate ${search}`,
    ...(termColumns.length ? [`truncate ${terms} restart identity`] : []),
    ...termColumns.map(
      (c) =>
        `insert into ${terms} (column_name, value) select distinct '${c}', lower(${c}) from ${index.table} where ${c} is not null`,
    ),
    `insert into ${search} (${postgresSearchColumns(index).join(', ')}) select ${['id', ...keys].map((c) => `t.${c}`).join(', ')}, ${termColumns.map((_, i) => `d${i}.id, `).join('')}${postgresText(index, 't')} from ${index.table} as t${joins}`,
    ...indexes.map((i) => i.create),
    `analyze ${search}`,
    ...(termColumns.length ? [`analyze ${terms}`] : []),
  ];
}

/** SQLite: the statement that rebuilds a table's index, or null when it has none. */
export function sqliteRebuildStatement(table: string): string | null {
  const index = SEARCH_INDEXES[table];
  if (!index) return null;
  const fts = ftsTable(index);
  return `insert into ${fts} (${fts}) values ('rebuild')`;
}
