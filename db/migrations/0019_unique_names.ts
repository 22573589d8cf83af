// Names the services keep unique are unique in the database too, compared as the services
// compare them (app/platform/lib/names.ts nameKey: NFKC-normalised, trimmed, lower case; the names are
// stored NFKC-normalised and trimmed, so the index only adds the lower case), so that two
// requests at once can never both store one: companies, departments, expense categories (per
// company), API integration sources, and users' usernames and e-mail addresses.
// - PostgreSQL: lower() under the ICU root collation, which lower-cases as JavaScript does
//   (full Unicode mappings, final sigma), whatever the database's own locale; a server built
//   without ICU gets the database locale's lower() and a warning.
// - SQLite: lower(), which folds ASCII letters only. SQLite runs one write transaction at a time
//   and the services check the full rule inside it, so there is no race to close there.
// An existing installation may already hold such duplicates (two requests at once, or a restore):
// the oldest row of each group keeps its name, each later one is renamed "Name (2)", "Name (3)"…
// (an e-mail address "local+2@domain"), in id order, with an audit entry and a new data version
// saying why, and a line on the console. Typed against Kysely<any>: frozen in time.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DialectHelpers } from '../dialect.ts';

interface UniqueName {
  table: string;
  /** snake_case column holding the name. */
  column: string;
  /** Rows compared within the same value of this column (a category's company). */
  scope?: string;
  index: string;
  kind: 'name' | 'email';
}

export const UNIQUE_NAMES: readonly UniqueName[] = [
  { table: 'companies', column: 'name', index: 'companies_name_key_uq', kind: 'name' },
  { table: 'departments', column: 'name', index: 'departments_name_key_uq', kind: 'name' },
  {
    table: 'expense_categories',
    column: 'name',
    scope: 'company_id',
    index: 'expense_categories_company_name_key_uq',
    kind: 'name',
  },
  { table: 'api_integration_sources', column: 'name', index: 'api_integration_sources_name_key_uq', kind: 'name' },
  { table: 'users', column: 'username', index: 'users_username_key_uq', kind: 'name' },
  { table: 'users', column: 'email', index: 'users_email_key_uq', kind: 'email' },
];

const MAX_LENGTH = 255;
/** Never copied into the audit trail (as app/platform/audit.server.ts redacts them). */
const SECRET_FIELDS = new Set(['passwordHash', 'password', 'tokenHash', 'credentialValue', 'encryptedValue']);
const REASON = 'Renamed when names became unique ignoring case: another row already had this name in another case';

type Key = (target: RawBuilder<unknown>) => RawBuilder<string>;

/** The index's key of a name: SQL over a column or a bound value. */
async function keyExpression(db: Kysely<any>, d: DialectHelpers): Promise<Key> {
  if (d.dialect === 'sqlite') return (target) => sql<string>`lower(${target})`;
  const icu = await sql<{ found: number }>`select 1 as found from pg_collation where collname = 'und-x-icu'`.execute(
    db,
  );
  if (icu.rows.length) return (target) => sql<string>`lower((${target})::text collate "und-x-icu")`;
  console.warn(
    '[migrate] this PostgreSQL has no ICU collation: unique names compare lower case by the database locale',
  );
  return (target) => sql<string>`lower((${target})::text)`;
}

/** The nameKey of app/platform/lib/names.ts as it stands today (frozen here). */
const serviceKey = (value: string) => value.normalize('NFKC').trim().toLowerCase();

/** The n-th spelling of a taken name: "Name (2)", or "local+2@domain" for an e-mail address; at most 255 characters. */
export function renamed(value: string, n: number, kind: UniqueName['kind']): string {
  if (kind === 'email') {
    const at = value.lastIndexOf('@');
    const [local, domain] = at > 0 ? [value.slice(0, at), value.slice(at)] : [value, ''];
    const suffix = `+${n}`;
    return `${local.slice(0, MAX_LENGTH - domain.length - suffix.length)}${suffix}${domain}`;
  }
  const suffix = ` (${n})`;
  return `${value.slice(0, MAX_LENGTH - suffix.length).trimEnd()}${suffix}`;
}

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  const key = await keyExpression(db, d);
  for (const rule of UNIQUE_NAMES) {
    await renameDuplicates(db, d, rule, key);
    const columns = [...(rule.scope ? [sql.ref(rule.scope)] : []), key(sql.ref(rule.column))];
    await sql`create unique index ${sql.id(rule.index)} on ${sql.table(rule.table)} (${sql.join(columns)})`.execute(db);
  }
}

