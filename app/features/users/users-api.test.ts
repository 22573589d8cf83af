// The Users JSON API (docs/api.md, docs/security.md, docs/writes.md) over real HTTP on every test
// dialect and every role: the paged list, create, edit, permissions, deactivate/reactivate,
// temporary passwords, delete, statistics, activity analytics and history, and one's own
// profile — with the owner protections, company scope, sessions ended at once and audit
// entries free of password data.
import crypto from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { EMAIL_MESSAGE } from '../auth/schemas.ts';
import { REQUIRED_MESSAGE } from '../settings/profile-schemas.ts';
import { EMAIL_TAKEN, USERNAME_TAKEN } from '../settings/profile.server.ts';
import { hashToken } from '../../platform/session/sessions.server.ts';
import { refreshActivityWindow } from './activity-window.server.ts';
import { CreatedUserAnswer } from './answers.ts';
import { OWNER_PASSWORD, TEST_DIALECTS } from '../../../test/database.ts';
import { type TestClient, useTestServer } from '../../../test/server.ts';
import { createTestUser, TEST_PASSWORD } from '../../../test/users.ts';

const OWNER = 'owner@example.com';

async function expectStatus(response: Response, status: number) {
  if (response.status !== status) {
    expect(response.status, `${response.url}: ${await response.clone().text()}`).toBe(status);
  }
}

async function expectError(response: Response, status: number, message: string) {
  await expectStatus(response, status);
  expect(response.headers.get('Content-Type')).toContain('application/json');
  expect((await response.json()).message).toBe(message);
}

async function expectInvalid(response: Response, errors: { field: string; message: string }[]) {
  await expectStatus(response, 400);
  const body = await response.json();
  expect(body.message).toBe('Invalid data');
  expect(body.errors).toEqual(expect.arrayContaining(errors));
}

