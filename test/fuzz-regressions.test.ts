// Regressions found by the fuzz suite (test/fuzz.test.ts), pinned as plain examples on every
// test dialect.
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS, OWNER_PASSWORD } from './database.ts';
import { type TestClient, useTestServer } from './server.ts';
import { createTestUser } from './users.ts';

/** Above PostgreSQL's integer range (2_147_483_647): no such row, never a 500. */
const TOO_BIG = ['2147483648', '99999999999', '9007199254740991'];

describe.each(TEST_DIALECTS)('fuzz findings on %s', (dialect) => {
  const { db, client, server } = useTestServer(dialect, {
    env: { API_RATE_LIMIT_PER_MINUTE: '100000', API_RATE_LIMIT_PER_HOUR: '1000000' },
  });
  let owner: TestClient;
  const json = (method: string, body: unknown = {}) => ({ method, json: body, headers: { Origin: server().baseUrl } });

  beforeAll(async () => {
    owner = client();
    await owner.login('owner@example.com', OWNER_PASSWORD);
  });

  it('ids above the integer range are 404 on the item routes', async () => {
    for (const id of TOO_BIG) {
      for (const [method, path] of [
        ['GET', `/api/companies/${id}`],
        ['PUT', `/api/companies/${id}`],
        ['DELETE', `/api/departments/${id}`],
        ['PUT', `/api/budgets/${id}`],
        ['GET', `/api/users/${id}`],
        ['PUT', `/api/users/${id}`],
        ['POST', `/api/users/${id}/change-password`],
        ['POST', `/api/users/${id}/temporary-password`],
        ['PUT', `/api/users/${id}/deactivate`],
        ['PUT', `/api/users/${id}/permissions`],
      ] as const) {
        const response = await owner.request(
          path,
          method === 'GET' ? { method } : json(method, method === 'POST' ? { newPassword: 'Password-123' } : {}),
        );
        expect(response.status, `${method} ${path}`).toBe(404);
      }
    }
  });

  it('a reference above the integer range is a 400, not a 500', async () => {
    const response = await owner.request(
      '/api/actual-revenues',
      json('POST', {
        companyId: 2147483648,
        source: 'Fees',
        amount: 10,
        revenueDate: '2026-03-15',
      }),
    );
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.errors).toEqual([expect.objectContaining({ field: 'companyId' })]);
  });

  it('screen forms with ids above the integer range are refused without a 500', async () => {
    const target = await createTestUser(db(), { role: 'viewer' });
    for (const id of TOO_BIG) {
      for (const [path, intent] of [
        ['/departments', 'delete'],
        ['/departments', 'update'],
        ['/expense-categories', 'remap'],
        ['/user-management', 'deactivate'],
        ['/user-management', 'delete'],
      ]) {
        const response = await owner.postForm(path, { intent, id, confirmed: '1', name: 'X', departmentId: '1' });
        expect(response.status, `${path} ${intent} ${id}`).toBeGreaterThanOrEqual(400);
        expect(response.status, `${path} ${intent} ${id}`).toBeLessThan(500);
      }
    }
    const row = await db().selectFrom('users').select('isActive').where('id', '=', target.id).executeTakeFirstOrThrow();
    expect(Boolean(row.isActive)).toBe(true);
  });

  it('text with a NUL character is a 400 (PostgreSQL cannot store it), never a 500', async () => {
    const nul = 'a\u0000b';
    const refused = async (response: Response, field: string) => {
      expect(response.status, `${response.url} ${field}`).toBe(400);
      expect((await response.json()).errors).toEqual([expect.objectContaining({ field })]);
    };
    await refused(await owner.request('/api/departments', json('POST', { name: nul })), 'name');
    await refused(
      await owner.request('/api/companies', json('POST', { name: 'Nul Co', type: 'marketing', description: nul })),
      'description',
    );
    await refused(
      await owner.request(
        '/api/users',
        json('POST', { username: nul, email: 'nul-user@example.com', password: 'Password-123', role: 'viewer' }),
      ),
      'username',
    );
    await refused(
      await owner.request(
        '/api/users',
        json('POST', {
          username: 'nul-user',
          email: 'nul-user@example.com',
          password: 'Password-123',
          role: 'viewer',
          fullName: nul,
        }),
      ),
      'fullName',
    );
    const me = await owner.get('/api/auth/me').then((r) => r.json());
    const ownId = me.user?.id ?? me.id;
    await refused(
      await owner.request(
        `/api/users/${ownId}`,
        json('PATCH', { username: 'owner', email: 'owner@example.com', position: nul }),
      ),
      'position',
    );
    const form = await owner.postForm('/departments', { intent: 'create', name: nul });
    expect(form.status).toBe(400);
    expect(await db().selectFrom('departments').select('id').where('name', 'like', 'a%b').execute()).toEqual([]);
    // Searches with a NUL find nothing rather than failing.
    for (const path of [
      '/api/companies?q=%00',
      '/api/users?search=a%00b',
      '/api/users/activity/history?tableName=%00',
      '/api/users?company=%00',
      '/api/budgets?status=a%00',
      '/departments?q=%00',
      '/user-management?q=%00',
    ]) {
      expect((await owner.get(path)).status, path).toBeLessThan(500);
    }
  });
});
