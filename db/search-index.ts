// Substring search over the big tables without reading them whole (issue 20). A list's `q` is a
// case-insensitive substring of any of its searched columns; at a million rows a LIKE over each
// column scans the table (0.3–0.7 s). So each big table keeps a trigram index of those columns:
// - SQLite: an FTS5 table with the trigram tokenizer over the table's own rows (external
//   content: it stores the index, not a copy), kept in step by triggers. A phrase query is a
//   substring match of one column, case folded.
// - PostgreSQL: one pg_trgm GIN index over the text columns joined by a newline. ILIKE over
//   that expression matches exactly when one of the columns matches, as long as the text holds
//   no newline (such searches use the columns one by one). Dates are matched as a list of days.
// Both need three characters or more; shorter searches scan as before.
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import { containsPattern, type DialectName } from './dialect.ts';

export interface SearchIndex {
  /** The indexed table (snake_case). */
  table: string;
  /** Its searched columns (snake_case); dates are matched as their YYYY-MM-DD text. */
  columns: readonly string[];
  dateColumns?: readonly string[];
}

/** Tables with a search index, by table name. Changing one needs a migration. */
export const SEARCH_INDEXES: Readonly<Record<string, SearchIndex>> = {
  actual_expenses: { table: 'actual_expenses', columns: ['description', 'vendor', 'receipt_number', 'expense_date'], dateColumns: ['expense_date'] },
};

/** Trigrams: a shorter search cannot use the index. */
export const SEARCH_INDEX_MIN_CHARACTERS = 3;

/** SQLite: the FTS5 table of a table's index. */
export function ftsTable(index: SearchIndex): string {
  return `${index.table}_search`;
}

/** SQLite: the FTS5 table and its shadow tables are derived data, never backed up. */
export function isSearchIndexTable(name: string): boolean {
  return Object.values(SEARCH_INDEXES).some((index) => name === ftsTable(index) || name.startsWith(`${ftsTable(index)}_`));
}

/**
 * PostgreSQL: the indexed expression (the text columns); the query must spell it the same way to
 * use the index. Date columns stay out: turning each row's date into text cost ~1.8 µs a row,
 * ten times the rest of the recheck; a search finds them as a list of days (daysContaining).
 */
function postgresDocument(index: SearchIndex, alias?: string): string {
  const col = (c: string) => (alias ? `${alias}.${c}` : c);
  return `(${index.columns.filter((c) => !index.dateColumns?.includes(c)).map((c) => `coalesce(${col(c)}, '')`).join(` || E'\\n' || `)})`;
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

/**
 * PostgreSQL: the rows of `alias` (the indexed table) whose text columns contain `text`, through
 * the GIN index (dates: daysContaining). The index comes from searchIndexFor.
 */
export function postgresIndexMatch(index: SearchIndex, alias: string, text: string): Expression<SqlBool> {
  return sql<SqlBool>`${sql.raw(postgresDocument(index, alias))} ilike ${containsPattern(text)} escape '\\'`;
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
    const schema = await trigramSchema(db);
    await sql.raw(`create index ${table}_search_idx on ${table} using gin (${postgresDocument(index)} ${sql.id(schema).compile(db).sql}.gin_trgm_ops)`).execute(db);
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
 * SQLite: reads a table's index again from its rows, after a bulk load that ran without the
 * table's triggers (restore, `finhub db generate`). PostgreSQL's index is an ordinary index.
 */
export async function rebuildSearchIndex(db: Kysely<any>, dialect: DialectName, table: string): Promise<void> {
  const statement = dialect === 'sqlite' ? sqliteRebuildStatement(table) : null;
  if (statement) await sql.raw(statement).execute(db);
}

/** SQLite: the statement that rebuilds a table's index, or null when it has none. */
export function sqliteRebuildStatement(table: string): string | null {
  const index = SEARCH_INDEXES[table];
  if (!index) return null;
  const fts = ftsTable(index);
  return `insert into ${fts} (${fts}) values ('rebuild')`;
}
