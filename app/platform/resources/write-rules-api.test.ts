// Write rules of the JSON API over real HTTP on every test dialect: unknown fields are a 400
// that writes nothing, an update that changes nothing writes nothing (no audit entry, no new
// version), and names that must be unique are compared case-insensitively after NFKC.
import { beforeAll, describe, expect, it } from 'vitest';
import { OWNER_PASSWORD, TEST_DIALECTS } from '../../../test/database.ts';
import { type TestClient, useTestServer } from '../../../test/server.ts';
import { createTestUser, TEST_PASSWORD } from '../../../test/users.ts';

describe.each(TEST_DIALECTS)('API write rules on %s', (dialect) => {
  const { db, client } = useTestServer(dialect, {
    env: { API_RATE_LIMIT_PER_MINUTE: '100000', API_RATE_LIMIT_PER_HOUR: '1000000' },
  });
  const tag = Math.random().toString(36).slice(2, 7);
  let owner: TestClient;

  beforeAll(async () => {
    owner = client();
    await owner.login('owner@example.com', OWNER_PASSWORD);
  });

  const count = async (table: 'companies' | 'departments' | 'users' | 'auditLogs' | 'dataVersions') =>
    Number(
      (
        await db()
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const counts = async () => ({
    companies: await count('companies'),
    departments: await count('departments'),
    users: await count('users'),
    audit: await count('auditLogs'),
    versions: await count('dataVersions'),
  });

  async function expectInvalid(response: Response, errors: { field: string; message: string }[]) {
    expect(response.status, await response.clone().text()).toBe(400);
    const body = await response.json();
    expect(body.message).toBe('Invalid data');
    expect(body.errors).toEqual(expect.arrayContaining(errors));
  }

  describe('unknown fields and empty updates', () => {
    it('a resource create or update with an unknown field is a 400 naming it, and writes nothing', async () => {
      const created = await owner.post('/api/companies', { name: `Strict ${tag}`, type: 'marketing' });
      expect(created.status).toBe(201);
      const company = await created.json();
      const before = await counts();
      await expectInvalid(
        await owner.post('/api/companies', { name: `Strict 2 ${tag}`, type: 'marketing', isAdmin: true }),
        [{ field: 'isAdmin', message: 'Unknown field' }],
      );
      await expectInvalid(
        await owner.request(`/api/companies/${company.id}`, { method: 'PUT', json: { description: 'x', bogus: 1 } }),
        [{ field: 'bogus', message: 'Unknown field' }],
      );
      await expectInvalid(
        await owner.request(`/api/companies/${company.id}`, { method: 'PUT', json: { createdBy: 1 } }),
        [{ field: 'createdBy', message: 'Unknown field' }],
      );
      expect(await counts()).toEqual(before);
      expect((await (await owner.get(`/api/companies/${company.id}`)).json()).description).toBe(company.description);
    });

    it('an empty PUT, or one repeating the stored values, answers 200 with the record and writes nothing', async () => {
      const company = await (
        await owner.post('/api/companies', { name: `Same ${tag}`, type: 'marketing', description: 'kept' })
      ).json();
      const before = await counts();
      const empty = await owner.request(`/api/companies/${company.id}`, { method: 'PUT', json: {} });
      expect(empty.status).toBe(200);
      expect(await empty.json()).toMatchObject({
        id: company.id,
        name: company.name,
        description: 'kept',
        updatedAt: company.updatedAt,
      });
      const same = await owner.request(`/api/companies/${company.id}`, {
        method: 'PUT',
        json: { name: company.name, description: 'kept' },
      });
      expect(same.status).toBe(200);
      expect(await counts()).toEqual(before);
      // A real change still writes one audit entry and one version.
      expect(
        (await owner.request(`/api/companies/${company.id}`, { method: 'PUT', json: { description: 'changed' } }))
          .status,
      ).toBe(200);
      expect(await counts()).toEqual({ ...before, audit: before.audit + 1, versions: before.versions + 1 });
    });

    it('users and profile: an unknown field is a 400 and writes nothing; an empty PUT writes nothing', async () => {
      const user = await createTestUser(db(), { role: 'viewer' });
      const self = client();
      await self.login(user.email, TEST_PASSWORD); // audited: counted before
      const before = await counts();
      await expectInvalid(
        await owner.post('/api/users', {
          username: `u${tag}`,
          email: `u-${tag}@example.com`,
          password: 'Long-Enough-1',
          role: 'viewer',
          isOwner: true,
        }),
        [{ field: 'isOwner', message: 'Unknown field' }],
      );
      await expectInvalid(
        await owner.request(`/api/users/${user.id}`, { method: 'PUT', json: { role: 'editor', canManageUsers: true } }),
        [{ field: 'canManageUsers', message: 'Unknown field' }],
      );
      await expectInvalid(
        await self.request(`/api/users/${user.id}`, {
          method: 'PATCH',
          json: { username: user.username, email: user.email, role: 'owner' },
        }),
        [{ field: 'role', message: 'Unknown field' }],
      );
      const settings = await self.request('/api/user-settings', { method: 'PUT', json: { theme: 'dark', bogus: 1 } });
      expect(settings.status).toBe(400);
      expect(JSON.stringify((await settings.json()).errors)).toContain('bogus');
      const empty = await owner.request(`/api/users/${user.id}`, { method: 'PUT', json: {} });
      expect(empty.status).toBe(200);
      expect(await counts()).toEqual(before);
      expect(
        (await db().selectFrom('users').select('role').where('id', '=', user.id).executeTakeFirstOrThrow()).role,
      ).toBe('viewer');
    });
  });

  describe('names unique case-insensitively after NFKC', () => {
    it('companies and departments: other case or full-width forms of a taken name are refused', async () => {
      await expectInvalidCreate(
        '/api/companies',
        { name: `Uniq ${tag}`, type: 'marketing' },
        (name) => ({ name, type: 'marketing' }),
        'A company with this name already exists',
      );
      await expectInvalidCreate(
        '/api/departments',
        { name: `Dept ${tag}` },
        (name) => ({ name }),
        'A department with this name already exists',
      );
    });

    async function expectInvalidCreate(
      path: string,
      first: { name: string; type?: string },
      body: (name: string) => Record<string, unknown>,
      message: string,
    ) {
      const created = await owner.post(path, first);
      expect(created.status).toBe(201);
      const stored = await created.json();
      const before = await counts();
      const fullWidth = [...first.name]
        .map((ch) => (ch >= '!' && ch <= '~' ? String.fromCharCode(ch.charCodeAt(0) + 0xfee0) : ch))
        .join('');
      for (const name of [first.name.toLowerCase(), first.name.toUpperCase(), ` ${first.name} `, fullWidth]) {
        await expectInvalid(await owner.post(path, body(name)), [{ field: 'name', message }]);
      }
      // Renaming another row to such a spelling is refused too.
      const other = await (await owner.post(path, body(`Other ${first.name}`))).json();
      await expectInvalid(
        await owner.request(`${path}/${other.id}`, { method: 'PUT', json: { name: fullWidth.toUpperCase() } }),
        [{ field: 'name', message }],
      );
      expect((await counts()).audit).toBe(before.audit + 1);
      expect(stored.name).toBe(first.name);
    }

    it('users: usernames and e-mails differing only in case or width are taken', async () => {
      const user = await createTestUser(db(), { role: 'viewer' });
      const upper = user.username.toUpperCase();
      const fullWidth = [...user.username]
        .map((ch) => (ch >= '!' && ch <= '~' ? String.fromCharCode(ch.charCodeAt(0) + 0xfee0) : ch))
        .join('');
      for (const username of [upper, fullWidth]) {
        const response = await owner.post('/api/users', {
          username,
          email: `n-${tag}-${username.length}-${Math.random()}@example.com`.replace(/[^a-z0-9@.-]/g, ''),
          password: 'Long-Enough-1',
          role: 'viewer',
        });
        expect(response.status, username).toBe(409);
        expect((await response.json()).errors).toEqual([
          { field: 'username', message: 'A user with this username already exists' },
        ]);
      }
      const byEmail = await owner.post('/api/users', {
        username: `fresh_${tag}`,
        email: user.email.toUpperCase(),
        password: 'Long-Enough-1',
        role: 'viewer',
      });
      expect(byEmail.status).toBe(409);
      // A new name is stored NFKC-normalised: full-width letters become plain ones.
      const created = await owner.post('/api/users', {
        username: `ｎｅｗ_${tag}`,
        email: `new-${tag}@example.com`,
        password: 'Long-Enough-1',
        role: 'viewer',
      });
      expect(created.status).toBe(201);
      expect(
        (
          await db()
            .selectFrom('users')
            .select('username')
            .where('email', '=', `new-${tag}@example.com`)
            .executeTakeFirstOrThrow()
        ).username,
      ).toBe(`new_${tag}`);
    });
  });
});
