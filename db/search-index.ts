// Substring search over the big tables without reading them whole (issue 20). A list's `q` is a
// case-insensitive substring of any of its searched columns; at a million rows a LIKE over each
// column scans the table (0.3–0.7 s). So each big table keeps a trigram index of those columns:
// - SQLite: an FTS5 table with the trigram tokenizer over the table's own rows (external
//   content: it stores the index, not a copy), kept in step by triggers. A phrase query is a
//   substring match of one column, case folded.
// - PostgreSQL: a search table beside it (same name as SQLite's FTS5 table), one row per row:
//   its id, the keys a list sorts and scopes by, and the text columns joined by a newline and
//   lowercased once, when written (a row trigger), under a pg_trgm GIN index. `text LIKE
//   lower(q)` is what ILIKE does inside, without lowercasing every match again (~2 µs a row,
//   most of a search's cost), and a search with no other condition reads only this narrow
//   table. Exact as long as the search has no newline (such searches use the columns one by
//   one). Dates are matched as a list of days.
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
}

/** Tables with a search index, by table name. Changing one needs a migration. */
export const SEARCH_INDEXES: Readonly<Record<string, SearchIndex>> = {
  actual_expenses: {
    table: 'actual_expenses',
    columns: ['description', 'vendor', 'receipt_number', 'expense_date'],
    dateColumns: ['expense_date'],
    keys: ['company_id', 'expense_date', 'amount_cents'],
  },
};

/** Trigrams: a shorter search cannot use the index. */
export const SEARCH_INDEX_MIN_CHARACTERS = 3;

/** The table of a table's index: SQLite's FTS5 table, PostgreSQL's search table. */
export function ftsTable(index: SearchIndex): string {
  return `${index.table}_search`;
}

/** The index's table (and SQLite's shadow tables) are derived data, never backed up. */
export function isSearchIndexTable(name: string): boolean {
  return Object.values(SEARCH_INDEXES).some((index) => name === ftsTable(index) || name.startsWith(`${ftsTable(index)}_`));
}

/**
 * PostgreSQL: the search table's text, from the row `row` (an alias, or NEW in the trigger).
 * Date columns stay out: turning each row's date into text cost ~1.8 µs a row, ten times the
 * rest; a search finds them as a list of days (daysContaining).
 */
function postgresText(index: SearchIndex, row: string): string {
  return `lower(${index.columns.filter((c) => !index.dateColumns?.includes(c)).map((c) => `coalesce(${row}.${c}, '')`).join(` || E'\\n' || `)})`;
}

