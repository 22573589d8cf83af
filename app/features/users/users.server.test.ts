// Managing users (create, temporary password, deactivate/reactivate, delete) with the owner
// protections and the audit trail, on every test dialect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { ownerId, userContext, noEngine } from '../../../test/context.ts';
import { createTestUser } from '../../../test/users.ts';
import { rejection } from '../../../test/assertions.ts';
import { login } from '../auth/auth.server.ts';
import { systemActor, type Db, type ServiceContext } from '../../platform/context.ts';
import { isDomainError } from '../../platform/errors.ts';
import { verifyPassword } from '../auth/passwords.server.ts';
import { createSession } from '../../platform/session/sessions.server.ts';
import { DEFAULT_SETTINGS, settingsFromRow } from '../../platform/session/user-settings-row.ts';
import { assertOwnAccount, OWN_PROFILE_ONLY, OWNER_PROTECTED } from './user-policy.server.ts';
import { findUserByIdOrEmail } from './user-queries.server.ts';
import {
  createUser,
  deleteUser,
  issueTemporaryPassword,
  listUsers,
  listUsersPage,
  setUserActive,
  updateUser,
  updateUserPermissions,
} from './users.server.ts';
import { userStats } from './user-stats.server.ts';

describe.each(TEST_DIALECTS)('user management service on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let cli: ServiceContext;
  let n = 0;
  const email = () => `managed-${Date.now().toString(36)}-${++n}@example.com`;

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    db = database.db;
    cli = { db, actor: systemActor('cli'), meta: { userAgent: 'finhub-cli' }, runtime: noEngine() };
  });
  afterAll(() => database?.destroy());

  const auditOf = (id: number) =>
    db
      .selectFrom('auditLogs')
      .selectAll()
      .where('tableName', '=', 'users')
      .where('recordId', '=', id)
      .orderBy('id')
      .execute();
  const activeSessions = async (userId: number) =>
    (
      await db
        .selectFrom('userSessions')
        .select('id')
        .where('userId', '=', userId)
        .where('isActive', '=', true)
        .execute()
    ).length;
  const noSecrets = (rows: { oldData: unknown; newData: unknown; changes: unknown }[]) => {
    const text = JSON.stringify(rows.map((r) => [r.oldData, r.newData, r.changes]));
    expect(text).not.toMatch(/passwordHash|\$argon2/);
  };

  it('creates a user with a generated temporary password, asked for, audited as cli without password data', async () => {
    const address = email();
    const { user, temporaryPassword } = await createUser(cli, {
      email: address.toUpperCase(),
      username: `u${n}`,
      role: 'editor',
      companyId: null,
      temporaryPassword: true,
    });
    expect(user.email).toBe(address);
    expect(user.isTemporaryPassword).toBe(true);
    expect(temporaryPassword).toMatch(/^[A-Za-z0-9]{14}$/);
    const stored = await db
      .selectFrom('users')
      .select('passwordHash')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(await verifyPassword(stored.passwordHash, temporaryPassword!)).toBe(true);
    const audit = await auditOf(user.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'create', actorLabel: 'cli', userId: null });
    noSecrets(audit);
    const versions = await db
      .selectFrom('dataVersions')
      .selectAll()
      .where('tableName', '=', 'users')
      .where('recordId', '=', user.id)
      .execute();
    expect(versions).toHaveLength(1);
    expect(JSON.stringify(versions[0].data)).not.toMatch(/passwordHash/);
  });

  it('a new user has a settings row with the defaults from creation on; a refused create leaves none', async () => {
    const settingsCount = async () =>
      Number(
        (
          await db
            .selectFrom('userSettings')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const address = email();
    const { user } = await createUser(cli, {
      email: address,
      username: `settings${n}`,
      role: 'viewer',
      password: 'Settings-Pass-1',
    });
    const row = await db.selectFrom('userSettings').selectAll().where('userId', '=', user.id).executeTakeFirstOrThrow();
    const { id: _id, userId: _userId, createdAt: _c, updatedAt: _u, ...values } = settingsFromRow(row);
    expect(values).toEqual(DEFAULT_SETTINGS);
    // Part of the user's creation: the user's entry records the write, the row adds none of its own.
    expect(await auditOf(user.id)).toHaveLength(1);
    expect(
      await db
        .selectFrom('auditLogs')
        .select('id')
        .where('tableName', '=', 'user_settings')
        .where('recordId', '=', row.id)
        .execute(),
    ).toEqual([]);

    const before = await settingsCount();
    await rejection(
      createUser(cli, { email: address, username: `again${n}`, role: 'viewer', temporaryPassword: true }),
    );
    expect(await settingsCount()).toBe(before);
  });

  it('creates a user with a given password and a company; rejects duplicates and bad input', async () => {
    const company = await db.selectFrom('companies').select('id').orderBy('id').executeTakeFirstOrThrow();
    const address = email();
    const { user, temporaryPassword } = await createUser(cli, {
      email: address,
      username: `given${n}`,
      role: 'viewer',
      companyId: company.id,
      password: 'Given-Password-1',
    });
    expect(temporaryPassword).toBeUndefined();
    expect(user).toMatchObject({ companyId: company.id, isTemporaryPassword: false, role: 'viewer' });

    const duplicate = await rejection(
      createUser(cli, { email: address, username: 'another', role: 'viewer', password: 'Another-Pass-1' }),
    );
    expect(duplicate.kind).toBe('conflict');
    const invalid = await rejection(
      createUser(cli, { email: 'not-an-email', username: '', role: 'boss', password: 'short' }),
    );
    expect(invalid.kind).toBe('invalid');
    expect(invalid.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'email',
      'password',
      'role',
      'username',
    ]);
    const noCompany = await rejection(
      createUser(cli, {
        email: email(),
        username: `x${n}`,
        role: 'viewer',
        companyId: 999_999,
        temporaryPassword: true,
      }),
    );
    expect(noCompany.errors).toEqual([{ field: 'companyId', message: 'Company not found' }]);
  });

  it('a password and a role are required; a generated one only when asked for, never beside a given one', async () => {
    const before = await db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const base = { email: email(), username: `req${n}` };
    const missing = await rejection(createUser(cli, base));
    expect(missing.kind).toBe('invalid');
    expect(missing.errors).toEqual(
      expect.arrayContaining([
        { field: 'password', message: 'Password is required' },
        { field: 'role', message: 'Role is required' },
      ]),
    );
    expect((await rejection(createUser(cli, { ...base, role: 'viewer', temporaryPassword: false }))).errors).toEqual([
      { field: 'password', message: 'Password is required' },
    ]);
    expect(
      (await rejection(createUser(cli, { ...base, role: 'viewer', password: 'Both-Given-1', temporaryPassword: true })))
        .errors,
    ).toEqual([{ field: 'temporaryPassword', message: 'Give a password or ask for a temporary one, not both' }]);
    expect(
      await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow(),
    ).toEqual(before);
  });

  it('issues a temporary password: sessions end and the next sign-in must change it', async () => {
    const user = await createTestUser(db, { role: 'editor' });
    await createSession(db, { userId: user.id, rememberMe: false });
    await createSession(db, { userId: user.id, rememberMe: true });
    const result = await issueTemporaryPassword(cli, user.id);
    expect(result.endedSessions).toBe(2);
    expect(await activeSessions(user.id)).toBe(0);
    expect(result.user.isTemporaryPassword).toBe(true);
    const signedIn = await login(db, { ip: '203.0.113.9' }, { email: user.email, password: result.temporaryPassword });
    expect(signedIn.user.isTemporaryPassword).toBe(true);
    const audit = await auditOf(user.id);
    expect(audit.find((a) => a.reason === 'Temporary password created')).toMatchObject({
      action: 'update',
      actorLabel: 'cli',
    });
    noSecrets(audit);
  });

  it('deactivates (ending sessions) and reactivates; owners are protected', async () => {
    const user = await createTestUser(db, { role: 'viewer' });
    await createSession(db, { userId: user.id, rememberMe: false });
    const off = await setUserActive(cli, user.id, false);
    expect(off).toMatchObject({ changed: true, endedSessions: 1 });
    expect(off.user.isActive).toBe(false);
    expect((await setUserActive(cli, user.id, false)).changed).toBe(false);
    expect((await listUsers(cli, { inactive: true })).map((u) => u.id)).toContain(user.id);
    expect((await listUsers(cli)).map((u) => u.id)).not.toContain(user.id);
    const on = await setUserActive(cli, user.id, true);
    expect(on.user.isActive).toBe(true);

    const owner = await ownerId(db);
    const error = await rejection(setUserActive(cli, owner, false));
    expect(isDomainError(error) && error.kind).toBe('forbidden');
    expect(error.message).toBe(OWNER_PROTECTED);
    expect((await rejection(deleteUser(cli, owner))).message).toBe(OWNER_PROTECTED);
  });

  it('deletes a user with an audit entry holding the old data (no password)', async () => {
    const user = await createTestUser(db, { role: 'viewer' });
    await createSession(db, { userId: user.id, rememberMe: false });
    await deleteUser(cli, user.id);
    expect(await findUserByIdOrEmail(db, String(user.id))).toBeUndefined();
    const audit = await auditOf(user.id);
    const entry = audit.find((a) => a.action === 'delete')!;
    expect(entry).toMatchObject({ actorLabel: 'cli' });
    expect((entry.oldData as Record<string, unknown>).email).toBe(user.email);
    noSecrets(audit);
    expect((await rejection(deleteUser(cli, user.id))).kind).toBe('notFound');
  });

  it('applies the web rules to a signed-in actor: an admin cannot create or delete admins', async () => {
    const admin = await createTestUser(db, { role: 'admin' });
    const ctx = await userContext(db, admin.id);
    expect(
      (
        await rejection(
          createUser(ctx, { email: email(), username: `adm${n}`, role: 'admin', temporaryPassword: true }),
        )
      ).kind,
    ).toBe('forbidden');
    const otherAdmin = await createTestUser(db, { role: 'admin' });
    expect((await rejection(deleteUser(ctx, otherAdmin.id))).kind).toBe('forbidden');
    expect((await rejection(setUserActive(ctx, admin.id, false))).kind).toBe('forbidden');
    const viewer = await createTestUser(db, { role: 'viewer' });
    const viewerCtx = await userContext(db, viewer.id);
    expect((await rejection(listUsers(viewerCtx))).kind).toBe('forbidden');
  });

  it('pages, filters and sorts the list in SQL; bad parameters are invalid', async () => {
    const stamp = `pg${Date.now().toString(36)}`;
    for (let i = 0; i < 3; i++) await createTestUser(db, { role: 'viewer', email: `${stamp}-${i}@example.com` });
    const page = await listUsersPage(cli, { search: stamp, sortBy: 'email', sortOrder: 'asc', limit: '2', page: '2' });
    expect(page).toMatchObject({ total: 3, totalPages: 2, page: 2, limit: 2 });
    expect(page.users.map((u) => u.email)).toEqual([`${stamp}-2@example.com`]);
    expect(JSON.stringify(page)).not.toMatch(/passwordHash/);
    const bad = await rejection(listUsersPage(cli, { limit: '-1', sortBy: 'passwordHash' }));
    expect(bad.kind).toBe('invalid');
    expect(bad.errors.map((e: { field: string }) => e.field).sort()).toEqual(['limit', 'sortBy']);
  });

  it("edits users and permissions as the CLI; duplicates conflict; the profile call is for one's own account only", async () => {
    const user = await createTestUser(db, { role: 'viewer' });
    const other = await createTestUser(db, { role: 'viewer' });
    expect((await rejection(updateUser(cli, user.id, { role: 'editor', fullName: 'unknown here' }))).kind).toBe(
      'invalid',
    ); // unknown field: 400, nothing written
    const edited = await updateUser(cli, user.id, { role: 'editor' });
    expect(edited.role).toBe('editor');
    const clash = await rejection(updateUser(cli, user.id, { email: other.email.toUpperCase() }));
    expect(clash).toMatchObject({ kind: 'conflict', message: 'A user with this email already exists' });
    expect((await rejection(updateUser(cli, user.id, { password: 'New-Password-1' }))).kind).toBe('invalid');
    const flags = await updateUserPermissions(cli, user.id, { canAccessAnalytics: true });
    expect(flags.canAccessAnalytics).toBe(true);
    expect((await auditOf(user.id)).map((a) => a.reason)).toEqual(['User updated', 'Permissions updated']);
    // The own-profile call is for a signed-in user on their own id only.
    expect(() => assertOwnAccount(cli, user.id)).toThrow(OWN_PROFILE_ONLY);
    const self = await userContext(db, user.id);
    expect(() => assertOwnAccount(self, other.id)).toThrow(OWN_PROFILE_ONLY);
    expect(() => assertOwnAccount(self, user.id)).not.toThrow();
  });

  it('creates a user with a given password flagged temporary; counts users by role', async () => {
    const { user } = await createUser(cli, {
      email: email(),
      username: `tmp${n}`,
      role: 'viewer',
      password: 'Initial-Pass-1',
      isTemporaryPassword: true,
    });
    expect(user.isTemporaryPassword).toBe(true);
    const stats = await userStats(cli);
    const rows = await db.selectFrom('users').select(['role', 'isActive']).execute();
    expect(stats.totalUsers).toBe(rows.length);
    expect(stats.usersByRole.viewer).toBe(rows.filter((r) => r.role === 'viewer').length);
    expect(stats.activeUsers + stats.inactiveUsers).toBe(rows.length);
  });

  it('two creates with the same e-mail at once: one user, the other a 409 conflict (never a 500)', async () => {
    const address = email();
    const results = await Promise.allSettled(
      [1, 2, 3].map((i) =>
        createUser(cli, { email: address, username: `race${n}-${i}`, role: 'viewer', password: 'Racing-Pass-1' }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')) {
      expect(r.reason).toMatchObject({ kind: 'conflict', message: 'A user with this email already exists' });
    }
  });

  it('finds users by id or e-mail, case-insensitively', async () => {
    const user = await createTestUser(db, { role: 'viewer' });
    expect((await findUserByIdOrEmail(db, user.email.toUpperCase()))?.id).toBe(user.id);
    expect((await findUserByIdOrEmail(db, ` ${user.id} `))?.id).toBe(user.id);
    expect(await findUserByIdOrEmail(db, 'nobody@example.com')).toBeUndefined();
  });
});
