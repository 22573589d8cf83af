// Every user has a settings row from creation on; until now a row was made only when a user first
// opened or changed their settings. Users without one get it now, with the column defaults: the
// settings they were shown all along. No audit entry: nothing anybody chose changed.
import type { Kysely } from 'kysely';
import { createMissingUserSettings } from '../user-settings-rows.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await createMissingUserSettings(db);
}
