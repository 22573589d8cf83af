// PostgreSQL: the INSERT side of a counting row trigger as one statement trigger. The statement's
// new rows (a transition table named `inserted`) are grouped and each counter row is written once
// per statement instead of once per row: a batch of 500 rows into one company writes its count
// once. Repeated updates of the same counter row in one transaction leave a chain of row versions
// that every later update walks, so a long import slowed with every row. The row trigger stays
// for deletes (and the update triggers for moves).
import { sql, type Kysely } from 'kysely';

export interface StatementInsert {
  table: string;
  /** The row trigger that fires on insert or delete, kept for deletes. */
  trigger: string;
  /** Its function (schema-qualified). */
  rowFunction: string;
  /** The statement function to create (schema-qualified). */
  statementFunction: string;
  /** What the statement trigger runs: SQL reading `inserted`. */
  body: string;
}

export async function insertsByStatement(db: Kysely<any>, schema: string, s: StatementInsert): Promise<void> {
  await sql.raw(`drop trigger ${s.trigger} on ${schema}.${s.table}`).execute(db);
  await sql
    .raw(`create trigger ${s.trigger} after delete on ${s.table} for each row execute function ${s.rowFunction}()`)
    .execute(db);
  await sql
    .raw(
      `create or replace function ${s.statementFunction}() returns trigger language plpgsql as $$
      begin
        ${s.body};
        return null;
      end $$`,
    )
    .execute(db);
  // Named after the row trigger: triggers of a kind fire in name order, so a table's statement
  // triggers take their counter rows in the order its row triggers did.
  await sql
    .raw(
      `create trigger ${s.trigger}_inserted after insert on ${s.table} referencing new table as inserted
      for each statement execute function ${s.statementFunction}()`,
    )
    .execute(db);
}