/**
 * Keeps the first row (by id) of each group of names the index would refuse (same database key)
 * or the services would (same nameKey), and renames each later one to the first spelling free
 * under both, among every name the table keeps.
 */
async function renameDuplicates(db: Kysely<any>, d: DialectHelpers, rule: UniqueName, key: Key): Promise<void> {
  const scope = rule.scope ? sql.ref(rule.scope) : sql.lit('');
  const { rows } = await sql<{ id: number; scope: unknown; value: string; k: string }>`
    select id, ${scope} as scope, ${sql.ref(rule.column)} as value, ${key(sql.ref(rule.column))} as k
    from ${sql.table(rule.table)} order by id`.execute(db);
  const taken = new Set<string>();
  const keysOf = (scopeValue: unknown, databaseKey: string, value: string) => [
    `db ${String(scopeValue)} ${databaseKey}`,
    `app ${String(scopeValue)} ${serviceKey(value)}`,
  ];
  const later: typeof rows = [];
  for (const row of rows) {
    const keys = keysOf(row.scope, row.k, row.value);
    if (keys.some((k) => taken.has(k))) later.push(row);
    else for (const k of keys) taken.add(k);
  }
  for (const row of later) {
    for (let n = 2; ; n++) {
      const candidate = renamed(row.value, n, rule.kind);
      const {
        rows: [found],
      } = await sql<{ k: string }>`select ${key(sql`${candidate}`)} as k`.execute(db);
      const keys = keysOf(row.scope, found.k, candidate);
      if (keys.some((k) => taken.has(k))) continue;
      for (const k of keys) taken.add(k);
      await renameRow(db, d, rule, row.id, candidate);
      console.log(
        `[migrate] ${rule.table} ${row.id}: ${rule.column} ${JSON.stringify(row.value)} is taken in another case; renamed ${JSON.stringify(candidate)}`,
      );
      break;
    }
  }
}

/** The rename, with its audit entry and data version (as app/platform/audit.server.ts writes them). */
async function renameRow(
  db: Kysely<any>,
  d: DialectHelpers,
  rule: UniqueName,
  id: number,
  value: string,
): Promise<void> {
  const camel = rule.column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
  const before = await db.selectFrom(rule.table).selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const now = new Date().toISOString();
  await db
    .updateTable(rule.table)
    .set({ [rule.column]: value, updated_at: now })
    .where('id', '=', id)
    .execute();
  const after = await db.selectFrom(rule.table).selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const redact = (row: Record<string, unknown>) =>
    JSON.stringify(Object.fromEntries(Object.entries(row).filter(([k]) => !SECRET_FIELDS.has(k))));
  const companyId = rule.table === 'companies' ? id : ((after.companyId as number | null | undefined) ?? null);
  const tableName = rule.table;
  await db
    .insertInto('audit_logs')
    .values({
      table_name: tableName,
      record_id: id,
      action: 'update',
      old_data: redact(before),
      new_data: redact(after),
      changes: JSON.stringify({ [camel]: { old: before[camel], new: after[camel] } }),
      user_id: null,
      actor_label: 'migration',
      timestamp: now,
      reason: REASON,
      company_id: companyId,
    })
    .execute();
  const last = await db
    .selectFrom('data_versions')
    .select((eb) => eb.fn.max('version').as('version'))
    .where('table_name', '=', tableName)
    .where('record_id', '=', id)
    .executeTakeFirst();
  const yes = d.dialect === 'postgres' ? true : 1;
  const no = d.dialect === 'postgres' ? false : 0;
  await db
    .updateTable('data_versions')
    .set({ is_active: no })
    .where('table_name', '=', tableName)
    .where('record_id', '=', id)
    .execute();
  await db
    .insertInto('data_versions')
    .values({
      table_name: tableName,
      record_id: id,
      version: Number(last?.version ?? 0) + 1,
      data: redact(after),
      created_by: null,
      created_at: now,
      action: 'update',
      comment: REASON,
      is_active: yes,
      company_id: companyId,
    })
    .execute();
}
