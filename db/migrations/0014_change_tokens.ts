// PostgreSQL: a change token per big table, replaced by every statement that writes
// the table, in the writing transaction. A snapshot that reads the same token as another sees
// the same rows, whichever process wrote them (app, worker, CLI): what lets a list keep where
// its deep pages start (app/platform/resources/page-anchors.server.ts) until the table changes.
// SQLite needs none (its deep pages are fast from the index) and gets nothing.
import { sql, type Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.ts';
import { COUNTED_TABLES } from './0003_row_counts.ts';

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  if (d.dialect !== 'postgres') return;
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  // Qualified with this schema: the function runs with whatever search_path the caller has.
  const schema = sql.id(rows[0].schema).compile(db).sql;
  await sql
    .raw(
      `create table change_tokens (table_name varchar(64) primary key, token uuid not null default gen_random_uuid())`,
    )
    .execute(db);
  // A random token rather than a counter: the same number in another schema or database
  // (tests, bench copies) must never pass for this one's.
  await sql
    .raw(
      `
    create function ${schema}.change_tokens_bump() returns trigger language plpgsql as $$
    begin
      update ${schema}.change_tokens set token = gen_random_uuid() where table_name = tg_table_name;
      return null;
    end $$`,
    )
    .execute(db);
  for (const table of COUNTED_TABLES) {
    await sql`insert into change_tokens (table_name) values (${table})`.execute(db);
    // Before the statement: the token's row lock comes before the row_counts rows the row
    // triggers lock, in the same order for every writer of the table (no deadlock between them).
    await sql
      .raw(
        `create trigger ${table}_change_token before insert or update or delete or truncate on ${table}
      for each statement execute function ${schema}.change_tokens_bump()`,
      )
      .execute(db);
  }
}
