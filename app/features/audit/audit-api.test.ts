// The audit trail's /api calls (docs/writes.md) over real HTTP on every test
// dialect: entries with filters and server-side search, newest first, with their user and
// changes; versions of one record; anomalies; restore of an updated and of a deleted record
// (an audited write, exactly one current version afterwards), refused when a reference is
// gone; the audit-logs permission and company scope; and no secret ever in audit or version data.
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/database.ts';
import { type TestClient, useTestServer } from '../../../test/server.ts';

type Row = Record<string, any>;
const ONE_NETWORK = 1;
const VULT = 2;

async function status(response: Response, expected: number) {
  if (response.status !== expected)
    expect(response.status, `${response.url}: ${await response.clone().text()}`).toBe(expected);
}

describe.each(TEST_DIALECTS)('audit trail API on %s', (dialect) => {
  const { db, signedIn } = useTestServer(dialect, {
    env: { API_RATE_LIMIT_PER_MINUTE: '100000', API_RATE_LIMIT_PER_HOUR: '1000000' },
  });
  let owner: TestClient;
  let ownerId: number;
  let editor: TestClient;
  let vultAdmin: TestClient;
  const tag = Math.random().toString(36).slice(2, 8);
  let serial = 0;
  const unique = (prefix: string) => `${prefix} ${tag}-${++serial}`;
  const put = (c: TestClient, path: string, body: unknown, reason?: string) =>
    c.request(path, { method: 'PUT', json: body, headers: reason ? { 'X-Change-Reason': reason } : {} });
  const del = (c: TestClient, path: string) => c.request(path, { method: 'DELETE' });
  const json = async (response: Response, expected = 200) => {
    await status(response, expected);
    return response.json();
  };

  async function category(companyId: number): Promise<Row> {
    const departments = await json(await owner.get('/api/departments?limit=1'));
    return json(
      await owner.post('/api/expense-categories', {
        companyId,
        departmentId: departments[0].id,
        name: unique('Category'),
      }),
      201,
    );
  }

  beforeAll(async () => {
    const o = await signedIn({ role: 'owner' });
    owner = o.c;
    ownerId = o.user.id;
    editor = (await signedIn({ role: 'editor' })).c;
    vultAdmin = (await signedIn({ role: 'admin', companyId: VULT })).c;
  });

  it('lists entries newest first with user, changes and reason; filters and searches on the server', async () => {
    const name = unique('Audited department');
    const created = await json(await owner.post('/api/departments', { name, description: 'first' }), 201);
    await status(await put(owner, `/api/departments/${created.id}`, { description: 'second' }, `Reason ${tag}`), 200);

    const response = await owner.get(`/api/audit-logs?tableName=departments&recordId=${created.id}`);
    await status(response, 200);
    expect(response.headers.get('X-Total-Count')).toBe('2');
    const [update, create] = await response.json();
    expect(update).toMatchObject({
      action: 'update',
      tableName: 'departments',
      recordId: created.id,
      userId: ownerId,
      reason: `Reason ${tag}`,
      changes: { description: { old: 'first', new: 'second' } },
    });
    expect(update.user).toEqual({ id: ownerId, username: update.username });
    expect(create.action).toBe('create');
    expect(Date.parse(update.timestamp)).toBeGreaterThanOrEqual(Date.parse(create.timestamp));

    // The search runs in the database: one entry out of many, found through the reason.
    const found = await json(await owner.get(`/api/audit-logs?q=${encodeURIComponent(`reason ${tag}`)}&limit=1`));
    expect(found.map((e: Row) => e.id)).toEqual([update.id]);
    expect(
      await json(
        await owner.get(`/api/audit-logs?userId=${ownerId}&action=create&tableName=departments&recordId=${created.id}`),
      ),
    ).toHaveLength(1);
    const today = new Date().toISOString().slice(0, 10);
    expect(
      await json(
        await owner.get(`/api/audit-logs?recordId=${created.id}&tableName=departments&from=${today}&to=${today}`),
      ),
    ).toHaveLength(2);
    expect(
      await json(await owner.get(`/api/audit-logs?recordId=${created.id}&tableName=departments&to=2020-01-01`)),
    ).toHaveLength(0);

    const bad = await owner.get('/api/audit-logs?tableName=passwords&limit=0&from=yesterday');
    await status(bad, 400);
    expect((await bad.json()).errors.map((e: Row) => e.field).sort()).toEqual(['from', 'limit', 'tableName']);
  });

  it('lists the versions of a record, exactly one current, newest first', async () => {
    const created = await json(
      await owner.post('/api/departments', { name: unique('Versioned'), description: 'v1' }),
      201,
    );
    await status(await put(owner, `/api/departments/${created.id}`, { description: 'v2' }), 200);
    const versions = await json(await owner.get(`/api/data-versions?tableName=departments&recordId=${created.id}`));
    expect(versions.map((v: Row) => [v.version, v.action, v.isActive, v.data.description])).toEqual([
      [2, 'update', true, 'v2'],
      [1, 'create', false, 'v1'],
    ]);
    await status(await owner.get('/api/data-versions?tableName=departments'), 400);
    expect(await json(await owner.get('/api/data-versions?tableName=departments&recordId=999999'))).toEqual([]);
  });

  it('restores an older version of an existing record as an audited update', async () => {
    const cat = await category(ONE_NETWORK);
    const budget = await json(
      await owner.post('/api/budgets', {
        departmentId: cat.departmentId,
        categoryId: cat.id,
        amount: 100,
        period: 'monthly',
        startDate: '2026-01-01',
        endDate: '2026-01-31',
        description: 'original',
      }),
      201,
    );
    await status(await put(owner, `/api/budgets/${budget.id}`, { amount: 250.5, description: 'changed' }), 200);
    const [current, first] = await json(await owner.get(`/api/data-versions?tableName=budgets&recordId=${budget.id}`));

    await status(await owner.post(`/api/data-versions/${current.id}/restore`), 409);
    const restored = await json(await owner.post(`/api/data-versions/${first.id}/restore`));
    expect(restored).toMatchObject({
      restored: 1,
      created: false,
      record: { id: budget.id, amount: 100, description: 'original' },
    });
    const versions = await json(await owner.get(`/api/data-versions?tableName=budgets&recordId=${budget.id}`));
    expect(versions.map((v: Row) => [v.version, v.isActive])).toEqual([
      [3, true],
      [2, false],
      [1, false],
    ]);
    expect(versions[0].comment).toBe('Restored version 1');
    const [entry] = await json(await owner.get(`/api/audit-logs?tableName=budgets&recordId=${budget.id}&limit=1`));
    expect(entry).toMatchObject({
      action: 'update',
      reason: 'Restored version 1',
      changes: { amountCents: { old: 25050, new: 10000 } },
    });
  });

  it('brings a deleted record back with its id from its last version', async () => {
    const name = unique('Deleted department');
    const created = await json(await owner.post('/api/departments', { name }), 201);
    await status(await del(owner, `/api/departments/${created.id}`), 204);
    const [deleted] = await json(await owner.get(`/api/data-versions?tableName=departments&recordId=${created.id}`));
    expect(deleted).toMatchObject({ action: 'delete', isActive: true });
    const restored = await json(await owner.post(`/api/data-versions/${deleted.id}/restore`));
    expect(restored).toMatchObject({ created: true, record: { id: created.id, name } });
    await status(await owner.get(`/api/departments/${created.id}`), 200);
    const versions = await json(await owner.get(`/api/data-versions?tableName=departments&recordId=${created.id}`));
    expect(versions.filter((v: Row) => v.isActive)).toHaveLength(1);
    expect(versions[0]).toMatchObject({ version: 3, action: 'create', isActive: true, comment: 'Restored version 2' });
    // Restoring it again while it exists: it is already current.
    await status(await owner.post(`/api/data-versions/${versions[0].id}/restore`), 409);
  });

  it("refuses a restore today's rules refuse (its category was deleted), changing nothing", async () => {
    const cat = await category(ONE_NETWORK);
    const expense = await json(
      await owner.post('/api/actual-expenses', {
        departmentId: cat.departmentId,
        categoryId: cat.id,
        amount: 12,
        expenseDate: '2026-02-02',
        description: unique('Expense'),
      }),
      201,
    );
    await status(await del(owner, `/api/actual-expenses/${expense.id}`), 204);
    await status(await del(owner, `/api/expense-categories/${cat.id}`), 204);
    const [last] = await json(await owner.get(`/api/data-versions?tableName=actual_expenses&recordId=${expense.id}`));
    const auditBefore = Number(
      (
        await db()
          .selectFrom('auditLogs')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const refused = await owner.post(`/api/data-versions/${last.id}/restore`);
    await status(refused, 400);
    expect((await refused.json()).errors).toEqual([{ field: 'categoryId', message: 'Category not found' }]);
    await status(await owner.get(`/api/actual-expenses/${expense.id}`), 404);
    expect(
      Number(
        (
          await db()
            .selectFrom('auditLogs')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(auditBefore);
    // User accounts are not restored from here.
    const userVersion = await db()
      .selectFrom('dataVersions')
      .select('id')
      .where('tableName', '=', 'users')
      .executeTakeFirst();
    if (userVersion) await status(await owner.post(`/api/data-versions/${userVersion.id}/restore`), 409);
    await status(await owner.post('/api/data-versions/99999999/restore'), 404);
  });

  it('needs the audit-logs permission; a company-limited reader sees only its company', async () => {
    for (const path of [
      '/api/audit-logs',
      '/api/audit-logs/anomalies',
      '/api/data-versions?tableName=departments&recordId=1',
    ]) {
      await status(await editor.get(path), 403);
    }
    await status(await editor.post('/api/data-versions/1/restore'), 403);

    const oneNetworkCategory = await category(ONE_NETWORK);
    const vultCategory = await category(VULT);
    const entries = await json(await vultAdmin.get('/api/audit-logs?tableName=expense_categories&limit=1000'));
    const ids = entries.map((e: Row) => e.recordId);
    expect(ids).toContain(vultCategory.id);
    expect(ids).not.toContain(oneNetworkCategory.id);
    expect(
      await json(
        await vultAdmin.get(`/api/data-versions?tableName=expense_categories&recordId=${oneNetworkCategory.id}`),
      ),
    ).toEqual([]);
    const [version] = await json(
      await owner.get(`/api/data-versions?tableName=expense_categories&recordId=${oneNetworkCategory.id}`),
    );
    await status(await vultAdmin.post(`/api/data-versions/${version.id}/restore`), 404);
    // Shared departments belong to no company: not in a company-limited reader's trail.
    expect(await json(await vultAdmin.get('/api/audit-logs?tableName=departments'))).toEqual([]);
  });

  it('lists recorded security anomalies with the fixed text', async () => {
    await db()
      .insertInto('securityAnomalies')
      .values({
        userId: ownerId,
        username: 'anomalous',
        deleteCount: 6,
        windowStart: '2026-11-01T10:00:00.000Z',
        windowEnd: '2026-11-01T10:06:00.000Z',
        description:
          'Multiple delete operations detected from this user. This may indicate unauthorized access or data manipulation.',
        createdAt: '2026-11-01T10:10:00.000Z',
      })
      .execute();
    const anomalies = await json(await owner.get('/api/audit-logs/anomalies'));
    expect(anomalies[0]).toMatchObject({ username: 'anomalous', deleteCount: 6, anomalyType: 'multiple_deletes' });
    // The owner (no company) is not a Vult user: a Vult-limited reader does not see it.
    expect(await json(await vultAdmin.get('/api/audit-logs/anomalies'))).toEqual([]);
  });

  it('never keeps a password hash or a temporary password in audit or version data', async () => {
    const created = await json(
      await owner.post('/api/users', {
        username: `secret${tag}`,
        email: `secret-${tag}@example.com`,
        password: 'Secret-Password-9',
        role: 'viewer',
        companyId: VULT,
      }),
      201,
    );
    await status(
      await owner.post(`/api/users/${created.id}/change-password`, { newPassword: 'Changed-Password-8' }),
      200,
    );
    const temporary = await json(await owner.post(`/api/users/${created.id}/temporary-password`, {}));
    const hash = (
      await db().selectFrom('users').select('passwordHash').where('id', '=', created.id).executeTakeFirstOrThrow()
    ).passwordHash;
    const audit = await db()
      .selectFrom('auditLogs')
      .select(['oldData', 'newData', 'changes'])
      .where('tableName', '=', 'users')
      .where('recordId', '=', created.id)
      .execute();
    const versions = await db()
      .selectFrom('dataVersions')
      .select('data')
      .where('tableName', '=', 'users')
      .where('recordId', '=', created.id)
      .execute();
    expect(audit.length).toBeGreaterThanOrEqual(3);
    const text = JSON.stringify([audit, versions]);
    for (const secret of [
      hash,
      temporary.temporaryPassword,
      'Secret-Password-9',
      'Changed-Password-8',
      'passwordHash',
      'tokenHash',
    ]) {
      expect(text).not.toContain(secret);
    }
    // And the API shows the same redacted data.
    expect(
      JSON.stringify(await json(await owner.get(`/api/audit-logs?tableName=users&recordId=${created.id}`))),
    ).not.toContain('passwordHash');
    const sessions = await db()
      .selectFrom('auditLogs')
      .select('newData')
      .where('tableName', '=', 'user_sessions')
      .execute();
    expect(JSON.stringify(sessions)).not.toContain('tokenHash');
  });
});
