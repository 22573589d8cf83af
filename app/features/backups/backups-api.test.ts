// The backup calls over real HTTP on every test dialect: list, create (an
// in-progress row that completes), scheduled, verify, restore (all or nothing), delete, and the
// per-table CSV export with company scope; bad input is a 400 that writes nothing; the backups
// permission and a company scope are enforced.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/database.ts';
import { TestClient, useTestServer } from '../../../test/server.ts';
import { waitFor } from '../../../test/wait.ts';
import { TEST_PASSWORD } from '../../../test/users.ts';

type Row = Record<string, any>;
const VULT = 2;

async function status(response: Response, expected: number) {
  if (response.status !== expected)
    expect(response.status, `${response.url}: ${await response.clone().text()}`).toBe(expected);
}

describe.each(TEST_DIALECTS)('backups API on %s', (dialect) => {
  const { db, server, signedIn } = useTestServer(dialect, {
    env: { API_RATE_LIMIT_PER_MINUTE: '100000', API_RATE_LIMIT_PER_HOUR: '1000000' },
  });
  let owner: TestClient;
  let viewer: TestClient;
  let vultAdmin: TestClient;
  const json = async (response: Response, expected = 200) => {
    await status(response, expected);
    return response.json();
  };
  const backupDir = () => path.join(server().database.dataDir, 'backups');

  async function completed(c: TestClient, body: unknown): Promise<Row> {
    const created = await json(await c.post('/api/backups', body), 201);
    expect(created.status).toBe('in_progress');
    let backup: Row = created;
    await waitFor(
      async () => {
        backup = await json(await c.get(`/api/backups/${created.id}`));
        return backup.status !== 'in_progress';
      },
      { timeout: 20_000 },
    );
    expect(backup, backup.error).toMatchObject({ status: 'completed' });
    return backup;
  }

  beforeAll(async () => {
    owner = (await signedIn({ role: 'owner' })).c;
    viewer = (await signedIn({ role: 'viewer' })).c;
    vultAdmin = (await signedIn({ role: 'admin', companyId: VULT })).c;
  });

  it('creates a backup that completes, lists it newest first and verifies it', async () => {
    const backup = await completed(owner, {
      name: 'API backup',
      description: 'from the API',
      tables: ['departments', 'companies'],
    });
    expect(backup).toMatchObject({
      name: 'API backup',
      description: 'from the API',
      type: 'manual',
      tables: ['companies', 'departments'],
    });
    expect(backup.size).toBeGreaterThan(0);
    expect(backup.recordCount).toBe(
      Number((await db().selectFrom('departments').select(db().fn.countAll().as('n')).executeTakeFirstOrThrow()).n) + 4,
    );
    const list = await json(await owner.get('/api/backups'));
    expect(list[0].id).toBe(backup.id);
    expect(list[0]).not.toHaveProperty('fileName');
    expect(await json(await owner.get(`/api/backups/${backup.id}/verify`))).toEqual({ valid: true });
    // The default name: 'Manual Backup' and the time.
    const unnamed = await completed(owner, {});
    expect(unnamed.name).toMatch(/^Manual Backup \d{4}-\d\d-\d\dT/);
    expect(unnamed.tables).toContain('vultCardTypes');
  });

  it('refuses bad input with field errors and writes nothing', async () => {
    const before = await json(await owner.get('/api/backups'));
    const bad = await json(
      await owner.post('/api/backups', { tables: ['budgets', 'no_such_table'], includeAuditLogs: 'maybe' }),
      400,
    );
    expect(bad.errors.map((e: Row) => e.field).sort()).toEqual(['includeAuditLogs', 'tables']);
    expect(await json(await owner.post('/api/backups', { path: '/etc/passwd' }), 400)).toMatchObject({
      message: 'Invalid data',
    });
    expect((await json(await owner.get('/api/backups'))).length).toBe(before.length);
  });

  it('makes a scheduled backup now, holding audit logs and versions', async () => {
    const created = await json(await owner.post('/api/backups/scheduled'), 201);
    expect(created).toMatchObject({ type: 'scheduled', includeAuditLogs: true, includeVersions: true });
    await waitFor(async () => (await json(await owner.get(`/api/backups/${created.id}`))).status === 'completed', {
      timeout: 20_000,
    });
  });

  it('restores all or nothing, and deletes a backup with its file', async () => {
    const name = `Restored department ${dialect}`;
    const department = await json(await owner.post('/api/departments', { name }), 201);
    const backup = await completed(owner, { tables: ['departments'] });
    await status(await owner.request(`/api/departments/${department.id}`, { method: 'DELETE' }), 204);
    expect(await json(await owner.post(`/api/backups/${backup.id}/restore`, { overwrite: 'yes' }), 400)).toMatchObject({
      message: 'Invalid data',
    });
    const result = await json(
      await owner.post(`/api/backups/${backup.id}/restore`, { options: { overwrite: false, skipAuditLogs: false } }),
    );
    expect(result.tables).toEqual([expect.objectContaining({ table: 'departments', written: 1, deleted: 0 })]);
    expect(await json(await owner.get(`/api/departments/${department.id}`))).toMatchObject({ name });

    const files = () => fs.readdirSync(backupDir()).filter((f) => f.startsWith(`finhub-backup-${backup.id}-`));
    expect(files().length).toBe(1);
    await status(await owner.request(`/api/backups/${backup.id}`, { method: 'DELETE' }), 204);
    expect(files()).toEqual([]);
    await status(await owner.get(`/api/backups/${backup.id}`), 404);
    await status(await owner.post(`/api/backups/${backup.id}/restore`, {}), 404);
  });

  it('a damaged file fails verify and its restore changes nothing (409 with the reason)', async () => {
    const backup = await completed(owner, { tables: ['departments'] });
    const [file] = fs.readdirSync(backupDir()).filter((f) => f.startsWith(`finhub-backup-${backup.id}-`));
    const bytes = fs.readFileSync(path.join(backupDir(), file));
    bytes[bytes.length - 12] ^= 0x01;
    fs.writeFileSync(path.join(backupDir(), file), bytes);
    const verification = await json(await owner.get(`/api/backups/${backup.id}/verify`));
    expect(verification.valid).toBe(false);
    const count = async () =>
      (await db().selectFrom('auditLogs').select(db().fn.countAll().as('n')).executeTakeFirstOrThrow()).n;
    const before = await count();
    const refused = await json(await owner.post(`/api/backups/${backup.id}/restore`, { overwrite: true }), 409);
    expect(refused.message).toMatch(/^Backup integrity check failed/);
    expect(await count()).toBe(before);
  });

  it('a backup in progress cannot be deleted', async () => {
    const row = await db()
      .insertInto('backups')
      .values({ name: 'busy', type: 'manual', tables: '[]' })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(await json(await owner.request(`/api/backups/${row.id}`, { method: 'DELETE' }), 409)).toMatchObject({
      message: 'A backup in progress cannot be deleted',
    });
    await db().deleteFrom('backups').where('id', '=', row.id).execute();
  });

  it('exports a table as CSV, only the own company for a scoped user', async () => {
    const all = await owner.get('/api/export/expense_categories/csv');
    await status(all, 200);
    expect(all.headers.get('Content-Type')).toMatch(/text\/csv/);
    expect(all.headers.get('Content-Disposition')).toMatch(/attachment; filename="expense-categories-.*\.csv"/);
    const allLines = (await all.text()).trim().split('\n');
    const scoped = await vultAdmin.get('/api/export/expense-categories/csv');
    await status(scoped, 200);
    const scopedLines = (await scoped.text()).trim().split('\n');
    const vultCount = Number(
      (
        await db()
          .selectFrom('expenseCategories')
          .select(db().fn.countAll().as('n'))
          .where('companyId', '=', VULT)
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(scopedLines.length - 1).toBe(vultCount);
    expect(allLines.length).toBeGreaterThan(scopedLines.length);
    const users = await (await owner.get('/api/export/users/csv')).text();
    expect(users).not.toMatch(/argon2|password_?hash/i);
    await status(await owner.get('/api/export/no_such_table/csv'), 404);
  });

  it('needs the backups permission; a company-scoped admin may list and export but not create, restore or delete', async () => {
    await status(await viewer.get('/api/backups'), 403);
    await status(await viewer.post('/api/backups', {}), 403);
    await status(await viewer.get('/api/export/budgets/csv'), 403);
    await status(await vultAdmin.get('/api/backups'), 200);
    await status(await vultAdmin.post('/api/backups', {}), 403);
    // Installation-wide calls do not exist for an admin of one company.
    await status(await vultAdmin.post('/api/backups/scheduled'), 404);
    const backup = await completed(owner, { tables: ['departments'] });
    await status(await vultAdmin.post(`/api/backups/${backup.id}/restore`, {}), 404);
    await status(await vultAdmin.request(`/api/backups/${backup.id}`, { method: 'DELETE' }), 403);
    await status(await vultAdmin.get(`/api/backups/${backup.id}/verify`), 200);
    await status(await new TestClient(server().baseUrl).get('/api/backups'), 401);
  });

  it('the backups flag alone never restores: a deleted admin stays deleted', async () => {
    const holder = (await signedIn({ role: 'viewer', flags: { canAccessBackups: true } })).c;
    const admin = await signedIn({ role: 'admin' });
    // Backups of what the holder may read only: not the accounts.
    await status(await holder.post('/api/backups', { name: 'x', tables: ['users'] }), 403);
    const accounts = await completed(owner, { name: 'accounts', tables: ['users'] });
    const victim = await signedIn({ role: 'admin' });
    await status(await owner.request(`/api/users/${victim.user.id}`, { method: 'DELETE' }), 204);
    const restores = () =>
      db()
        .selectFrom('auditLogs')
        .select('id')
        .where('action', '=', 'restore')
        .where('recordId', '=', accounts.id)
        .execute();
    await status(await holder.post(`/api/backups/${accounts.id}/restore`, { skipAuditLogs: true }), 403);
    await status(await holder.post(`/api/backups/${accounts.id}/restore`, { overwrite: true }), 403);
    // An admin restores data, but accounts only come back by an owner's hand.
    expect(await json(await admin.c.post(`/api/backups/${accounts.id}/restore`, {}), 403)).toEqual({
      message: 'Only an owner can restore a backup that holds user accounts or their settings',
    });
    await status(
      await new TestClient(server().baseUrl).post('/api/auth/login', {
        email: victim.user.email,
        password: TEST_PASSWORD,
      }),
      401,
    );
    expect(await restores()).toEqual([]);
    await status(await owner.post(`/api/backups/${accounts.id}/restore`, { skipAuditLogs: true }), 200);
    // The owner's restore is audited, skipAuditLogs or not.
    expect(await restores()).toHaveLength(1);
  });

  it('a restore never erases the audit trail, and only an owner deletes its safety backup', async () => {
    const holder = (await signedIn({ role: 'viewer', flags: { canAccessBackups: true } })).c;
    const admin = (await signedIn({ role: 'admin' })).c;
    // The holder may not read the audit trail, so may not back it up.
    await status(
      await holder.post('/api/backups', { tables: ['departments'], includeAuditLogs: true, includeVersions: true }),
      403,
    );
    const department = await db().selectFrom('departments').select('id').orderBy('id').executeTakeFirstOrThrow();
    const category = await json(
      await owner.post('/api/expense-categories', {
        companyId: VULT,
        departmentId: department.id,
        name: `Audit trail ${dialect}`,
      }),
      201,
    );
    const expenses: Row[] = [];
    for (let i = 0; i < 3; i++) {
      expenses.push(
        await json(
          await owner.post('/api/actual-expenses', {
            categoryId: category.id,
            departmentId: department.id,
            amount: 10 + i,
            expenseDate: '2026-02-01',
            description: 'evidence',
          }),
          201,
        ),
      );
    }
    const backup = await completed(admin, {
      tables: ['companies', 'departments', 'expenseCategories', 'actualExpenses'],
      includeAuditLogs: true,
      includeVersions: true,
    });
    for (const e of expenses)
      await status(await admin.request(`/api/actual-expenses/${e.id}`, { method: 'DELETE' }), 204);
    const evidence = async () => ({
      deletes: (
        await db()
          .selectFrom('auditLogs')
          .select('id')
          .where('action', '=', 'delete')
          .where('tableName', '=', 'actual_expenses')
          .where(
            'recordId',
            'in',
            expenses.map((e) => e.id),
          )
          .execute()
      ).length,
      versions: (
        await db()
          .selectFrom('dataVersions')
          .select('id')
          .where('tableName', '=', 'actual_expenses')
          .where(
            'recordId',
            'in',
            expenses.map((e) => e.id),
          )
          .execute()
      ).length,
    });
    const before = await evidence();
    expect(before.deletes).toBe(3);
    await status(await holder.post(`/api/backups/${backup.id}/restore`, { overwrite: true, skipAuditLogs: true }), 403);
    const result = await json(
      await admin.post(`/api/backups/${backup.id}/restore`, { overwrite: true, skipAuditLogs: true }),
    );
    expect(result.tables.map((t: Row) => t.table)).not.toContain('auditLogs');
    expect(await evidence()).toEqual(before);
    const withTrail = await json(await admin.post(`/api/backups/${backup.id}/restore`, { overwrite: true }));
    expect(
      withTrail.tables
        .filter((t: Row) => t.table === 'auditLogs' || t.table === 'dataVersions')
        .map((t: Row) => t.deleted),
    ).toEqual([0, 0]);
    expect(await evidence()).toEqual(before);
    // The safety backups are the way back: an admin cannot delete them, an owner can.
    expect(
      await json(await admin.request(`/api/backups/${withTrail.safetyBackupId}`, { method: 'DELETE' }), 403),
    ).toEqual({ message: 'Only an owner can delete a safety backup' });
    await status(await owner.request(`/api/backups/${withTrail.safetyBackupId}`, { method: 'DELETE' }), 204);
  });
});
