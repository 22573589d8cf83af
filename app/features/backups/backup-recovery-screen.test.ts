// The Backup & Recovery screen over HTTP, as a browser without JavaScript uses it
// (docs/screens.md): the four tabs, creating a backup from the form (a row in progress,
// written in the background), the scheduled backup, verifying (a changed file is 'Invalid'),
// restoring after the confirmation step, deleting after the spec's confirmation, refused input
// with the field's error, the 403 without the backups permission, and a company-scoped holder
// of the flag who lists and exports but never creates, restores or deletes.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BACKUP_MESSAGES } from './texts.ts';
import { TEST_DIALECTS } from '../../../test/database.ts';
import { useTestServer, type TestClient } from '../../../test/server.ts';
import { waitFor } from '../../../test/wait.ts';

const VULT = 2;
const URL_ = '/backup-recovery';

describe.each(TEST_DIALECTS)('backup & recovery screen on %s', (dialect) => {
  const { server, db, signedIn } = useTestServer(dialect);
  const text = async (response: Response) => (await response.text()).replace(/<!-- -->/g, '');
  const tag = (prefix: string) => `${prefix}-${dialect}-${crypto.randomBytes(4).toString('hex')}`;
  const backupDir = () => path.join(server().database.dataDir, 'backups');

  /** Posts a form (repeated names allowed, as checkboxes send them) as a browser without JavaScript. */
  function post(c: TestClient, url: string, fields: [string, string][]) {
    return c.request(url, {
      method: 'POST',
      body: new URLSearchParams(fields),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
  }
  /** The page a redirect leads to (with its flash toast). */
  async function follow(c: TestClient, response: Response) {
    expect(response.status, await response.clone().text()).toBe(302);
    return text(await c.get(response.headers.get('Location')!));
  }
  const rowNamed = (name: string) => db().selectFrom('backups').selectAll().where('name', '=', name).executeTakeFirst();
  const countBackups = async () =>
    Number(
      (
        await db()
          .selectFrom('backups')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** A backup made through the form, once its file is written. */
  async function completedBackup(c: TestClient, name: string, tables: string[]) {
    const page = await follow(
      c,
      await post(c, `${URL_}?tab=create`, [
        ['intent', 'create'],
        ['name', name],
        ...tables.map((t): [string, string] => ['tables', t]),
      ]),
    );
    expect(page).toContain(BACKUP_MESSAGES.created);
    return waitFor(
      async () => {
        const row = await rowNamed(name);
        expect(row?.status).not.toBe('failed');
        return row?.status === 'completed' ? row : null;
      },
      { what: `backup ${name} to complete` },
    );
  }
  /** A row still being written (what the list shows while the job runs). */
  async function inProgressRow(name: string) {
    const row = await db()
      .insertInto('backups')
      .values({ name, type: 'manual', status: 'in_progress', tables: JSON.stringify(['departments']) as never })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  it('renders the four tabs: the empty history, the create form, the restore prompt and the exports', async () => {
    const { c } = await signedIn({ role: 'admin' });
    const page = await c.get(URL_);
    expect(page.status).toBe(200);
    const html = await text(page);
    expect(html).toContain('<h1 class="text-2xl font-semibold text-slate-900">Backup &amp; Recovery</h1>');
    for (const label of ['Create Scheduled Backup', 'Backups', 'Create Backup', 'Restore', 'Export'])
      expect(html).toContain(label);
    expect(html).toContain('No backups found');

    const create = await text(await c.get(`${URL_}?tab=create`));
    expect(create).toContain('placeholder="Manual Backup + current date and time"');
    for (const label of [
      'Companies',
      'Expense Categories',
      'Actual Revenue',
      'Subscriber Metrics',
      'API Integration Sources',
      'API Integration Endpoints',
      'Include audit logs',
      'Include versions',
    ])
      expect(create).toContain(label);
    expect(create).not.toContain('Api Integration');
    expect(create).toMatch(
      /<input id="create-backup-tables-expenseCategories" name="tables"[^>]*type="checkbox"[^>]*value="expenseCategories"\/>/,
    );
    expect(create).toContain('None checked: every table listed here is backed up.');

    expect(await text(await c.get(`${URL_}?tab=restore`))).toContain('No backup selected.');
    expect(await text(await c.get(`${URL_}?tab=restore&backup=999999`))).toContain(
      'The selected backup no longer exists.',
    );

    const exports = await text(await c.get(`${URL_}?tab=export`));
    expect(exports).toContain('href="/api/export/actual_expenses/csv" target="_blank" rel="noopener"');
    expect(exports).toContain('href="/api/export/users/csv"');
    expect(exports).toContain('Expense Categories');
  });

  it('a viewer without the backups permission gets 403 for the page and every intent', async () => {
    const { c } = await signedIn({ role: 'viewer' });
    expect((await c.get(URL_)).status).toBe(403);
    for (const intent of ['create', 'scheduled', 'verify', 'restore', 'delete']) {
      expect(
        (
          await post(c, URL_, [
            ['intent', intent],
            ['id', '1'],
            ['confirmed', '1'],
          ])
        ).status,
        intent,
      ).toBe(403);
    }
  });

  it('the create form queues a backup: a row in progress at once, then the completed backup in the list', async () => {
    const { c, user } = await signedIn({ role: 'admin' });
    const name = tag('Form');
    const created = await post(c, `${URL_}?tab=create`, [
      ['intent', 'create'],
      ['name', name],
      ['description', 'Made by the screen test'],
      ['tables', 'departments'],
      ['tables', 'companies'],
      ['includeVersions', 'on'],
    ]);
    expect(created.status).toBe(302);
    expect(created.headers.get('Location')).toBe(`${URL_}?tab=backups`);
    const row = await rowNamed(name);
    expect(row).toMatchObject({
      type: 'manual',
      description: 'Made by the screen test',
      includeAuditLogs: false,
      includeVersions: true,
      createdBy: user.id,
    });
    expect(row!.tables).toEqual(['companies', 'departments', 'dataVersions']);
    expect(['in_progress', 'completed']).toContain(row!.status);
    const page = await text(await c.get(created.headers.get('Location')!));
    expect(page).toContain(BACKUP_MESSAGES.created);
    expect(page).toContain(name);

    await waitFor(async () => (await rowNamed(name))?.status === 'completed', { what: 'the backup to complete' });
    const list = await text(await c.get(URL_));
    expect(list).toContain('max-h-[600px] overflow-y-auto');
    expect(list).toMatch(/<span class="sr-only">Completed<\/span>/);
    expect(list).toContain('Made by the screen test');
    expect(list).toContain('Tables: 3');
    expect(list).toMatch(/Size: [\d.]+ (Bytes|KB)/);
    expect(list).toContain(`href="/backup-recovery?tab=restore&amp;backup=${row!.id}"`);

    // An empty name: 'Manual Backup' and the time.
    await follow(
      c,
      await post(c, URL_, [
        ['intent', 'create'],
        ['name', ''],
        ['tables', 'companies'],
      ]),
    );
    const unnamed = await db().selectFrom('backups').select('name').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(unnamed.name).toMatch(/^Manual Backup \d{4}-\d\d-\d\dT/);
  });

  it('a backup in progress says so without JavaScript, and cannot be deleted yet', async () => {
    const { c } = await signedIn({ role: 'admin' });
    const name = tag('Running');
    const id = await inProgressRow(name);
    try {
      const html = await text(await c.get(URL_));
      expect(html).toContain('In progress — reload the page to see the result');
      expect(html).toMatch(/<span class="sr-only">In progress<\/span>/);
      const refused = await post(c, URL_, [
        ['intent', 'delete'],
        ['id', String(id)],
        ['confirmed', '1'],
      ]);
      expect(refused.status).toBe(409);
      expect(await text(refused)).toContain('Failed to delete backup: A backup in progress cannot be deleted');
      // Selected for restore by a hand-edited URL: shown, not offered.
      expect(await text(await c.get(`${URL_}?tab=restore&backup=${id}`))).toContain(
        'Only completed backups can be restored',
      );
    } finally {
      await db().deleteFrom('backups').where('id', '=', id).execute();
    }
  });

  it('refused create input answers 400 with the error next to its field, and writes nothing', async () => {
    const { c } = await signedIn({ role: 'admin' });
    const before = await countBackups();
    const long = await post(c, `${URL_}?tab=create`, [
      ['intent', 'create'],
      ['name', 'x'.repeat(300)],
      ['description', 'kept'],
    ]);
    expect(long.status).toBe(400);
    const html = await text(long);
    expect(html).toContain('data-testid="create-backup-name-error">Name must be at most 255 characters</p>');
    expect(html).toContain('Failed to create backup: Invalid data');
    expect(html).toContain('aria-invalid="true"');
    // What was typed stays in the form.
    expect(html).toMatch(/<textarea[^>]*name="description"[^>]*>kept<\/textarea>/);

    const unknown = await post(c, `${URL_}?tab=create`, [
      ['intent', 'create'],
      ['tables', 'companies'],
      ['tables', 'secrets'],
    ]);
    expect(unknown.status).toBe(400);
    const unknownHtml = await text(unknown);
    expect(unknownHtml).toContain('Unknown table: secrets');
    expect(unknownHtml).toMatch(/id="create-backup-tables-companies"[^>]*checked=""/);
    expect(unknownHtml).not.toMatch(/id="create-backup-tables-departments"[^>]*checked=""/);
    expect(await countBackups()).toBe(before);
  });

  it('the scheduled backup button queues a scheduled backup of everything', async () => {
    const { c } = await signedIn({ role: 'admin' });
    const before = await db().selectFrom('backups').select('id').orderBy('id', 'desc').executeTakeFirst();
    const page = await follow(c, await post(c, URL_, [['intent', 'scheduled']]));
    expect(page).toContain(BACKUP_MESSAGES.scheduled);
    const row = await db()
      .selectFrom('backups')
      .selectAll()
      .where('id', '>', before?.id ?? 0)
      .where('type', '=', 'scheduled')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ includeAuditLogs: true, includeVersions: true });
    expect(page).toContain(row.name);
    await waitFor(
      async () =>
        (await db().selectFrom('backups').select('status').where('id', '=', row.id).executeTakeFirst())?.status !==
        'in_progress',
      { what: 'the scheduled backup to finish' },
    );
  });

  it('verify: an intact backup is Verified; a changed file is Invalid with the reason', async () => {
    const { c } = await signedIn({ role: 'admin' });
    const backup = await completedBackup(c, tag('Verify'), ['companies']);
    const ok = await follow(
      c,
      await post(c, URL_, [
        ['intent', 'verify'],
        ['id', String(backup.id)],
      ]),
    );
    expect(ok).toContain('>Verified</p>');
    expect(ok).toContain('Backup integrity verified');

    fs.appendFileSync(path.join(backupDir(), backup.fileName!), 'x');
    const bad = await follow(
      c,
      await post(c, URL_, [
        ['intent', 'verify'],
        ['id', String(backup.id)],
      ]),
    );
    expect(bad).toContain('>Invalid</p>');
    expect(bad).toContain('Backup integrity check failed: The file has changed since the backup was made');

    const missing = await post(c, URL_, [
      ['intent', 'verify'],
      ['id', '999999'],
    ]);
    expect(missing.status).toBe(404);
    expect(await text(missing)).toContain('Failed to verify backup: Resource not found');
  });

  it('restore: the confirmation step first, then the missing rows come back and the selection clears', async () => {
    const { c } = await signedIn({ role: 'admin' });
    const department = await c.post('/api/departments', { name: tag('Restored') });
    expect(department.status).toBe(201);
    const { id: departmentId } = await department.json();
    const backup = await completedBackup(c, tag('Restore'), ['departments']);
    expect((await c.request(`/api/departments/${departmentId}`, { method: 'DELETE' })).status).toBeLessThan(300);

    const selected = await text(await c.get(`${URL_}?tab=restore&backup=${backup.id}`));
    expect(selected).toContain(backup.name);
    expect(selected).toContain('Overwrite existing data');
    expect(selected).toContain('Skip audit logs');
    // Without JavaScript the warning is always there, next to the option; both are off.
    expect(selected).toContain(BACKUP_MESSAGES.overwriteWarning);
    expect(selected).not.toMatch(/name="(overwrite|skipAuditLogs)"[^>]*checked/);

    const stepUrl = `${URL_}?tab=restore&backup=${backup.id}`;
    const step = await post(c, stepUrl, [
      ['intent', 'restore'],
      ['id', String(backup.id)],
    ]);
    expect(step.status).toBe(200);
    const stepHtml = await text(step);
    expect(stepHtml).toContain('data-testid="confirm-restore"');
    expect(stepHtml).toContain(`Restore the backup &quot;${backup.name}&quot;?`);
    expect((await c.get(`/api/departments/${departmentId}`)).status).toBe(404);

    const done = await post(c, stepUrl, [
      ['intent', 'restore'],
      ['id', String(backup.id)],
      ['confirmed', '1'],
    ]);
    expect(done.headers.get('Location')).toBe(`${URL_}?tab=backups`);
    const page = await follow(c, done);
    expect(page).toContain(BACKUP_MESSAGES.restored);
    expect(page).toMatch(/1 of \d+ rows were missing and have been added back; existing rows were kept\./);
    expect((await c.get(`/api/departments/${departmentId}`)).status).toBe(200);
  });

  it("a refused restore names its reason in the reader's language (the /api answers English)", async () => {
    const { c } = await signedIn({ role: 'admin' });
    const backup = await completedBackup(c, tag('Damaged'), ['departments']);
    fs.appendFileSync(path.join(backupDir(), backup.fileName!), 'x');
    expect((await c.request('/api/user-settings', { method: 'PUT', json: { language: 'es' } })).status).toBe(200);
    const refused = await post(c, `${URL_}?tab=restore&backup=${backup.id}`, [
      ['intent', 'restore'],
      ['id', String(backup.id)],
      ['confirmed', '1'],
    ]);
    const page = refused.status === 302 ? await follow(c, refused) : await text(refused);
    expect(page).toContain(
      'No se pudo restaurar la copia de seguridad: La comprobación de integridad de la copia de seguridad falló: ' +
        'El archivo ha cambiado desde que se hizo la copia de seguridad (el SHA-256 difiere)',
    );
    const api = await c.post(`/api/backups/${backup.id}/restore`, {});
    expect(api.status).toBe(409);
    expect((await api.json()).message).toBe(
      'Backup integrity check failed: The file has changed since the backup was made (SHA-256 differs)',
    );
  });

  it('restore with overwrite: the step carries the options and a safety backup is taken first', async () => {
    const { c } = await signedIn({ role: 'admin' });
    const backup = await completedBackup(c, tag('Overwrite'), ['vultCardTypes']);
    const fields: [string, string][] = [
      ['intent', 'restore'],
      ['id', String(backup.id)],
      ['overwrite', 'on'],
      ['skipAuditLogs', 'on'],
    ];
    const step = await text(await post(c, URL_, fields));
    expect(step).toContain(BACKUP_MESSAGES.overwriteWarning);
    expect(step).toContain('<input type="hidden" name="overwrite" value="on"/>');
    expect(step).toContain('<input type="hidden" name="skipAuditLogs" value="on"/>');
    const page = await follow(c, await post(c, URL_, [...fields, ['confirmed', '1']]));
    expect(page).toContain(BACKUP_MESSAGES.restored);
    const safety = await db()
      .selectFrom('backups')
      .select(['id', 'type'])
      .where('name', '=', `Safety backup before restoring "${backup.name}"`)
      .executeTakeFirstOrThrow();
    expect(safety.type).toBe('automated');
    expect(page).toContain(`A safety backup (#${safety.id}) was taken first.`);
    // Skip audit logs leaves the backup's trail out; the restore itself is audited all the same.
    const audit = await db()
      .selectFrom('auditLogs')
      .select('newData')
      .where('tableName', '=', 'backups')
      .where('recordId', '=', backup.id)
      .where('action', '=', 'restore')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0].newData).toMatchObject({ overwrite: true, importedAuditTrail: false, safetyBackupId: safety.id });
  });

  it("delete: the spec's confirmation step without JavaScript, then the backup and its file are gone", async () => {
    const { c } = await signedIn({ role: 'admin' });
    const backup = await completedBackup(c, tag('Delete'), ['companies']);
    const file = path.join(backupDir(), backup.fileName!);
    expect(fs.existsSync(file)).toBe(true);

    const step = await post(c, `${URL_}?tab=backups`, [
      ['intent', 'delete'],
      ['id', String(backup.id)],
    ]);
    expect(step.status).toBe(200);
    const stepHtml = await text(step);
    expect(stepHtml).toContain('data-testid="confirm-delete"');
    expect(stepHtml).toContain(BACKUP_MESSAGES.confirmDelete);
    expect(await rowNamed(backup.name)).toBeDefined();

    const done = await post(c, `${URL_}?tab=backups`, [
      ['intent', 'delete'],
      ['id', String(backup.id)],
      ['confirmed', '1'],
    ]);
    const page = await follow(c, done);
    expect(page).toContain(BACKUP_MESSAGES.deleted);
    expect(page).not.toContain(backup.name);
    expect(await rowNamed(backup.name)).toBeUndefined();
    expect(fs.existsSync(file)).toBe(false);

    const again = await post(c, URL_, [
      ['intent', 'delete'],
      ['id', String(backup.id)],
      ['confirmed', '1'],
    ]);
    expect(again.status).toBe(404);
    expect(await text(again)).toContain('Failed to delete backup: Resource not found');
  });

  it('an admin limited to one company lists, verifies and exports, but may not create, restore or delete', async () => {
    const admin = (await signedIn({ role: 'admin' })).c;
    const backup = await completedBackup(admin, tag('Scoped'), ['companies']);
    const { c } = await signedIn({ role: 'admin', companyId: VULT });
    const page = await c.get(URL_);
    expect(page.status).toBe(200);
    const html = await text(page);
    expect(html).toContain(backup.name);
    expect(html).toContain('only users who are not limited to one company can create, restore or delete them');
    for (const hidden of ['Create Scheduled Backup', 'Create Backup', 'Select for restore', '>Delete<'])
      expect(html).not.toContain(hidden);
    expect(html).toContain('>Export</a>');
    // The create and restore tabs are not theirs: the list instead.
    expect(await text(await c.get(`${URL_}?tab=create`))).not.toContain('name="includeAuditLogs"');
    expect(await text(await c.get(`${URL_}?tab=restore&backup=${backup.id}`))).not.toContain('Overwrite existing data');
    expect(await text(await c.get(`${URL_}?tab=export`))).toContain('href="/api/export/budgets/csv"');

    const before = await countBackups();
    for (const [intent, failure] of [
      ['create', 'Failed to create backup'],
      ['scheduled', 'Failed to create scheduled backup'],
      ['restore', 'Failed to restore backup'],
      ['delete', 'Failed to delete backup'],
    ]) {
      const refused = await post(c, URL_, [
        ['intent', intent],
        ['id', String(backup.id)],
        ['confirmed', '1'],
      ]);
      expect(refused.status, intent).toBe(403);
      expect(await text(refused)).toContain(`${failure}: Forbidden`);
    }
    expect(await countBackups()).toBe(before);
    expect(await rowNamed(backup.name)).toBeDefined();
    expect(
      await follow(
        c,
        await post(c, URL_, [
          ['intent', 'verify'],
          ['id', String(backup.id)],
        ]),
      ),
    ).toContain('Backup integrity verified');
  });

  it('the backups flag alone: backs up what its holder may read and deletes their own, never restores', async () => {
    const owner = (await signedIn({ role: 'owner' })).c;
    const others = await completedBackup(owner, tag('Others'), ['departments']);
    const { c } = await signedIn({ role: 'viewer', flags: { canAccessBackups: true } });
    const mine = await completedBackup(c, tag('Mine'), ['departments']);
    const list = await text(await c.get(URL_));
    expect(list).not.toContain('Select for restore');
    expect(list).not.toContain('Create Scheduled Backup');
    // Delete is offered on their own backup only.
    expect(list).toContain(`aria-label="Delete ${mine.name}"`);
    expect(list).not.toContain(`aria-label="Delete ${others.name}"`);
    const create = await text(await c.get(`${URL_}?tab=create`));
    expect(create).toContain('value="budgets"');
    expect(create).not.toContain('value="users"');
    expect(create).not.toContain('name="includeAuditLogs"');
    expect(await text(await c.get(`${URL_}?tab=export`))).not.toContain('href="/api/export/users/csv"');
    const refused = await post(c, URL_, [
      ['intent', 'restore'],
      ['id', String(mine.id)],
      ['confirmed', '1'],
    ]);
    expect(refused.status).toBe(403);
    const deleteOthers = await post(c, URL_, [
      ['intent', 'delete'],
      ['id', String(others.id)],
      ['confirmed', '1'],
    ]);
    expect(deleteOthers.status).toBe(403);
    expect(await text(deleteOthers)).toContain('Failed to delete backup: You can only delete the backups you made');
    expect(
      await follow(
        c,
        await post(c, URL_, [
          ['intent', 'delete'],
          ['id', String(mine.id)],
          ['confirmed', '1'],
        ]),
      ),
    ).toContain(BACKUP_MESSAGES.deleted);
    expect(await rowNamed(others.name)).toBeDefined();
  });

  it('an admin sees that a backup holding user accounts needs an owner to restore', async () => {
    const owner = (await signedIn({ role: 'owner' })).c;
    const accounts = await completedBackup(owner, tag('Accounts'), ['users']);
    const { c } = await signedIn({ role: 'admin' });
    const html = await text(await c.get(`${URL_}?tab=restore&backup=${accounts.id}`));
    expect(html).toContain('Only an owner can restore this backup');
    expect(html).not.toContain('Overwrite existing data');
    const refused = await post(c, URL_, [
      ['intent', 'restore'],
      ['id', String(accounts.id)],
      ['confirmed', '1'],
    ]);
    expect(refused.status).toBe(403);
    expect(await text(refused)).toContain(
      'Failed to restore backup: Only an owner can restore a backup that holds user accounts or their settings',
    );
    expect(await text(await owner.get(`${URL_}?tab=restore&backup=${accounts.id}`))).toContain(
      'Overwrite existing data',
    );
  });
});
