// Every user has a settings row from the moment the user exists. Whoever creates one user (the
// user management service, the first owner at start) inserts its row in the same transaction;
// users that arrive in bulk (a restore of an older backup, the data generator, bench accounts)
// and those made before the rule (migration 0041) get theirs in one statement. Every column but
// user_id takes its default, and the column defaults are the settings a user without a row was
// always shown. The row is part of the user's creation, whose audit entry records it: it gets no
// entry of its own (one write, one entry); its later changes are audited as usual.
import { sql, type Kysely } from 'kysely';

/** Inserts one user's settings row with the defaults (in the caller's transaction, if any). */
export async function createUserSettingsRow(db: Kysely<any>, userId: number): Promise<void> {
  await db.insertInto('user_settings').values({ user_id: userId }).execute();
}

/** Creates the settings row, with the defaults, of every user who has none; returns how many. */
export async function createMissingUserSettings(db: Kysely<any>): Promise<number> {
  const result = await sql`
    insert into user_settings (user_id)
    select u.id from users u
    where not exists (select 1 from user_settings s where s.user_id = u.id)`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