/** PostgreSQL: the search table's columns, in order. */
function postgresSearchColumns(index: SearchIndex): string[] {
  return ['id', ...(index.keys ?? []), 'text'];
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

/** PostgreSQL: the search table's rows (as `alias`) that contain `text`, through its GIN index. */
export function postgresTextMatch(alias: string, text: string): Expression<SqlBool> {
  return sql<SqlBool>`${sql.ref(`${alias}.text`)} like lower(${containsPattern(text)}) escape '\\'`;
}

/**
 * PostgreSQL: the rows of `alias` (the indexed table) whose text columns contain `text`, as a
 * list of ids from the search table (dates: daysContaining). The index comes from searchIndexFor.
 */
export function postgresIndexMatch(index: SearchIndex, alias: string, text: string): Expression<SqlBool> {
  const search = sql.table(ftsTable(index));
  return sql<SqlBool>`${sql.ref(`${alias}.id`)} = any(array(select s.id from ${search} as s where ${postgresTextMatch('s', text)}))`;
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
  await sql.raw(`create virtual table ${fts} using fts5(${list}, content='${table}', content_rowid='id', tokenize='trigram')`).execute(db);
  await sql.raw(`create trigger ${fts}_insert after insert on ${table} begin
      insert into ${fts} (rowid, ${list}) values (new.id, ${values('new')}); end`).execute(db);
  await sql.raw(`create trigger ${fts}_delete after delete on ${table} begin
      insert into ${fts} (${fts}, rowid, ${list}) values ('delete', old.id, ${values('old')}); end`).execute(db);
  await sql.raw(`create trigger ${fts}_update after update of ${list} on ${table} begin
      insert into ${fts} (${fts}, rowid, ${list}) values ('delete', old.id, ${values('old')});
      insert into ${fts} (rowid, ${list}) values (new.id, ${values('new')}); end`).execute(db);
  await rebuildSearchIndex(db, dialect, table);
}

/**
 * PostgreSQL: the search table, filled from the rows, its GIN index, and the row trigger that
 * keeps it in step (in the writer's transaction). No foreign key: a restore and `finhub db
 * generate` load the table with its triggers off and then rebuild this one whole.
 */
async function createPostgresSearchTable(db: Kysely<any>, index: SearchIndex): Promise<void> {
  const { table } = index;
  const search = ftsTable(index);
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  // Qualified with this schema: the function runs with whatever search_path the writer has.
  const schema = sql.id(rows[0].schema).compile(db).sql;
  const keys = index.keys ?? [];
  await sql.raw(`create table ${search} as select ${['id', ...keys].map((c) => `t.${c}`).join(', ')}, ${postgresText(index, 't')} as text from ${table} as t with no data`).execute(db);
  await sql.raw(`alter table ${search} add primary key (id), alter column text set not null`).execute(db);
  const columns = postgresSearchColumns(index);
  const assignments = columns.slice(1).map((c) => `${c} = excluded.${c}`).join(', ');
  await sql.raw(`
    create function ${schema}.${search}_sync() returns trigger language plpgsql as $$
    begin
      if tg_op <> 'INSERT' then
        delete from ${schema}.${search} where id = old.id and (tg_op = 'DELETE' or new.id <> old.id);
      end if;
      if tg_op <> 'DELETE' then
        insert into ${schema}.${search} (${columns.join(', ')})
          values (${['new.id', ...keys.map((k) => `new.${k}`), postgresText(index, 'new')].join(', ')})
          on conflict (id) do update set ${assignments};
      end if;
      return null;
    end $$`).execute(db);
  await sql.raw(`create trigger ${search}_sync after insert or update or delete on ${table} for each row execute function ${schema}.${search}_sync()`).execute(db);
  await rebuildSearchIndex(db, 'postgres', table);
}

/**
 * PostgreSQL: the schema of the pg_trgm extension, installed in public (or, without public, this
 * schema) when missing. An extension exists once per database, whatever schema asks for it.
 */
async function trigramSchema(db: Kysely<any>): Promise<string> {
  const installed = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
  if (installed.rows[0]) return installed.rows[0].schema;
  const { rows } = await sql<{ schema: string }>`select coalesce((select nspname from pg_namespace where nspname = 'public'), current_schema()) as schema`.execute(db);
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
  for (const statement of postgresRebuildStatements(index, sql.id(schema).compile(db).sql)) await sql.raw(statement).execute(db);
}

/**
 * PostgreSQL: the statements that fill the search table again; its GIN index is built once
 * after the rows, not entry by entry (`trigrams`: the pg_trgm extension's schema, quoted).
 */
export function postgresRebuildStatements(index: SearchIndex, trigrams: string): string[] {
  const search = ftsTable(index);
  const keys = index.keys ?? [];
  return [
    `drop index if exists ${search}_text_idx`,
    `truncate ${search}`,
    `insert into ${search} (${postgresSearchColumns(index).join(', ')}) select ${['id', ...keys].map((c) => `t.${c}`).join(', ')}, ${postgresText(index, 't')} from ${index.table} as t`,
    `create index ${search}_text_idx on ${search} using gin (text ${trigrams}.gin_trgm_ops)`,
    `analyze ${search}`,
  ];
}

/** SQLite: the statement that rebuilds a table's index, or null when it has none. */
export function sqliteRebuildStatement(table: string): string | null {
  const index = SEARCH_INDEXES[table];
  if (!index) return null;
  const fts = ftsTable(index);
  return `insert into ${fts} (${fts}) values ('rebuild')`;
}
