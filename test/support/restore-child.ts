// A restoring process for app/features/backups/backup-crash.test.ts: opens the database the environment names
// (DATABASE_URL for PostgreSQL, else DATA_DIR's SQLite file), restores backup RESTORE_BACKUP_ID
// with overwrite and reports its progress on stdout, one line each, so the test can time a
// SIGKILL: `begin` just before restoreBackup is called, `writing` at its first progress report
// (the safety backup is made and the restore transaction is writing rows), `done <ms>` when it
// has returned. Run with Node 24 (type stripping): node test/support/restore-child.ts
import { createDatabase } from '../../db/client.ts';
import { restoreBackup } from '../../app/features/backups/backup-restore.server.ts';
import { backupSettingsFrom } from '../../app/platform/config.server.ts';
import { systemActor, type ServiceContext } from '../../app/platform/context.ts';
import { noEngine } from '../context.ts';

const backupId = Number(process.env.RESTORE_BACKUP_ID);
if (!Number.isSafeInteger(backupId)) throw new Error('RESTORE_BACKUP_ID is not set');
const url = process.env.DATABASE_URL || undefined;
const handle = createDatabase({ url, dataDir: process.env.DATA_DIR, poolSize: 3 });
const ctx: ServiceContext = { db: handle.db, actor: systemActor('cli'), meta: {}, runtime: noEngine() };
const settings = backupSettingsFrom(process.env);

try {
  let writing = false;
  const started = performance.now();
  process.stdout.write('begin\n');
  await restoreBackup(ctx, settings, { backupId }, { overwrite: true }, () => {
    if (writing) return;
    writing = true;
    process.stdout.write(`writing ${Math.round(performance.now() - started)}\n`);
  });
  process.stdout.write(`done ${Math.round(performance.now() - started)}\n`);
} finally {
  await handle.close();
}
