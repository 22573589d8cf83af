// The product's notices: the English they store (what the /api answers) is the English they
// always wrote, and their texts read in every language with every value in place.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noEngine } from '../../../test/context.ts';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { createTestUser } from '../../../test/users.ts';
import { systemActor, type ServiceContext } from '../../platform/context.ts';
import type { Locale } from '../../platform/i18n/locales.ts';
import { catalogs } from '../shell/catalogs.server.ts';
import {
  backupFinished,
  backupRestored,
  importFinished,
  integrationSyncFailed,
  integrationSyncPartial,
  passwordChanged,
  userDeactivated,
} from './notification-events.server.ts';
import { noticeTextsOf, noticeWords } from './shared.ts';

const reader = (locale: Locale) => ({ t: catalogs.translator(locale), locale });

describe.each(TEST_DIALECTS)('notification events on %s', (dialect) => {
  let database: TestDatabase;
  let ctx: ServiceContext;
  let userId: number;
  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    ctx = { db: database.db, actor: systemActor('worker'), meta: {}, runtime: noEngine() };
    userId = (await createTestUser(database.db, { role: 'admin' })).id;
  });
  afterAll(() => database.destroy());

  const latest = () =>
    database.db
      .selectFrom('notifications')
      .select(['title', 'message', 'actionText', 'texts'])
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();

  const cases: [name: string, send: () => Promise<void>, title: string, message: string, action: string][] = [
    [
      'a backup of many records',
      () => backupFinished(ctx, { id: 1, name: 'Nightly', status: 'completed', createdBy: userId, recordCount: 12345 }),
      'Backup completed',
      'The backup "Nightly" is complete (12,345 records).',
      'Open Backup & Recovery',
    ],
    [
      'a failed backup',
      () => backupFinished(ctx, { id: 2, name: 'Nightly', status: 'failed', error: 'disk full', createdBy: userId }),
      'Backup failed',
      'The backup "Nightly" failed: disk full',
      'Open Backup & Recovery',
    ],
    [
      'a restore of a file over the data',
      () => backupRestored(ctx, { backupId: null, backupName: null, overwrite: true, rows: 1500, tables: 3 }),
      'Backup restored',
      'worker restored a backup file, replacing the current data: 1,500 rows in 3 tables.',
      'Open Backup & Recovery',
    ],
    [
      'a restore of a named backup',
      () => backupRestored(ctx, { backupId: 3, backupName: 'Before audit', overwrite: false, rows: 1, tables: 1 }),
      'Backup restored',
      'worker restored the backup "Before audit": 1 rows in 1 tables.',
      'Open Backup & Recovery',
    ],
    [
      'a deactivation that ended two sessions',
      () => userDeactivated(ctx, { id: userId, username: 'maria', companyId: null }, 2),
      'User deactivated',
      'the system deactivated the account maria; 2 active sessions were ended.',
      'Open user management',
    ],
    [
      'a deactivation that ended one session',
      () => userDeactivated(ctx, { id: userId, username: 'maria', companyId: null }, 1),
      'User deactivated',
      'the system deactivated the account maria; 1 active session was ended.',
      'Open user management',
    ],
    [
      'a deactivation that ended none',
      () => userDeactivated(ctx, { id: userId, username: 'maria', companyId: null }, 0),
      'User deactivated',
      'the system deactivated the account maria.',
      'Open user management',
    ],
    [
      'a sync that skipped one record',
      () =>
        integrationSyncPartial(ctx, {
          logId: 9,
          endpointName: 'Invoices',
          sourceName: 'ERP',
          skipped: 1,
          first: 'row 3: no amount',
        }),
      'API sync skipped records',
      'ERP · Invoices: 1 record skipped; first: row 3: no amount',
      'Open the sync logs',
    ],
    [
      'a password set by the system',
      () => passwordChanged(ctx, { id: userId }, false),
      'Password changed',
      'Your password was set by the system; you will choose a new one when you next sign in. If you did not expect this, tell your administrator.',
      'View profile',
    ],
    [
      'an import that ran as a job',
      () =>
        importFinished(ctx, {
          id: 4,
          userId,
          file: 'budgets.csv',
          phase: 'import',
          status: 'completed',
          rows: { total: 12, valid: 10, invalid: 2, created: 1234, updated: 2, unchanged: 0 },
          refused: false,
        }),
      'Import completed',
      'budgets.csv: 1,234 rows added, 2 updated, 0 unchanged, 2 refused',
      'Open the import',
    ],
  ];

  for (const [name, send, title, message, action] of cases) {
    it(`${name}: the English as always, and every language from the stored texts`, async () => {
      await send();
      const row = await latest();
      expect({ title: row.title, message: row.message, actionText: row.actionText }).toEqual({
        title,
        message,
        actionText: action,
      });
      const texts = noticeTextsOf(row.texts);
      expect(texts).not.toBeNull();
      const view = { title: row.title, message: row.message, actionText: row.actionText, texts };
      expect(noticeWords(view, reader('en'))).toEqual({ title, message, actionText: action, data: false });
      for (const locale of ['es', 'fr', 'de'] as const) {
        const words = noticeWords(view, reader(locale));
        expect(words.title, locale).not.toBe(title);
        expect(`${words.title} ${words.message} ${words.actionText}`, locale).not.toMatch(/[{}]/);
      }
    });
  }

  it('words the numbers of an import for the reader', async () => {
    await importFinished(ctx, {
      id: 5,
      userId,
      file: 'budgets.csv',
      phase: 'check',
      status: 'checked',
      rows: { total: 1500, valid: 1499, invalid: 1, created: 0, updated: 0, unchanged: 0 },
      refused: false,
    });
    const row = await latest();
    expect(row.message).toBe('budgets.csv: 1,499 of 1,500 rows are valid');
    const words = noticeWords({ ...row, texts: noticeTextsOf(row.texts) }, reader('de'));
    expect(words.message).toMatch(/^budgets\.csv: 1\.499 .*1\.500/);
  });

  it('reads the words in Spanish with the values in place', async () => {
    await backupFinished(ctx, { id: 5, name: 'Nightly', status: 'completed', createdBy: userId, recordCount: 12345 });
    const row = await latest();
    const words = noticeWords({ ...row, texts: noticeTextsOf(row.texts) }, reader('es'));
    expect(words).toEqual({
      title: 'Copia de seguridad completada',
      message: 'La copia de seguridad «Nightly» está completa (12.345 registros).',
      actionText: 'Abrir copias de seguridad y recuperación',
      data: false,
    });
  });

  it("takes a run's own error and first skipped reason in the reader's language where the run kept them", async () => {
    await integrationSyncFailed(ctx, {
      logId: 11,
      endpointName: 'Invoices',
      sourceName: 'ERP',
      message: 'The remote answered 503',
      words: { es: 'El remoto respondió 503', de: 'Die Gegenstelle antwortete 503' },
    });
    const failed = await latest();
    expect(failed.message).toBe('ERP · Invoices: The remote answered 503');
    const view = { ...failed, texts: noticeTextsOf(failed.texts) };
    expect(noticeWords(view, reader('es')).message).toBe('ERP · Invoices: El remoto respondió 503');
    expect(noticeWords(view, reader('de')).message).toContain('Die Gegenstelle antwortete 503');
    // A language the run kept no words for reads the English error inside its own sentence.
    expect(noticeWords(view, reader('fr')).message).toContain('The remote answered 503');
    expect(noticeWords(view, reader('en')).message).toBe('ERP · Invoices: The remote answered 503');

    await integrationSyncPartial(ctx, {
      logId: 12,
      endpointName: 'Invoices',
      sourceName: 'ERP',
      skipped: 2,
      first: 'row 3: no amount',
      firstWords: { fr: 'ligne 3 : pas de montant' },
    });
    const partial = await latest();
    const words = noticeWords({ ...partial, texts: noticeTextsOf(partial.texts) }, reader('fr'));
    expect(words.message).toContain('ligne 3 : pas de montant');
    expect(words.message).not.toContain('no amount');
  });
});
