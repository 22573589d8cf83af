// Signing in and out, and changing passwords (docs/security.md, docs/writes.md), on every test dialect.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPreparedDatabase, OWNER_PASSWORD, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { ownerId, userContext, noEngine } from '../../../test/context.ts';
import { createTestUser, TEST_PASSWORD } from '../../../test/users.ts';
import { changePassword, login, logout } from './auth.server.ts';
import type { Db } from '../../platform/context.ts';
import { isDomainError } from '../../platform/errors.ts';
import { verifyPassword } from './passwords.server.ts';
import { createSession } from '../../platform/session/sessions.server.ts';
import { rejection } from '../../../test/assertions.ts';

const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('hex');
const MINUTE = 60_000;

describe.each(TEST_DIALECTS)('auth service on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let ip = 0;
  // A fresh client address per test so the per-address throttle never joins tests together.
  const meta = () => ({ ip: `198.51.100.${++ip}`, userAgent: 'vitest-agent/1.0' });

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    db = database.db;
  });
  afterAll(() => database?.destroy());

  const userRow = (id: number) => db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const sessionsOf = (userId: number) =>
    db.selectFrom('userSessions').selectAll().where('userId', '=', userId).orderBy('id').execute();
  const auditOf = (userId: number, action?: string) => {
    let q = db.selectFrom('auditLogs').selectAll().where('tableName', '=', 'users').where('recordId', '=', userId);
    if (action) q = q.where('action', '=', action);
    return q.orderBy('id').execute();
  };

  describe('login', () => {
    it('opens a session, counts the sign-in and audits it', async () => {
      const user = await createTestUser(db, { role: 'editor' });
      const m = meta();
      const before = new Date().toISOString();
      const result = await login(db, m, { email: `  ${user.email.toUpperCase()} `, password: TEST_PASSWORD });
      const after = new Date().toISOString();

      expect(result.user).toMatchObject({ id: user.id, email: user.email, role: 'editor' });
      expect(result.user).not.toHaveProperty('passwordHash');
      expect(result.token.length).toBeGreaterThanOrEqual(32);

      const [session] = await sessionsOf(user.id);
      expect(session).toMatchObject({
        id: result.session.id,
        sessionId: result.session.sessionId,
        isActive: true,
        rememberMe: false,
        ipAddress: m.ip,
        userAgent: 'vitest-agent/1.0',
      });
      // Only a hash of the cookie token is stored.
      expect(session.tokenHash).toBe(sha256(result.token));
      // No user settings yet: the default absolute lifetime of 480 minutes.
      expect(Date.parse(session.expiresAt) - Date.parse(session.loginAt)).toBe(480 * MINUTE);

      const row = await userRow(user.id);
      expect(row.loginCount).toBe(1);
      expect(row.lastLoginAt! >= before && row.lastLoginAt! <= after).toBe(true);
      expect(result.user.lastLoginAt).toBe(row.lastLoginAt);

      const audit = await auditOf(user.id, 'login');
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({
        userId: user.id,
        ipAddress: m.ip,
        userAgent: 'vitest-agent/1.0',
        sessionId: session.sessionId,
      });

      const attempts = await db.selectFrom('loginAttempts').selectAll().where('email', '=', user.email).execute();
      expect(attempts).toMatchObject([{ succeeded: true, ipAddress: m.ip }]);

      await login(db, meta(), { email: user.email, password: TEST_PASSWORD });
      expect((await userRow(user.id)).loginCount).toBe(2);
      expect((await sessionsOf(user.id)).filter((s) => s.isActive)).toHaveLength(2);
    });

    it('remember me keeps the session for 30 days', async () => {
      const user = await createTestUser(db);
      const { session } = await login(db, meta(), { email: user.email, password: TEST_PASSWORD, rememberMe: true });
      const [row] = await sessionsOf(user.id);
      expect(session.rememberMe).toBe(true);
      expect(row.rememberMe).toBe(true);
      expect(Date.parse(row.expiresAt) - Date.parse(row.loginAt)).toBe(30 * 24 * 60 * MINUTE);
    });

    it('a new sign-in ends the session it replaces', async () => {
      const user = await createTestUser(db);
      const first = await login(db, meta(), { email: user.email, password: TEST_PASSWORD });
      const second = await login(db, meta(), { email: user.email, password: TEST_PASSWORD }, first.token);
      const rows = await sessionsOf(user.id);
      expect(rows.find((s) => s.id === first.session.id)).toMatchObject({ isActive: false, endReason: 'rotated' });
      expect(rows.find((s) => s.id === second.session.id)).toMatchObject({ isActive: true });
    });

    it('a wrong password is a 401 with the generic message, audited without the password', async () => {
      const user = await createTestUser(db);
      const wrong = 'Wrong-Secret-987';
      const error = await rejection(login(db, meta(), { email: user.email, password: wrong }));
      expect(isDomainError(error)).toBe(true);
      expect(error.status).toBe(401);
      expect(error.message).toBe('Invalid email or password');

      expect(await sessionsOf(user.id)).toHaveLength(0);
      expect((await userRow(user.id)).loginCount).toBe(0);
      const audit = await auditOf(user.id, 'login_failed');
      expect(audit).toHaveLength(1);
      expect(audit[0].userId).toBe(user.id);
      expect(audit[0].newData).toEqual({ email: user.email });
      expect(JSON.stringify(audit[0])).not.toContain(wrong);
      expect(JSON.stringify(audit[0])).not.toContain(TEST_PASSWORD);
      const attempts = await db.selectFrom('loginAttempts').selectAll().where('email', '=', user.email).execute();
      expect(attempts).toMatchObject([{ succeeded: false }]);
    });

    it('an unknown e-mail gets the same answer, audited without the password', async () => {
      const email = `nobody-${crypto.randomUUID()}@example.com`;
      const secret = 'Unknown-Secret-123';
      const error = await rejection(login(db, meta(), { email, password: secret }));
      expect(error.status).toBe(401);
      expect(error.message).toBe('Invalid email or password');

      const audit = (
        await db.selectFrom('auditLogs').selectAll().where('action', '=', 'login_failed').execute()
      ).filter((a) => (a.newData as any)?.email === email);
      expect(audit).toHaveLength(1);
      expect(audit[0].userId).toBeNull();
      expect(audit[0].recordId).toBeNull();
      expect(JSON.stringify(audit[0])).not.toContain(secret);
    });

    it('a deactivated account cannot sign in, with the right or the wrong password', async () => {
      const user = await createTestUser(db, { isActive: false });
      const right = await rejection(login(db, meta(), { email: user.email, password: TEST_PASSWORD }));
      expect(right.status).toBe(401);
      expect(right.message).toMatch(/deactivated/i);
      // The wrong password must not reveal that the account exists but is deactivated.
      const wrong = await rejection(login(db, meta(), { email: user.email, password: 'Wrong-Secret-987' }));
      expect(wrong.status).toBe(401);
      expect(wrong.message).toBe('Invalid email or password');
      expect(await sessionsOf(user.id)).toHaveLength(0);
      expect(await auditOf(user.id, 'login_failed')).toHaveLength(2);
      expect(await auditOf(user.id, 'login')).toHaveLength(0);
    });

    it('invalid input is a 400 with field errors and is not counted as a failure', async () => {
      const error = await rejection(login(db, meta(), { email: 'not-an-email', password: '' }));
      expect(error.status).toBe(400);
      expect(error.message).toBe('Invalid data');
      expect(error.errors).toEqual(
        expect.arrayContaining([
          { field: 'email', message: 'Please enter a valid email address' },
          { field: 'password', message: 'Password is required' },
        ]),
      );
      const attempts = await db.selectFrom('loginAttempts').selectAll().where('email', '=', 'not-an-email').execute();
      expect(attempts).toHaveLength(0);
    });
  });

  describe('logout', () => {
    it('ends the session, adds its duration and audits it', async () => {
      const user = await createTestUser(db);
      const m = meta();
      const { user: authUser, session } = await login(db, m, { email: user.email, password: TEST_PASSWORD });
      // Pretend the session began 10 minutes ago.
      const tenMinutesAgo = new Date(Date.now() - 10 * MINUTE).toISOString();
      await db.updateTable('userSessions').set({ loginAt: tenMinutesAgo }).where('id', '=', session.id).execute();

      await logout({ db, actor: { kind: 'user', user: authUser }, meta: m, runtime: noEngine() }, session.id);

      const [row] = await sessionsOf(user.id);
      expect(row).toMatchObject({ isActive: false, endReason: 'logout' });
      expect(row.logoutAt).not.toBeNull();
      expect(row.sessionDuration).toBeGreaterThanOrEqual(600);
      expect(row.sessionDuration).toBeLessThan(660);
      const counters = await userRow(user.id);
      expect(counters.totalSessionDuration).toBe(row.sessionDuration);
      expect(counters.averageSessionDuration).toBe(row.sessionDuration); // one sign-in
      expect(await auditOf(user.id, 'logout')).toHaveLength(1);
    });
  });

  describe('changePassword for oneself', () => {
    it('checks the current password, the length and that the new one differs', async () => {
      const user = await createTestUser(db);
      const ctx = await userContext(db, user.id);
      const cases: [unknown, string, string][] = [
        [{ newPassword: 'Brand-New-Pass-1' }, 'currentPassword', 'Current password is required'],
        [
          { currentPassword: 'Not-The-Password', newPassword: 'Brand-New-Pass-1' },
          'currentPassword',
          'Current password is incorrect',
        ],
        [
          { currentPassword: TEST_PASSWORD, newPassword: 'short' },
          'newPassword',
          'New password must be at least 8 characters',
        ],
        [
          { currentPassword: TEST_PASSWORD, newPassword: TEST_PASSWORD },
          'newPassword',
          'New password must be different from the current password',
        ],
      ];
      for (const [input, field, message] of cases) {
        const error = await rejection(changePassword(ctx, user.id, input));
        expect(error.status, message).toBe(400);
        expect(error.errors, message).toContainEqual({ field, message });
      }
      const row = await userRow(user.id);
      expect(await verifyPassword(row.passwordHash, TEST_PASSWORD)).toBe(true);
      expect(await auditOf(user.id, 'update')).toHaveLength(0);
    });

    it('changes it, clears the change flags, ends the other sessions only, and audits without password data', async () => {
      const user = await createTestUser(db, { isTemporaryPassword: true });
      await db.updateTable('users').set({ passwordChangeRequired: true }).where('id', '=', user.id).execute();
      const current = await createSession(db, { userId: user.id, rememberMe: false });
      const other = await createSession(db, { userId: user.id, rememberMe: true });
      const ctx = await userContext(db, user.id, { sessionId: current.session.sessionId });
      const newPassword = 'Brand-New-Pass-1';

      await changePassword(ctx, user.id, { currentPassword: TEST_PASSWORD, newPassword }, current.session.id);

      const row = await userRow(user.id);
      expect(await verifyPassword(row.passwordHash, newPassword)).toBe(true);
      expect(await verifyPassword(row.passwordHash, TEST_PASSWORD)).toBe(false);
      expect(row.isTemporaryPassword).toBe(false);
      expect(row.passwordChangeRequired).toBe(false);
      expect(row.passwordChangedAt).not.toBeNull();

      const sessions = await sessionsOf(user.id);
      expect(sessions.find((s) => s.id === current.session.id)).toMatchObject({ isActive: true });
      expect(sessions.find((s) => s.id === other.session.id)).toMatchObject({
        isActive: false,
        endReason: 'password_changed',
      });

      const audit = await auditOf(user.id, 'update');
      expect(audit).toHaveLength(1);
      expect(audit[0].userId).toBe(user.id);
      expect(audit[0].sessionId).toBe(current.session.sessionId);
      expect(Object.keys(audit[0].changes ?? {})).toEqual(
        expect.arrayContaining(['isTemporaryPassword', 'passwordChangedAt']),
      );
      // The account was made before it was versioned: its state before the change is the baseline.
      const [baseline, version] = await db
        .selectFrom('dataVersions')
        .selectAll()
        .where('tableName', '=', 'users')
        .where('recordId', '=', user.id)
        .orderBy('version')
        .execute();
      expect(baseline).toMatchObject({ version: 1, isActive: false, action: 'baseline', createdBy: null });
      expect(version).toMatchObject({ version: 2, isActive: true, action: 'update', createdBy: user.id });
      expect((version.data as any).email).toBe(user.email);
      for (const stored of [JSON.stringify(audit[0]), JSON.stringify(baseline), JSON.stringify(version)]) {
        expect(stored).not.toContain(newPassword);
        expect(stored).not.toContain(TEST_PASSWORD);
        expect(stored).not.toContain('$argon2');
        expect(stored).not.toContain('passwordHash');
      }

      // The new password signs in; the old one does not.
      await expect(login(db, meta(), { email: user.email, password: newPassword })).resolves.toMatchObject({
        user: { id: user.id },
      });
      await expect(login(db, meta(), { email: user.email, password: TEST_PASSWORD })).rejects.toMatchObject({
        status: 401,
      });
    });
  });

  describe('changePassword for another user', () => {
    let owner: number;
    beforeAll(async () => {
      owner = await ownerId(db);
    });

    it('an owner sets it: change required at next sign-in, every session of theirs ends', async () => {
      const target = await createTestUser(db, { role: 'admin' });
      const a = await createSession(db, { userId: target.id, rememberMe: false });
      const b = await createSession(db, { userId: target.id, rememberMe: true });
      const ownerSession = await createSession(db, { userId: owner, rememberMe: false });
      const ctx = await userContext(db, owner);

      await changePassword(ctx, target.id, { newPassword: 'Set-By-Owner-1' }, ownerSession.session.id);

      const row = await userRow(target.id);
      expect(await verifyPassword(row.passwordHash, 'Set-By-Owner-1')).toBe(true);
      expect(row.passwordChangeRequired).toBe(true);
      const sessions = await sessionsOf(target.id);
      expect(sessions.map((s) => s.isActive)).toEqual([false, false]);
      expect(sessions.map((s) => s.id).sort()).toEqual([a.session.id, b.session.id].sort());
      const ownSessions = await sessionsOf(owner);
      expect(ownSessions.find((s) => s.id === ownerSession.session.id)?.isActive).toBe(true);
      const audit = await auditOf(target.id, 'update');
      expect(audit).toHaveLength(1);
      expect(audit[0].userId).toBe(owner);
      expect(JSON.stringify(audit[0])).not.toContain('Set-By-Owner-1');
      expect(JSON.stringify(audit[0])).not.toContain('$argon2');

      const signedIn = await login(db, meta(), { email: target.email, password: 'Set-By-Owner-1' });
      expect(signedIn.user.passwordChangeRequired).toBe(true);
    });

    it('the owner protections apply', async () => {
      const admin = await createTestUser(db, { role: 'admin' });
      const otherAdmin = await createTestUser(db, { role: 'admin' });
      const viewer = await createTestUser(db, { role: 'viewer' });
      const otherViewer = await createTestUser(db, { role: 'viewer' });
      const adminCtx = await userContext(db, admin.id);
      const viewerCtx = await userContext(db, viewer.id);

      for (const [ctx, target, label] of [
        [adminCtx, owner, 'admin → owner'],
        [adminCtx, otherAdmin.id, 'admin → admin'],
        [viewerCtx, otherViewer.id, 'viewer → viewer'],
      ] as const) {
        const error = await rejection(changePassword(ctx, target, { newPassword: 'Not-Allowed-1' }));
        expect(error.status, label).toBe(403);
        expect(error.message, label).toBe('Forbidden');
      }
      expect(await verifyPassword((await userRow(owner)).passwordHash, OWNER_PASSWORD)).toBe(true);
      expect(await verifyPassword((await userRow(otherAdmin.id)).passwordHash, TEST_PASSWORD)).toBe(true);
      expect(await verifyPassword((await userRow(otherViewer.id)).passwordHash, TEST_PASSWORD)).toBe(true);

      // An admin manages viewers; a viewer with the manage-users flag does too.
      await changePassword(adminCtx, otherViewer.id, { newPassword: 'Set-By-Admin-1' });
      expect(await verifyPassword((await userRow(otherViewer.id)).passwordHash, 'Set-By-Admin-1')).toBe(true);
      const manager = await createTestUser(db, { role: 'viewer', flags: { canManageUsers: true } });
      await changePassword(await userContext(db, manager.id), otherViewer.id, { newPassword: 'Set-By-Manager-1' });
      expect(await verifyPassword((await userRow(otherViewer.id)).passwordHash, 'Set-By-Manager-1')).toBe(true);
    });

    it('an administrator still needs 8+ characters and a password that differs from the current one', async () => {
      const target = await createTestUser(db);
      const ctx = await userContext(db, owner);
      const short = await rejection(changePassword(ctx, target.id, { newPassword: 'short' }));
      expect(short.status).toBe(400);
      expect(short.errors).toContainEqual({
        field: 'newPassword',
        message: 'New password must be at least 8 characters',
      });
      const same = await rejection(changePassword(ctx, target.id, { newPassword: TEST_PASSWORD }));
      expect(same.status).toBe(400);
      expect(same.errors).toContainEqual({
        field: 'newPassword',
        message: 'New password must be different from the current password',
      });
    });

    it("a company-scoped manager gets 404 for another company's user, and may set their own company's", async () => {
      const companies = await db.selectFrom('companies').select(['id', 'name']).orderBy('id').execute();
      const [first, second] = companies;
      const scopedAdmin = await createTestUser(db, { role: 'admin', companyId: first.id });
      const inOther = await createTestUser(db, { companyId: second.id });
      const inOwn = await createTestUser(db, { companyId: first.id });
      const everywhere = await createTestUser(db, { companyId: null });
      const ctx = await userContext(db, scopedAdmin.id);

      const hidden = await rejection(changePassword(ctx, inOther.id, { newPassword: 'Scoped-Set-1' }));
      expect(hidden.status).toBe(404);
      expect(hidden.message).toBe('Resource not found');
      expect(await verifyPassword((await userRow(inOther.id)).passwordHash, TEST_PASSWORD)).toBe(true);

      // A user of all companies is outside a company-scoped manager's reach as well.
      const outside = await rejection(changePassword(ctx, everywhere.id, { newPassword: 'Scoped-Set-1' }));
      expect([403, 404]).toContain(outside.status);
      expect(await verifyPassword((await userRow(everywhere.id)).passwordHash, TEST_PASSWORD)).toBe(true);

      await changePassword(ctx, inOwn.id, { newPassword: 'Scoped-Set-1' });
      expect(await verifyPassword((await userRow(inOwn.id)).passwordHash, 'Scoped-Set-1')).toBe(true);
    });

    it("any company-scoped user gets 404 (not 403) for another company's user, so existence does not leak", async () => {
      // Rows of other companies answer 404 (not 403). A scoped user without the
      // manage-users flag must not be able to tell an existing user of another company (403)
      // from an id that does not exist (404).
      const [first, second] = await db.selectFrom('companies').select('id').orderBy('id').execute();
      const scopedViewer = await createTestUser(db, { role: 'viewer', companyId: first.id });
      const inOther = await createTestUser(db, { companyId: second.id });
      const ctx = await userContext(db, scopedViewer.id);
      const missing = await rejection(changePassword(ctx, 987_654_321, { newPassword: 'Probe-Pass-1' }));
      expect(missing.status).toBe(404);
      const existing = await rejection(changePassword(ctx, inOther.id, { newPassword: 'Probe-Pass-1' }));
      expect(existing.status).toBe(404);
      expect(await verifyPassword((await userRow(inOther.id)).passwordHash, TEST_PASSWORD)).toBe(true);
    });

    it('an unknown user is a 404; a system actor is refused', async () => {
      const ctx = await userContext(db, owner);
      const error = await rejection(changePassword(ctx, 987654, { newPassword: 'Whatever-123' }));
      expect(error.status).toBe(404);
      const target = await createTestUser(db);
      const system = await rejection(
        changePassword({ db, actor: { kind: 'system', label: 'cli' }, meta: {}, runtime: noEngine() }, target.id, {
          newPassword: 'Whatever-123',
        }),
      );
      expect(system.status).toBe(403);
    });
  });
});