describe.each(TEST_DIALECTS)('/api/users on %s', (dialect) => {
  const { db, client } = useTestServer(dialect, {
    env: { API_RATE_LIMIT_PER_MINUTE: '100000', API_RATE_LIMIT_PER_HOUR: '1000000' },
  });

  const tag = Math.random().toString(36).slice(2, 7);
  let serial = 0;
  const address = (prefix: string) => `${prefix}-${tag}-${++serial}@example.com`;

  let owner: TestClient;
  let ownerId: number;
  let admin: TestClient;
  let adminId: number;
  let editor: TestClient;
  let viewer: TestClient;
  /** An admin limited to Vult. */
  let scopedAdmin: TestClient;
  let vult: number;
  let atlas: number;

  async function signedIn(options: Parameters<typeof createTestUser>[1] = {}) {
    const user = await createTestUser(db(), options);
    const c = client();
    await c.login(user.email, TEST_PASSWORD);
    return { c, ...user };
  }

  const companyId = async (name: string) =>
    (await db().selectFrom('companies').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  const userCount = async () =>
    Number(
      (
        await db()
          .selectFrom('users')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const storedUser = (id: number) => db().selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  const auditOf = (id: number) =>
    db()
      .selectFrom('auditLogs')
      .selectAll()
      .where('tableName', '=', 'users')
      .where('recordId', '=', id)
      .orderBy('id')
      .execute();
  const noSecrets = (value: unknown) =>
    expect(JSON.stringify(value)).not.toMatch(/passwordHash|password_hash|\$argon2|temporaryPassword|Password-1/);

  beforeAll(async () => {
    vult = await companyId('Vult');
    atlas = await companyId('Atlas Infrastructure');
    owner = client();
    ownerId = (await owner.login(OWNER, OWNER_PASSWORD)).user.id;
    const a = await signedIn({ role: 'admin' });
    admin = a.c;
    adminId = a.id;
    editor = (await signedIn({ role: 'editor' })).c;
    viewer = (await signedIn({ role: 'viewer' })).c;
    scopedAdmin = (await signedIn({ role: 'admin', companyId: vult })).c;
  });

  describe('access', () => {
    it('401 without a session; 403 for editors and viewers on every manage-users call', async () => {
      await expectError(await client().get('/api/users'), 401, 'Not authenticated');
      const target = await createTestUser(db(), { role: 'viewer' });
      for (const c of [editor, viewer]) {
        await expectError(await c.get('/api/users'), 403, 'Forbidden');
        await expectError(await c.get('/api/users/stats'), 403, 'Forbidden');
        await expectError(await c.get('/api/users/activity/analytics'), 403, 'Forbidden');
        await expectError(await c.get('/api/users/activity/statistics'), 403, 'Forbidden');
        await expectError(await c.get('/api/users/activity/history'), 403, 'Forbidden');
        await expectError(
          await c.post('/api/users', { username: 'x', email: address('x'), password: 'Long-Enough-1', role: 'viewer' }),
          403,
          'Forbidden',
        );
        await expectError(
          await c.request(`/api/users/${target.id}`, { method: 'PUT', json: { username: 'hijack' } }),
          403,
          'Forbidden',
        );
        await expectError(await c.request(`/api/users/${target.id}/deactivate`, { method: 'PUT' }), 403, 'Forbidden');
        await expectError(
          await c.request(`/api/users/${target.id}/permissions`, { method: 'PUT', json: { canDelete: true } }),
          403,
          'Forbidden',
        );
        await expectError(await c.post(`/api/users/${target.id}/temporary-password`), 403, 'Forbidden');
        await expectError(await c.request(`/api/users/${target.id}`, { method: 'DELETE' }), 403, 'Forbidden');
      }
      expect(await storedUser(target.id)).toMatchObject({
        username: target.username,
        isActive: true,
        canDelete: false,
      });
    });

    it('unknown ids and non-numeric ids are 404; wrong methods 405', async () => {
      await expectError(await owner.get('/api/users/999999'), 404, 'Resource not found');
      await expectError(await owner.request('/api/users/abc', { method: 'PUT', json: {} }), 404, 'Resource not found');
      await expectError(
        await owner.request('/api/users/99999999999/deactivate', { method: 'PUT' }),
        404,
        'Resource not found',
      );
      await expectInvalid(
        await owner.post('/api/users', {
          username: 'big',
          email: 'big@example.com',
          password: 'Long-Enough-1',
          companyId: 99999999999,
        }),
        [{ field: 'companyId', message: 'Company not found' }],
      );
      await expectInvalid(
        await owner.post('/api/users', {
          username: 'long',
          email: `${'a'.repeat(250)}@example.com`,
          password: 'Long-Enough-1',
        }),
        [{ field: 'email', message: 'Email must be at most 255 characters' }],
      );
      await expectInvalid(await owner.post('/api/users', ['not', 'an', 'object']), [
        { field: 'body', message: expect.any(String) as unknown as string },
      ]);
      expect((await owner.request('/api/users/stats', { method: 'POST', json: {} })).status).toBe(405);
    });
  });

  describe('GET /api/users', () => {
    let made: { id: number; email: string }[];
    beforeAll(async () => {
      made = [];
      for (const [i, role] of (['viewer', 'editor', 'viewer', 'editor', 'viewer'] as const).entries()) {
        made.push(
          await createTestUser(db(), {
            role,
            email: `list${tag}-${i}@example.com`,
            companyId: i < 2 ? vult : atlas,
            isActive: i !== 4,
          }),
        );
      }
    });

    it('{ users, total, totalPages }, 10 a page by default, newest first, with company{name} and never the hash', async () => {
      const response = await owner.get('/api/users');
      await expectStatus(response, 200);
      const body = await response.json();
      expect(Object.keys(body).sort()).toEqual(['total', 'totalPages', 'users']);
      expect(body.total).toBe(await userCount());
      expect(body.totalPages).toBe(Math.ceil(body.total / 10));
      expect(body.users.length).toBe(Math.min(10, body.total));
      expect(response.headers.get('X-Total-Count')).toBe(String(body.total));
      const created = body.users.map((u: any) => u.createdAt);
      expect([...created].sort().reverse()).toEqual(created);
      noSecrets(body);
      const withCompany = body.users.find((u: any) => u.companyId === vult);
      if (withCompany) expect(withCompany.company).toEqual({ id: vult, name: 'Vult' });
      expect(body.users.find((u: any) => u.companyId === null)?.company ?? null).toBeNull();
    });

    it('search, role, company (id or name), isActive, sort and pages', async () => {
      const page = async (query: string) => {
        const response = await owner.get(`/api/users?${query}`);
        await expectStatus(response, 200);
        return response.json();
      };
      const all = await page(`search=LIST${tag}&isActive=all&sortBy=email&sortOrder=asc&limit=2`);
      expect(all.total).toBe(5);
      expect(all.totalPages).toBe(3);
      expect(all.users.map((u: any) => u.email)).toEqual([made[0].email, made[1].email]);
      const third = await page(`search=list${tag}&sortBy=email&sortOrder=asc&limit=2&page=3&isActive=all`);
      expect(third.users.map((u: any) => u.email)).toEqual([made[4].email]);
      const paged = await owner.get(`/api/users?search=list${tag}&isActive=all&limit=2`);
      expect(paged.headers.get('Link')).toBe(`</api/users?search=list${tag}&isActive=all&limit=2&page=2>; rel="next"`);
      expect(
        (await owner.get(`/api/users?search=list${tag}&isActive=all&limit=2&page=3`)).headers.get('Link'),
      ).toBeNull();
      expect((await page(`search=list${tag}&isActive=true`)).total).toBe(4);
      const inactive = await page(`search=list${tag}&isActive=false`);
      expect(inactive.users.map((u: any) => u.id)).toEqual([made[4].id]);
      expect((await page(`search=list${tag}&role=editor`)).users.map((u: any) => u.id).sort()).toEqual(
        [made[1].id, made[3].id].sort(),
      );
      expect((await page(`search=list${tag}&company=${vult}`)).total).toBe(2);
      expect((await page(`search=list${tag}&company=atlas%20infrastructure&isActive=all`)).total).toBe(3);
      expect((await page(`search=list${tag}&company=all&role=all`)).total).toBe(5);
      const desc = await page(`search=list${tag}&sortBy=email&sortOrder=desc&isActive=all`);
      expect(desc.users.map((u: any) => u.email)).toEqual(made.map((m) => m.email).reverse());
      // A LIKE wildcard in the search text is literal.
      expect((await page(`search=${encodeURIComponent('%')}`)).total).toBe(0);
    });

    it('400 with field errors for bad parameters', async () => {
      await expectInvalid(
        await owner.get('/api/users?limit=0&page=x&sortBy=passwordHash&sortOrder=up&role=boss&isActive=maybe'),
        [
          { field: 'limit', message: 'limit must be an integer from 1 to 1000' },
          { field: 'page', message: 'page must be an integer from 1 to 1000000' },
          { field: 'sortBy', message: expect.stringContaining('sortBy must be one of') as unknown as string },
          { field: 'sortOrder', message: 'sortOrder must be asc or desc' },
          { field: 'role', message: 'role must be one of: owner, admin, editor, viewer' },
          { field: 'isActive', message: 'isActive must be true or false' },
        ],
      );
    });
  });

  describe('POST /api/users', () => {
    it('201 with the user; audited without password data; the user can sign in', async () => {
      const email = address('created');
      const response = await owner.post('/api/users', {
        username: `created${tag}${serial}`,
        email: email.toUpperCase(),
        password: 'Created-Pass-9',
        role: 'editor',
        companyId: vult,
        isTemporaryPassword: false,
      });
      await expectStatus(response, 201);
      const user = await response.json();
      expect(user).toMatchObject({
        email,
        role: 'editor',
        companyId: vult,
        company: { id: vult, name: 'Vult' },
        isActive: true,
        isTemporaryPassword: false,
      });
      expect(user.temporaryPassword).toBeUndefined();
      noSecrets(user);
      const audit = await auditOf(user.id);
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ action: 'create', userId: ownerId });
      noSecrets(audit);
      const login = await client().login(email, 'Created-Pass-9');
      expect(login.user.mustChangePassword).toBe(false);
    });

    it('temporaryPassword: true: a generated one is answered once and must be changed at sign-in; companyId "all" is null', async () => {
      const email = address('temp');
      const response = await admin.post('/api/users', {
        username: `temp${tag}${serial}`,
        email,
        role: 'viewer',
        companyId: 'all',
        temporaryPassword: true,
      });
      await expectStatus(response, 201);
      const body = await response.json();
      expect(CreatedUserAnswer.safeParse(body).error).toBeUndefined();
      expect(body.temporaryPassword).toMatch(/^[A-Za-z0-9]{14}$/);
      expect(body).toMatchObject({ companyId: null, isTemporaryPassword: true });
      const c = client();
      expect((await c.login(email, body.temporaryPassword)).user.mustChangePassword).toBe(true);
      await expectError(await c.get('/api/users/stats'), 403, 'Password change required');
      noSecrets(await auditOf(body.id));
    });

    it('400 with field errors and nothing written; 400 for bad JSON; 409 for a taken e-mail or username', async () => {
      const before = await userCount();
      const audits = Number(
        (
          await db()
            .selectFrom('auditLogs')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
      await expectInvalid(
        await owner.post('/api/users', { username: '', email: 'not-an-email', password: 'short', role: 'boss' }),
        [
          { field: 'username', message: 'Username is required' },
          { field: 'email', message: 'Must be a valid email address' },
          { field: 'password', message: 'Password must be at least 8 characters' },
          { field: 'role', message: 'Role must be one of: owner, admin, editor, viewer' },
        ],
      );
      // The Add User form's fields: a password and a role; a generated password only when asked for, alone.
      const named = { username: `req${tag}`, email: address('req') };
      await expectInvalid(await owner.post('/api/users', named), [
        { field: 'password', message: 'Password is required' },
        { field: 'role', message: 'Role is required' },
      ]);
      await expectInvalid(await owner.post('/api/users', { ...named, password: '', role: null }), [
        { field: 'password', message: 'Password is required' },
        { field: 'role', message: 'Role is required' },
      ]);
      await expectInvalid(await owner.post('/api/users', { ...named, role: 'viewer', temporaryPassword: false }), [
        { field: 'password', message: 'Password is required' },
      ]);
      const both = await owner.post('/api/users', {
        ...named,
        role: 'viewer',
        password: 'Long-Enough-1',
        temporaryPassword: true,
      });
      await expectStatus(both, 400);
      expect((await both.json()).errors).toEqual([
        { field: 'temporaryPassword', message: 'Give a password or ask for a temporary one, not both' },
      ]);
      const malformed = await owner.request('/api/users', {
        method: 'POST',
        body: '{"email":',
        headers: { 'Content-Type': 'application/json' },
      });
      await expectError(malformed, 400, 'Invalid data');
      await expectInvalid(
        await owner.post('/api/users', {
          username: `nc${tag}`,
          email: address('nc'),
          password: 'Long-Enough-1',
          role: 'viewer',
          companyId: 999999,
        }),
        [{ field: 'companyId', message: 'Company not found' }],
      );
      const taken = await createTestUser(db(), { role: 'viewer' });
      const dupEmail = await owner.post('/api/users', {
        username: `dup${tag}`,
        email: taken.email.toUpperCase(),
        password: 'Long-Enough-1',
        role: 'viewer',
      });
      await expectStatus(dupEmail, 409);
      expect(await dupEmail.json()).toEqual({
        message: 'A user with this email already exists',
        errors: [{ field: 'email', message: 'A user with this email already exists' }],
      });
      const dupName = await owner.post('/api/users', {
        username: taken.username,
        email: address('dupname'),
        password: 'Long-Enough-1',
        role: 'viewer',
      });
      await expectError(dupName, 409, 'A user with this username already exists');
      expect(await userCount()).toBe(before + 1);
      const after = Number(
        (
          await db()
            .selectFrom('auditLogs')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
      expect(after).toBe(audits);
    });

    it('only owners create owners and admins', async () => {
      for (const role of ['owner', 'admin']) {
        await expectError(
          await admin.post('/api/users', {
            username: `p${role}${tag}`,
            email: address(role),
            password: 'Long-Enough-1',
            role,
          }),
          403,
          'Forbidden',
        );
      }
      await expectStatus(
        await owner.post('/api/users', {
          username: `newadmin${tag}`,
          email: address('newadmin'),
          password: 'Long-Enough-1',
          role: 'admin',
        }),
        201,
      );
    });
  });

  describe('PUT /api/users/{id}', () => {
    it('edits username, email, role and company, audited with the changes', async () => {
      const user = await createTestUser(db(), { role: 'viewer' });
      const email = address('edited');
      const response = await admin.request(`/api/users/${user.id}`, {
        method: 'PUT',
        json: { username: `edited${tag}`, email, role: 'editor', companyId: atlas },
      });
      await expectStatus(response, 200);
      expect(await response.json()).toMatchObject({
        id: user.id,
        username: `edited${tag}`,
        email,
        role: 'editor',
        companyId: atlas,
        company: { name: 'Atlas Infrastructure' },
      });
      const audit = (await auditOf(user.id)).at(-1)!;
      expect(audit).toMatchObject({ action: 'update', userId: adminId, reason: 'User updated' });
      expect(Object.keys(audit.changes as object).sort()).toEqual(['companyId', 'email', 'role', 'username']);
      // A no-op edit writes nothing.
      const count = (await auditOf(user.id)).length;
      await expectStatus(
        await admin.request(`/api/users/${user.id}`, { method: 'PUT', json: { role: 'editor' } }),
        200,
      );
      expect((await auditOf(user.id)).length).toBe(count);
    });

    it('400 for bad input (the password is not edited here), 409 for a taken e-mail', async () => {
      const user = await createTestUser(db(), { role: 'viewer' });
      const other = await createTestUser(db(), { role: 'viewer' });
      await expectInvalid(
        await admin.request(`/api/users/${user.id}`, {
          method: 'PUT',
          json: { email: 'nope', role: 'king', password: 'New-Password-1' },
        }),
        [
          { field: 'email', message: 'Must be a valid email address' },
          { field: 'role', message: 'Role must be one of: owner, admin, editor, viewer' },
        ],
      );
      const taken = await admin.request(`/api/users/${user.id}`, { method: 'PUT', json: { email: other.email } });
      await expectError(taken, 409, 'A user with this email already exists');
      expect(await storedUser(user.id)).toMatchObject({ email: user.email, role: 'viewer' });
    });

    it('an admin cannot edit an owner or an admin, nor make someone an admin; an owner can', async () => {
      const otherAdmin = await createTestUser(db(), { role: 'admin' });
      const user = await createTestUser(db(), { role: 'viewer' });
      await expectError(
        await admin.request(`/api/users/${ownerId}`, { method: 'PUT', json: { username: 'taken-over' } }),
        403,
        'Forbidden',
      );
      await expectError(
        await admin.request(`/api/users/${otherAdmin.id}`, { method: 'PUT', json: { role: 'viewer' } }),
        403,
        'Forbidden',
      );
      await expectError(
        await admin.request(`/api/users/${user.id}`, { method: 'PUT', json: { role: 'admin' } }),
        403,
        'Forbidden',
      );
      expect((await storedUser(ownerId))!.username).not.toBe('taken-over');
      await expectStatus(
        await owner.request(`/api/users/${otherAdmin.id}`, { method: 'PUT', json: { role: 'editor' } }),
        200,
      );
      await expectError(
        await owner.request(`/api/users/${ownerId}`, { method: 'PUT', json: { role: 'viewer' } }),
        403,
        'You cannot change your own role or company',
      );
    });
  });

  describe('PUT /api/users/{id}/permissions', () => {
    it('sets the ten flags; the user gains what they open', async () => {
      const { c, id } = await signedIn({ role: 'viewer' });
      await expectError(await c.get('/api/users/stats'), 403, 'Forbidden');
      const response = await owner.request(`/api/users/${id}/permissions`, {
        method: 'PUT',
        json: { canManageUsers: true, canAccessBackups: true, canDelete: false },
      });
      await expectStatus(response, 200);
      expect(await response.json()).toMatchObject({
        id,
        canManageUsers: true,
        canAccessBackups: true,
        canDelete: false,
        canCreate: false,
      });
      await expectStatus(await c.get('/api/users/stats'), 200);
      const audit = (await auditOf(id)).at(-1)!;
      expect(audit).toMatchObject({
        action: 'update',
        reason: 'Permissions updated',
        changes: { canManageUsers: { old: false, new: true }, canAccessBackups: { old: false, new: true } },
      });

      // A manager who is not an owner cannot grant what they lack, nor change their own flags.
      const target = await createTestUser(db(), { role: 'viewer' });
      await expectError(
        await c.request(`/api/users/${target.id}/permissions`, { method: 'PUT', json: { canDelete: true } }),
        403,
        'You cannot grant permissions you do not have',
      );
      await expectStatus(
        await c.request(`/api/users/${target.id}/permissions`, { method: 'PUT', json: { canAccessBackups: true } }),
        200,
      );
      await expectError(
        await c.request(`/api/users/${id}/permissions`, { method: 'PUT', json: { canDelete: true } }),
        403,
        'You cannot change your own permissions',
      );
      // Nor give a role whose baseline goes beyond their own (editors may create and edit).
      await expectError(
        await c.request(`/api/users/${target.id}`, { method: 'PUT', json: { role: 'editor' } }),
        403,
        'You cannot grant permissions you do not have',
      );
      expect((await storedUser(target.id))!.role).toBe('viewer');
    });

    it('400 for non-boolean or unknown flags, nothing written', async () => {
      const user = await createTestUser(db(), { role: 'viewer' });
      await expectInvalid(
        await owner.request(`/api/users/${user.id}/permissions`, { method: 'PUT', json: { canDelete: 'yes' } }),
        [{ field: 'canDelete', message: 'canDelete must be true or false' }],
      );
      const unknown = await owner.request(`/api/users/${user.id}/permissions`, {
        method: 'PUT',
        json: { canDelete: true, isAdmin: true },
      });
      await expectStatus(unknown, 400);
      expect((await unknown.json()).errors[0].message).toBe('Unknown permission: isAdmin');
      expect((await storedUser(user.id))!.canDelete).toBe(false);
      expect(await auditOf(user.id)).toHaveLength(0);
    });
  });

  describe('deactivate, reactivate, delete', () => {
    it("deactivation ends the user's sessions at once; reactivation lets them sign in again", async () => {
      const { c, id, email } = await signedIn({ role: 'editor' });
      await expectStatus(await c.get('/api/auth/me'), 200);
      const response = await admin.request(`/api/users/${id}/deactivate`, { method: 'PUT' });
      await expectStatus(response, 200);
      expect((await response.json()).isActive).toBe(false);
      await expectError(await c.get('/api/auth/me'), 401, 'Not authenticated');
      const sessions = await db()
        .selectFrom('userSessions')
        .select(['isActive', 'endReason'])
        .where('userId', '=', id)
        .execute();
      expect(sessions.every((s) => !s.isActive && s.endReason === 'deactivated')).toBe(true);
      expect((await client().post('/api/auth/login', { email, password: TEST_PASSWORD })).status).toBe(401);
      expect((await auditOf(id)).filter((a) => a.action === 'update').at(-1)).toMatchObject({
        action: 'update',
        reason: 'User deactivated',
        changes: { isActive: { old: true, new: false } },
      });

      const back = await admin.request(`/api/users/${id}/reactivate`, { method: 'PUT' });
      await expectStatus(back, 200);
      expect((await back.json()).isActive).toBe(true);
      await client().login(email, TEST_PASSWORD);
    });

    it('nobody deactivates or deletes an owner or themselves; an admin cannot remove another admin', async () => {
      await expectError(
        await admin.request(`/api/users/${ownerId}/deactivate`, { method: 'PUT' }),
        403,
        'Owners cannot be deactivated or deleted',
      );
      await expectError(
        await admin.request(`/api/users/${ownerId}`, { method: 'DELETE' }),
        403,
        'Owners cannot be deactivated or deleted',
      );
      await expectError(
        await owner.request(`/api/users/${ownerId}`, { method: 'DELETE' }),
        403,
        'Owners cannot be deactivated or deleted',
      );
      await expectError(
        await admin.request(`/api/users/${adminId}/deactivate`, { method: 'PUT' }),
        403,
        'You cannot deactivate or delete your own account',
      );
      await expectError(
        await admin.request(`/api/users/${adminId}`, { method: 'DELETE' }),
        403,
        'You cannot deactivate or delete your own account',
      );
      const otherAdmin = await createTestUser(db(), { role: 'admin' });
      await expectError(await admin.request(`/api/users/${otherAdmin.id}`, { method: 'DELETE' }), 403, 'Forbidden');
      expect(await storedUser(ownerId)).toMatchObject({ isActive: true });
      expect(await storedUser(adminId)).toMatchObject({ isActive: true });
      expect(await storedUser(otherAdmin.id)).toBeDefined();
      await expectStatus(await admin.get('/api/users/stats'), 200);
    });

    it('delete: 204, the session ends, the row is gone, the audit keeps the old data without the hash', async () => {
      const { c, id, email } = await signedIn({ role: 'viewer' });
      const response = await admin.request(`/api/users/${id}`, { method: 'DELETE' });
      await expectStatus(response, 204);
      await expectError(await c.get('/api/auth/me'), 401, 'Not authenticated');
      expect(await storedUser(id)).toBeUndefined();
      await expectError(await admin.get(`/api/users/${id}`), 404, 'Resource not found');
      const entry = (await auditOf(id)).find((a) => a.action === 'delete')!;
      expect(entry).toMatchObject({ userId: adminId, reason: 'User deleted' });
      expect((entry.oldData as Record<string, unknown>).email).toBe(email);
      noSecrets(entry);
    });
  });

  describe('POST /api/users/{id}/temporary-password', () => {
    it('answers { temporaryPassword }, ends sessions, and the next sign-in must change it', async () => {
      const { c, id, email } = await signedIn({ role: 'viewer' });
      const response = await admin.post(`/api/users/${id}/temporary-password`);
      await expectStatus(response, 200);
      const body = await response.json();
      expect(Object.keys(body)).toEqual(['temporaryPassword']);
      expect(body.temporaryPassword).toMatch(/^[A-Za-z0-9]{14}$/);
      await expectError(await c.get('/api/auth/me'), 401, 'Not authenticated');
      expect((await client().post('/api/auth/login', { email, password: TEST_PASSWORD })).status).toBe(401);
      const fresh = client();
      expect((await fresh.login(email, body.temporaryPassword)).user.mustChangePassword).toBe(true);
      await expectError(await fresh.get(`/api/users/${id}`), 403, 'Password change required');
      const changed = await fresh.post('/api/auth/change-password', {
        currentPassword: body.temporaryPassword,
        newPassword: 'My-Own-Password-2',
      });
      await expectStatus(changed, 200);
      await expectStatus(await fresh.get(`/api/users/${id}`), 200);
      const audit = await auditOf(id);
      expect(audit.find((a) => a.reason === 'Temporary password created')).toMatchObject({
        action: 'update',
        userId: adminId,
      });
      noSecrets(audit);
      expect(JSON.stringify(audit)).not.toContain(body.temporaryPassword);
    });

    it("an admin cannot reset an owner's password; nobody resets their own here", async () => {
      await expectError(await admin.post(`/api/users/${ownerId}/temporary-password`), 403, 'Forbidden');
      await expectError(
        await owner.post(`/api/users/${ownerId}/temporary-password`),
        403,
        'Use Change Password to change your own password',
      );
    });
  });

  describe('company scope', () => {
    it('a Vult admin sees and manages only Vult users; others answer 404', async () => {
      const mine = await createTestUser(db(), { role: 'viewer', companyId: vult });
      const theirs = await createTestUser(db(), { role: 'viewer', companyId: atlas });
      const everyone = await createTestUser(db(), { role: 'viewer', companyId: null });
      const list = await (await scopedAdmin.get('/api/users?limit=1000&isActive=all')).json();
      expect(list.users.length).toBeGreaterThan(0);
      expect(list.users.every((u: any) => u.companyId === vult)).toBe(true);
      expect(list.users.map((u: any) => u.id)).toContain(mine.id);
      expect((await (await scopedAdmin.get(`/api/users?company=${atlas}`)).json()).total).toBe(0);
      for (const other of [theirs, everyone]) {
        await expectError(await scopedAdmin.get(`/api/users/${other.id}`), 404, 'Resource not found');
        await expectError(
          await scopedAdmin.request(`/api/users/${other.id}`, { method: 'PUT', json: { username: 'moved' } }),
          404,
          'Resource not found',
        );
        await expectError(
          await scopedAdmin.request(`/api/users/${other.id}/deactivate`, { method: 'PUT' }),
          404,
          'Resource not found',
        );
        await expectError(
          await scopedAdmin.request(`/api/users/${other.id}/permissions`, { method: 'PUT', json: { canEdit: true } }),
          404,
          'Resource not found',
        );
        await expectError(
          await scopedAdmin.post(`/api/users/${other.id}/temporary-password`),
          404,
          'Resource not found',
        );
        await expectError(
          await scopedAdmin.request(`/api/users/${other.id}`, { method: 'DELETE' }),
          404,
          'Resource not found',
        );
        expect(await storedUser(other.id)).toMatchObject({ isActive: true, username: other.username });
      }
      // Creating outside the company, or moving a user out of it, is forbidden.
      await expectError(
        await scopedAdmin.post('/api/users', {
          username: `out${tag}`,
          email: address('out'),
          password: 'Long-Enough-1',
          role: 'viewer',
          companyId: atlas,
        }),
        403,
        'Forbidden',
      );
      await expectError(
        await scopedAdmin.request(`/api/users/${mine.id}`, { method: 'PUT', json: { companyId: atlas } }),
        403,
        'Forbidden',
      );
      await expectStatus(
        await scopedAdmin.post('/api/users', {
          username: `in${tag}`,
          email: address('in'),
          password: 'Long-Enough-1',
          role: 'viewer',
          companyId: vult,
        }),
        201,
      );
      await expectStatus(await scopedAdmin.request(`/api/users/${mine.id}/deactivate`, { method: 'PUT' }), 200);
      const stats = await (await scopedAdmin.get('/api/users/stats')).json();
      const inVult = await db().selectFrom('users').select(['isActive']).where('companyId', '=', vult).execute();
      expect(stats.totalUsers).toBe(inVult.length);
      expect(stats.inactiveUsers).toBe(inVult.filter((u) => !u.isActive).length);
      const history = await (await scopedAdmin.get('/api/users/activity/history?limit=1000')).json();
      const vultIds = new Set(
        (await db().selectFrom('users').select('id').where('companyId', '=', vult).execute()).map((u) => u.id),
      );
      expect(history.events.every((e: any) => e.user && vultIds.has(e.user.id))).toBe(true);
      const analytics = await (await scopedAdmin.get('/api/users/activity/analytics')).json();
      expect(analytics.users.every((u: any) => vultIds.has(u.userId))).toBe(true);
    });
  });

  describe('GET /api/users/stats', () => {
    it('totals and users by role match the table', async () => {
      const response = await admin.get('/api/users/stats');
      await expectStatus(response, 200);
      const stats = await response.json();
      const rows = await db().selectFrom('users').select(['role', 'isActive']).execute();
      expect(stats).toEqual({
        totalUsers: rows.length,
        activeUsers: rows.filter((r) => r.isActive).length,
        inactiveUsers: rows.filter((r) => !r.isActive).length,
        usersByRole: Object.fromEntries(
          ['owner', 'admin', 'editor', 'viewer'].map((role) => [role, rows.filter((r) => r.role === role).length]),
        ),
      });
    });
  });

  describe('activity', () => {
    const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    async function addSession(userId: number, loginMinutesAgo: number, seconds: number, open = false) {
      const loginAt = ago(loginMinutesAgo);
      await db()
        .insertInto('userSessions')
        .values({
          sessionId: crypto.randomUUID(),
          tokenHash: hashToken(crypto.randomBytes(16).toString('hex')),
          userId,
          loginAt,
          lastSeenAt: new Date(Date.parse(loginAt) + seconds * 1000).toISOString(),
          expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
          logoutAt: open ? null : new Date(Date.parse(loginAt) + seconds * 1000).toISOString(),
          sessionDuration: open ? 0 : seconds,
          isActive: open,
        })
        .execute();
    }
    async function addAudit(
      userId: number | null,
      action: string,
      tableName: string,
      timestamp: string,
      extra: { ipAddress?: string | null; reason?: string | null } = {},
    ) {
      await db()
        .insertInto('auditLogs')
        .values({
          tableName,
          recordId: 1,
          action,
          userId,
          actorLabel: 'test',
          timestamp,
          ipAddress: extra.ipAddress ?? null,
          reason: extra.reason ?? null,
        })
        .execute();
    }

    it('analytics: summary cards and the per-user table from sessions and the audit trail', async () => {
      const busy = await createTestUser(db(), { role: 'editor' });
      const quiet = await createTestUser(db(), { role: 'viewer' });
      const heavy = await createTestUser(db(), { role: 'editor' });
      // busy: 3 sign-ins (10, 20 and 30 minutes long; the last still open) and 5 creates + 4 updates.
      await addSession(busy.id, 60 * 24 * 3, 600);
      await addSession(busy.id, 60 * 24, 1200);
      await addSession(busy.id, 40, 1800, true);
      for (let i = 0; i < 5; i++) await addAudit(busy.id, 'create', 'budgets', ago(100 + i));
      for (let i = 0; i < 4; i++) await addAudit(busy.id, 'update', 'budgets', ago(200 + i));
      await addAudit(busy.id, 'create', 'budgets', ago(60 * 24 * 40)); // outside the 30-day window
      // heavy: 40 sign-ins → capped at 100.
      for (let i = 0; i < 40; i++) await addSession(heavy.id, 60 * 24 * 2 + i, 30);
      // Entries and edits are the activity-window job's counts: its next run counts the new ones.
      await refreshActivityWindow(db());

      const response = await admin.get('/api/users/activity/analytics');
      await expectStatus(response, 200);
      const body = await response.json();
      expect(Object.keys(body.summary).sort()).toEqual([
        'activeUsers',
        'averageSessionDuration',
        'loginsToday',
        'totalUsers',
      ]);
      expect(Math.abs(Date.parse(body.computedAt) - Date.now())).toBeLessThan(60_000);
      expect(body.summary.totalUsers).toBe(await userCount());
      expect(body.summary.loginsToday).toBeGreaterThanOrEqual(1);
      expect(body.summary.activeUsers).toBeGreaterThanOrEqual(2);
      expect(body.summary.averageSessionDuration).toBeGreaterThan(0);

      const row = (id: number) => body.users.find((u: any) => u.userId === id);
      expect(row(busy.id)).toMatchObject({
        username: busy.username,
        email: busy.email,
        totalLogins: 3,
        totalSessionTime: 60,
        averageSessionTime: 20,
        activityScore: 3 * 3 + 2 * 5 + 4,
        activityLevel: 'low',
        recentEntries: 5,
        recentEdits: 4,
      });
      expect(Math.abs(Date.parse(row(busy.id).lastLogin) - (Date.now() - 40 * 60_000))).toBeLessThan(60_000);
      expect(row(quiet.id)).toMatchObject({
        totalLogins: 0,
        totalSessionTime: 0,
        averageSessionTime: 0,
        activityScore: 0,
        activityLevel: 'inactive',
        lastLogin: null,
      });
      expect(row(heavy.id)).toMatchObject({
        totalLogins: 40,
        activityScore: 100,
        activityLevel: 'high',
        totalSessionTime: 20,
      });
      const scores = body.users.map((u: any) => u.activityScore);
      expect([...scores].sort((a: number, b: number) => b - a)).toEqual(scores);
      noSecrets(body);
    });

    it('statistics: counts by action and table, sign-ins and sessions', async () => {
      const response = await admin.get('/api/users/activity/statistics');
      await expectStatus(response, 200);
      const body = await response.json();
      expect(body.windowDays).toBe(30);
      expect(Date.parse(body.since)).toBe(Date.parse(body.computedAt) - 30 * 86_400_000);
      expect(body.eventsByAction.login).toBeGreaterThan(0);
      expect(body.totalEvents).toBe(
        Object.values(body.eventsByAction as Record<string, number>).reduce((a, b) => a + b, 0),
      );
      expect(body.eventsByTable.users).toBeGreaterThan(0);
      expect(body.loginsToday).toBeGreaterThan(0);
      expect(body.activeSessions).toBeGreaterThan(0);
      expect(body.mostActiveUsers.length).toBeLessThanOrEqual(5);
      expect(body.mostActiveUsers[0]).toMatchObject({ userId: expect.any(Number), events: expect.any(Number) });
    });

    it('history: { events, total, totalPages }, 25 a page, filters, and nulls for a missing IP or reason', async () => {
      const actor = await createTestUser(db(), { role: 'editor' });
      for (let i = 0; i < 30; i++) {
        await addAudit(
          actor.id,
          i % 3 === 0 ? 'delete' : 'update',
          i % 2 ? 'budgets' : 'companies',
          `2025-03-${String(1 + (i % 20)).padStart(2, '0')}T12:00:00.000Z`,
          { ipAddress: i === 0 ? '198.51.100.7' : null, reason: i === 0 ? 'Cleanup' : null },
        );
      }
      const get = async (query: string) => {
        const response = await admin.get(`/api/users/activity/history?${query}`);
        await expectStatus(response, 200);
        return response.json();
      };
      const first = await get(`userId=${actor.id}`);
      expect(Object.keys(first).sort()).toEqual(['events', 'total', 'totalPages']);
      expect(first).toMatchObject({ total: 30, totalPages: 2 });
      expect(first.events).toHaveLength(25);
      expect(first.events[0]).toMatchObject({
        user: { id: actor.id, email: actor.email, fullName: null },
        tableName: expect.any(String),
        recordId: 1,
      });
      const stamps = first.events.map((e: any) => e.timestamp);
      expect([...stamps].sort().reverse()).toEqual(stamps);
      const firstPage = await admin.get(`/api/users/activity/history?userId=${actor.id}`);
      expect(firstPage.headers.get('X-Total-Count')).toBe('30');
      expect(firstPage.headers.get('Link')).toBe(
        `</api/users/activity/history?userId=${actor.id}&limit=25&offset=25>; rel="next"`,
      );
      const second = await get(`userId=${actor.id}&offset=25`);
      expect(second.events).toHaveLength(5);
      expect((await get(`userId=${actor.id}&page=2`)).events.map((e: any) => e.id)).toEqual(
        second.events.map((e: any) => e.id),
      );
      const all = [...first.events, ...second.events];
      const withIp = all.find((e: any) => e.ipAddress !== null);
      expect(withIp).toMatchObject({ ipAddress: '198.51.100.7', reason: 'Cleanup' });
      expect(all.filter((e: any) => e.ipAddress === null && e.reason === null)).toHaveLength(29);

      expect((await get(`userId=${actor.id}&action=delete`)).total).toBe(10);
      expect((await get(`userId=${actor.id}&tableName=budgets`)).total).toBe(15);
      expect((await get(`userId=${actor.id}&action=update&tableName=companies`)).total).toBe(10);
      // Days 1–5 inclusive: i % 20 in 0..4 → i ∈ {0..4, 20..24}.
      expect((await get(`userId=${actor.id}&startDate=2025-03-01&endDate=2025-03-05`)).total).toBe(10);
      expect((await get(`userId=${actor.id}&startDate=2025-03-20`)).total).toBe(1);
      expect((await get(`userId=${actor.id}&action=all&tableName=`)).total).toBe(30);
      const limited = await get(`userId=${actor.id}&limit=7`);
      expect(limited).toMatchObject({ total: 30, totalPages: 5 });

      // Sign-ins show up as login events of the users table.
      const logins = await get('action=login&tableName=users&limit=5');
      expect(logins.total).toBeGreaterThan(0);
      expect(logins.events.every((e: any) => e.action === 'login' && e.tableName === 'users')).toBe(true);
    });

    it('history: 400 with field errors for bad filters', async () => {
      await expectInvalid(
        await admin.get(
          '/api/users/activity/history?startDate=2025-02-30&endDate=yesterday&action=hack&limit=5000&userId=x&tableName=DROP%20TABLE',
        ),
        [
          { field: 'startDate', message: 'startDate must be a date (YYYY-MM-DD)' },
          { field: 'endDate', message: 'endDate must be a date (YYYY-MM-DD)' },
          { field: 'limit', message: 'limit must be an integer from 1 to 1000' },
          { field: 'userId', message: 'userId must be an integer from 1 to 2147483647' },
          { field: 'tableName', message: 'tableName must be a table name such as users or budgets' },
        ],
      );
      await expectInvalid(await admin.get('/api/users/activity/history?startDate=2025-03-02&endDate=2025-03-01'), [
        { field: 'endDate', message: 'endDate must not be before startDate' },
      ]);
    });
  });

  describe('PATCH /api/users/{id} (own profile)', () => {
    it("updates one's own profile fields, audited", async () => {
      const { c, id } = await signedIn({ role: 'viewer' });
      const email = address('profile');
      const response = await c.request(`/api/users/${id}`, {
        method: 'PATCH',
        json: {
          username: `me${tag}`,
          email: email.toUpperCase(),
          fullName: ' Ada Lovelace ',
          position: 'Analyst',
          phoneNumber: '+44 20 7946 0000',
        },
      });
      await expectStatus(response, 200);
      expect(await response.json()).toMatchObject({
        id,
        username: `me${tag}`,
        email,
        fullName: 'Ada Lovelace',
        position: 'Analyst',
        phoneNumber: '+44 20 7946 0000',
        role: 'viewer',
      });
      const entry = (await auditOf(id)).at(-1)!;
      expect(entry).toMatchObject({ action: 'update', userId: id, reason: 'Profile updated' });
      noSecrets(entry);
      // Clearing optional fields stores nulls; the e-mail is now the sign-in name.
      const cleared = await c.request(`/api/users/${id}`, {
        method: 'PATCH',
        json: { username: `me${tag}`, email, fullName: '', position: null },
      });
      expect(await cleared.json()).toMatchObject({ fullName: null, position: null, phoneNumber: null });
      await client().login(email, TEST_PASSWORD);
    });

    it('400 for missing or invalid fields, 409 for a taken e-mail or username, 403 on someone else', async () => {
      const { c, id, email, username } = await signedIn({ role: 'editor' });
      const other = await createTestUser(db(), { role: 'viewer' });
      const bad = await c.request(`/api/users/${id}`, {
        method: 'PATCH',
        json: { username: '', email: 'not-valid', phoneNumber: 'call me' },
      });
      await expectStatus(bad, 400);
      const badBody = await bad.json();
      expect(badBody.message).toBe('Invalid data');
      expect(badBody.errors.map((e: { field: string }) => e.field).sort()).toEqual([
        'email',
        'phoneNumber',
        'username',
      ]);
      await expectInvalid(
        await c.request(`/api/users/${id}`, { method: 'PATCH', json: { username, email: 'not-valid' } }),
        [{ field: 'email', message: EMAIL_MESSAGE }],
      );
      await expectInvalid(await c.request(`/api/users/${id}`, { method: 'PATCH', json: {} }), [
        { field: 'username', message: REQUIRED_MESSAGE },
        { field: 'email', message: REQUIRED_MESSAGE },
      ]);
      const malformed = await c.request(`/api/users/${id}`, {
        method: 'PATCH',
        body: '{"username":',
        headers: { 'Content-Type': 'application/json' },
      });
      await expectError(malformed, 400, 'Invalid data');
      const taken = await c.request(`/api/users/${id}`, {
        method: 'PATCH',
        json: { username, email: other.email.toUpperCase() },
      });
      await expectStatus(taken, 409);
      expect((await taken.json()).errors).toEqual([{ field: 'email', message: EMAIL_TAKEN }]);
      const takenName = await c.request(`/api/users/${id}`, {
        method: 'PATCH',
        json: { username: other.username, email },
      });
      await expectStatus(takenName, 409);
      expect((await takenName.json()).errors).toEqual([{ field: 'username', message: USERNAME_TAKEN }]);
      expect(await storedUser(id)).toMatchObject({ email, username });
      // Someone else's profile: 403, even for an owner (owners edit others with PUT).
      await expectError(
        await c.request(`/api/users/${other.id}`, { method: 'PATCH', json: { username: 'x', email: address('x') } }),
        403,
        'You can only edit your own profile',
      );
      await expectError(
        await owner.request(`/api/users/${other.id}`, {
          method: 'PATCH',
          json: { username: 'x', email: address('x') },
        }),
        403,
        'You can only edit your own profile',
      );
      expect(await storedUser(other.id)).toMatchObject({ email: other.email, username: other.username });
      // Role and permissions are not profile fields: unknown fields are a 400, nothing written.
      const sneaky = await c.request(`/api/users/${id}`, {
        method: 'PATCH',
        json: { username, email, role: 'owner', canManageUsers: true },
      });
      await expectInvalid(sneaky, [
        { field: 'role', message: 'Unknown field' },
        { field: 'canManageUsers', message: 'Unknown field' },
      ]);
      expect(await storedUser(id)).toMatchObject({ role: 'editor', canManageUsers: false });
    });
  });

  it('no audit or version row anywhere holds password data', async () => {
    const audit = await db().selectFrom('auditLogs').select(['oldData', 'newData', 'changes']).execute();
    expect(JSON.stringify(audit)).not.toMatch(/passwordHash|\$argon2|"password"/);
    const versions = await db().selectFrom('dataVersions').select('data').execute();
    expect(JSON.stringify(versions)).not.toMatch(/passwordHash|\$argon2|"password"/);
  });
});
