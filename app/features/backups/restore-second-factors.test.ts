// Second factors and restores (docs/security.md): backups do not hold them, and an overwriting
// restore of the users keeps each account's own, except where the id now holds another e-mail
// address (another person), whose second factor set up here is removed and named in the audit.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import zlib from 'node:zlib';
import fs from 'node:fs';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { ownerId, userContext } from '../../../test/context.ts';
import { createTestUser } from '../../../test/users.ts';
import type { BackupSettings } from '../../platform/config.server.ts';
import { createBackupNow, backupFilePath } from './backups.server.ts';
import { restoreBackup } from './backup-restore.server.ts';
import { totpCode } from '../auth/two-factor-codes.server.ts';
import { confirmTwoFactorSetup, startTwoFactorSetup, twoFactorStatus } from '../auth/two-factor-state.server.ts';

const KEY = 'd'.repeat(64);

describe.each(TEST_DIALECTS)('restoring users and their second factors on %s', (dialect) => {
  let database: TestDatabase;
  let settings: BackupSettings;

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    settings = { dir: path.join(database.dataDir, 'backups'), schedule: '0 2 * * *', keep: 2 };
  });
  afterAll(() => database?.destroy());

  async function turnOn(userId: number): Promise<string> {
    const ctx = await userContext(database.db, userId);
    const { secret } = await startTwoFactorSetup(ctx, [KEY]);
    await confirmTwoFactorSetup(ctx, [KEY], { code: totpCode(secret) });
    return secret;
  }

  it('keeps the second factor of the same account, removes it where the id now holds someone else', async () => {
    const db = database.db;
    const owner = await userContext(db, await ownerId(db));
    const kept = await createTestUser(db, { role: 'editor' });
    const renamed = await createTestUser(db, { role: 'editor' });
    const keptSecret = await turnOn(kept.id);
    const backup = await createBackupNow(owner, settings, { name: 'Users', tables: ['users'] });
    // The backup holds no second factor, not even sealed.
    const { fileName } = await db
      .selectFrom('backups')
      .select('fileName')
      .where('id', '=', backup.id)
      .executeTakeFirstOrThrow();
    const file = backupFilePath(settings, fileName!);
    const text = zlib.gunzipSync(fs.readFileSync(file)).toString();
    expect(text).not.toContain('userTwoFactor');
    expect(text).not.toContain(keptSecret);

    // After the backup: the second user turns two-factor on, and the row of the first is another
    // person's when the backup comes back (here: its e-mail address changes now, and the backup
    // holds the old one for the same id).
    await turnOn(renamed.id);
    await db
      .updateTable('users')
      .set({ email: `now-${renamed.email}` })
      .where('id', '=', renamed.id)
      .execute();

    await restoreBackup(owner, settings, { backupId: backup.id }, { overwrite: true });
    expect(await twoFactorStatus(db, kept.id)).toMatchObject({ enabled: true, recoveryCodesLeft: 10 });
    expect(await twoFactorStatus(db, renamed.id)).toMatchObject({ enabled: false });
    const entry = await db
      .selectFrom('auditLogs')
      .select('newData')
      .where('tableName', '=', 'backups')
      .where('action', '=', 'restore')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const newData = (typeof entry.newData === 'string' ? JSON.parse(entry.newData) : entry.newData) as Record<
      string,
      unknown
    >;
    expect(newData.secondFactorsRemoved).toEqual([{ id: renamed.id, username: renamed.username }]);
  });
});
