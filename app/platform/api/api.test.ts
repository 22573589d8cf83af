// The /api JSON contract (docs/api.md, docs/security.md) over real HTTP, on every test dialect.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { verifyPassword } from '../../features/auth/passwords.server.ts';
import { OWNER_PASSWORD, TEST_DIALECTS } from '../../../test/database.ts';
import { startTestServer, TestClient, type TestServer, useTestServer } from '../../../test/server.ts';
import { createTestUser, TEST_PASSWORD } from '../../../test/users.ts';

const OWNER = 'owner@example.com';

/** The Set-Cookie line for one cookie name. */
function setCookie(response: Response, name: string): string | undefined {
  return response.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
}

/** A client carrying only the given session cookie value (an old cookie replayed). */
function replay(server: TestServer, session: string): TestClient {
  const client = new TestClient(server.baseUrl);
  client.cookies.set('__session', session);
  return client;
}

/**
 * Freezes the clock (Date only; the test server runs in this process) at the first second of
 * the next minute, so 101 requests fall in one rate-limit window however slow the machine is.
 * This used to sleep until the next minute when fewer than a few seconds were left.
 */
function freezeClockAtNextMinute(): void {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Math.ceil(Date.now() / 60_000) * 60_000 + 1_000);
}

describe.each(TEST_DIALECTS)('/api on %s', (dialect) => {
  const { server, db, client } = useTestServer(dialect);
  const passwordOf = async (id: number) =>
    (await db().selectFrom('users').select('passwordHash').where('id', '=', id).executeTakeFirstOrThrow()).passwordHash;

  describe('POST /api/auth/login', () => {
    it('200 with { success, user } and an httpOnly SameSite=Lax session cookie', async () => {
      const user = await createTestUser(db(), { role: 'editor' });
      const c = client();
      const response = await c.post('/api/auth/login', { email: user.email, password: TEST_PASSWORD });
      expect(response.status).toBe(200);
      expect(response.headers.get('Content-Type')).toContain('application/json');
      const body = await response.json();
      expect(body.success).toBe(true);
      expect(body.user).toMatchObject({ id: user.id, email: user.email, role: 'editor', mustChangePassword: false });
      expect(body.user.permissions).toMatchObject({ canAccessFinancialData: true, canCreate: true, canDelete: false });
      expect(JSON.stringify(body)).not.toMatch(/passwordHash|argon2/);

      const cookie = setCookie(response, '__session')!;
      expect(cookie).toBeDefined();
      expect(cookie).toMatch(/;\s*HttpOnly/i);
      expect(cookie).toMatch(/;\s*SameSite=Lax/i);
      expect(cookie).toMatch(/;\s*Path=\//i);
      expect(cookie).not.toMatch(/;\s*Secure/i); // plain HTTP on loopback
      expect(cookie).not.toMatch(/Max-Age/i); // a browser-session cookie without Remember me
      // The cookie carries an opaque token, not the user's data.
      expect(decodeURIComponent(cookie)).not.toContain(user.email);

      const me = await c.get('/api/auth/me');
      expect(me.status).toBe(200);
      expect(await me.json()).toMatchObject({ id: user.id, email: user.email });
    });

    it('remember me makes the cookie last 30 days', async () => {
      const user = await createTestUser(db());
      const response = await client().post('/api/auth/login', {
        email: user.email,
        password: TEST_PASSWORD,
        rememberMe: true,
      });
      expect(response.status).toBe(200);
      expect(setCookie(response, '__session')).toMatch(/Max-Age=2592000/i);
    });

    it('signing in again rotates the session: the previous cookie stops working', async () => {
      const user = await createTestUser(db());
      const c = client();
      await c.login(user.email, TEST_PASSWORD);
      const first = c.cookies.get('__session')!;
      await c.login(user.email, TEST_PASSWORD);
      expect(c.cookies.get('__session')).not.toBe(first);
      expect((await replay(server(), first).get('/api/auth/me')).status).toBe(401);
      expect((await c.get('/api/auth/me')).status).toBe(200);
    });

    it('401 { success: false, error } with the same message for a wrong password and an unknown e-mail', async () => {
      const user = await createTestUser(db());
      for (const credentials of [
        { email: user.email, password: 'Wrong-Password-1' },
        { email: 'nobody-at-all@example.com', password: 'Wrong-Password-1' },
      ]) {
        const response = await client().post('/api/auth/login', credentials);
        expect(response.status).toBe(401);
        const body = await response.json();
        expect(body).toMatchObject({ success: false, error: 'Invalid email or password' });
        expect(setCookie(response, '__session')).toBeUndefined();
      }
    });

    it('400 with errors[] for a missing or invalid e-mail', async () => {
      const missing = await client().post('/api/auth/login', { password: 'whatever-pass' });
      expect(missing.status).toBe(400);
      const missingBody = await missing.json();
      expect(missingBody.success).toBe(false);
      expect(missingBody.errors).toContainEqual({ field: 'email', message: 'Email is required' });

      const bad = await client().post('/api/auth/login', { email: 'not-an-address', password: 'whatever-pass' });
      expect(bad.status).toBe(400);
      expect((await bad.json()).errors).toContainEqual({
        field: 'email',
        message: 'Please enter a valid email address',
      });
    });

    it("malformed JSON is a 400 'Invalid data' with errors, never a 500", async () => {
      const response = await client().request('/api/auth/login', {
        method: 'POST',
        body: '{"email": "owner@example.com", ',
        headers: { 'Content-Type': 'application/json' },
      });
      expect(response.status).toBe(400);
      const body = await response.json();
      expect(body.message).toBe('Invalid data');
      expect(Array.isArray(body.errors)).toBe(true);
      expect(body.errors.length).toBeGreaterThan(0);
    });

    it('429 with Retry-After after five failures on an account', async () => {
      const user = await createTestUser(db());
      for (let i = 0; i < 5; i++) {
        expect(
          (await client().post('/api/auth/login', { email: user.email, password: `Wrong-${i}-Password` })).status,
        ).toBe(401);
      }
      const response = await client().post('/api/auth/login', { email: user.email, password: TEST_PASSWORD });
      expect(response.status).toBe(429);
      const retryAfter = Number(response.headers.get('Retry-After'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      const body = await response.json();
      expect(body.success).toBe(false);
      expect(body.error).toMatch(/too many/i);
      expect(setCookie(response, '__session')).toBeUndefined();
    });
  });

  describe('/api/auth/me, /api/auth/user and /api/auth/logout', () => {
    it.each(['/api/auth/me', '/api/auth/user'])("%s without a cookie is 401 'Not authenticated'", async (path) => {
      const response = await client().get(path);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ message: 'Not authenticated' });
    });

    it('a forged or tampered cookie is 401', async () => {
      const user = await createTestUser(db());
      const c = client();
      await c.login(user.email, TEST_PASSWORD);
      const value = c.cookies.get('__session')!;
      expect((await replay(server(), `${value.slice(0, -3)}abc`).get('/api/auth/me')).status).toBe(401);
      expect((await replay(server(), 'forged-token').get('/api/auth/me')).status).toBe(401);
    });

    it('/api/auth/user answers like /api/auth/me', async () => {
      const user = await createTestUser(db(), { role: 'viewer', flags: { canAccessAuditLogs: true } });
      const c = client();
      await c.login(user.email, TEST_PASSWORD);
      const me = await (await c.get('/api/auth/me')).json();
      const same = await (await c.get('/api/auth/user')).json();
      expect(same).toEqual(me);
      expect(me).toMatchObject({
        id: user.id,
        role: 'viewer',
        permissions: { canAccessAuditLogs: true, canCreate: false },
      });
      expect(JSON.stringify(me)).not.toMatch(/passwordHash|argon2/);
    });

    it('logout ends the session server-side: the old cookie is rejected afterwards', async () => {
      const user = await createTestUser(db());
      const c = client();
      await c.login(user.email, TEST_PASSWORD);
      const old = c.cookies.get('__session')!;
      const response = await c.post('/api/auth/logout');
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ success: true });
      expect(setCookie(response, '__session')).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/i);
      expect(c.cookies.has('__session')).toBe(false);
      expect((await replay(server(), old).get('/api/auth/me')).status).toBe(401);
      const session = await db()
        .selectFrom('userSessions')
        .selectAll()
        .where('userId', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(session).toMatchObject({ isActive: false, endReason: 'logout' });
      // Signing out twice is harmless.
      expect((await replay(server(), old).post('/api/auth/logout')).status).toBe(200);
    });
  });

  describe('temporary password', () => {
    it('locks every non-auth call with 403 until the password is changed', async () => {
      const user = await createTestUser(db(), { isTemporaryPassword: true });
      const c = client();
      const signedIn = await c.login(user.email, TEST_PASSWORD);
      expect(signedIn.user.mustChangePassword).toBe(true);

      const locked = await c.post(`/api/users/${user.id}/change-password`, {
        currentPassword: TEST_PASSWORD,
        newPassword: 'Locked-Out-Pass-1',
      });
      expect(locked.status).toBe(403);
      expect(await locked.json()).toEqual({ message: 'Password change required' });
      expect(await verifyPassword(await passwordOf(user.id), TEST_PASSWORD)).toBe(true);

      const me = await c.get('/api/auth/me');
      expect(me.status).toBe(200);
      expect((await me.json()).mustChangePassword).toBe(true);

      const changed = await c.post('/api/auth/change-password', {
        currentPassword: TEST_PASSWORD,
        newPassword: 'Chosen-Pass-123',
      });
      expect(changed.status).toBe(200);
      expect(await changed.json()).toEqual({ success: true, message: 'Password changed successfully' });

      // Same cookie, now unlocked.
      expect((await (await c.get('/api/auth/me')).json()).mustChangePassword).toBe(false);
      const unlocked = await c.post(`/api/users/${user.id}/change-password`, {
        currentPassword: 'Chosen-Pass-123',
        newPassword: 'Chosen-Pass-456',
      });
      expect(unlocked.status).toBe(200);
    });

    it('/api/auth/change-password validates like the service', async () => {
      const user = await createTestUser(db());
      const c = client();
      await c.login(user.email, TEST_PASSWORD);
      const wrong = await c.post('/api/auth/change-password', {
        currentPassword: 'Not-My-Password',
        newPassword: 'Whatever-Pass-1',
      });
      expect(wrong.status).toBe(400);
      expect(await wrong.json()).toEqual({
        message: 'Invalid data',
        errors: [{ field: 'currentPassword', message: 'Current password is incorrect' }],
      });
      const short = await c.post('/api/auth/change-password', { currentPassword: TEST_PASSWORD, newPassword: 'short' });
      expect(short.status).toBe(400);
      expect((await short.json()).errors).toContainEqual({
        field: 'newPassword',
        message: 'New password must be at least 8 characters',
      });
      const malformed = await c.request('/api/auth/change-password', {
        method: 'POST',
        body: 'nope{',
        headers: { 'Content-Type': 'application/json' },
      });
      expect(malformed.status).toBe(400);
      expect((await malformed.json()).message).toBe('Invalid data');
      expect(
        (await client().post('/api/auth/change-password', { currentPassword: 'x', newPassword: 'yyyyyyyy' })).status,
      ).toBe(401);
    });
  });

  describe('POST /api/users/{id}/change-password', () => {
    it('oneself, with the current password', async () => {
      const user = await createTestUser(db());
      const c = client();
      await c.login(user.email, TEST_PASSWORD);
      const response = await c.post(`/api/users/${user.id}/change-password`, {
        currentPassword: TEST_PASSWORD,
        newPassword: 'Self-Chosen-1',
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ success: true, message: 'Password changed successfully' });
      expect(await verifyPassword(await passwordOf(user.id), 'Self-Chosen-1')).toBe(true);
      // The session that made the change goes on.
      expect((await c.get('/api/auth/me')).status).toBe(200);
    });

    it('another user: a viewer gets 403, the owner may, and the target is signed out and must change it', async () => {
      const viewer = await createTestUser(db());
      const target = await createTestUser(db());
      const viewerClient = client();
      await viewerClient.login(viewer.email, TEST_PASSWORD);
      const targetClient = client();
      await targetClient.login(target.email, TEST_PASSWORD);

      const denied = await viewerClient.post(`/api/users/${target.id}/change-password`, {
        newPassword: 'Set-By-Viewer-1',
      });
      expect(denied.status).toBe(403);
      expect(await denied.json()).toEqual({ message: 'Forbidden' });
      expect(await verifyPassword(await passwordOf(target.id), TEST_PASSWORD)).toBe(true);

      const ownerClient = client();
      await ownerClient.login(OWNER, OWNER_PASSWORD);
      const allowed = await ownerClient.post(`/api/users/${target.id}/change-password`, {
        newPassword: 'Set-By-Owner-1',
      });
      expect(allowed.status).toBe(200);
      expect(await verifyPassword(await passwordOf(target.id), 'Set-By-Owner-1')).toBe(true);
      expect((await targetClient.get('/api/auth/me')).status).toBe(401);
      expect((await ownerClient.get('/api/auth/me')).status).toBe(200);

      const again = client();
      const body = await again.login(target.email, 'Set-By-Owner-1');
      expect(body.user.mustChangePassword).toBe(true);
      const locked = await again.post(`/api/users/${target.id}/change-password`, {
        currentPassword: 'Set-By-Owner-1',
        newPassword: 'Target-Chosen-1',
      });
      expect(locked.status).toBe(403);
      expect(await locked.json()).toEqual({ message: 'Password change required' });
    });

    it("404 'Resource not found' for an unknown or non-numeric id; 401 without a session", async () => {
      const owner = client();
      await owner.login(OWNER, OWNER_PASSWORD);
      for (const id of ['987654', 'abc', '0', '-1', '1.5']) {
        const response = await owner.post(`/api/users/${id}/change-password`, { newPassword: 'Whatever-Pass-1' });
        expect(response.status, id).toBe(404);
        expect(await response.json(), id).toEqual({ message: 'Resource not found' });
      }
      expect((await client().post('/api/users/1/change-password', { newPassword: 'Whatever-Pass-1' })).status).toBe(
        401,
      );
    });
  });

  describe('routing', () => {
    it('unknown /api paths answer 404 JSON, signed in or not', async () => {
      const owner = client();
      await owner.login(OWNER, OWNER_PASSWORD);
      for (const c of [client(), owner]) {
        for (const [method, path] of [
          ['GET', '/api/no-such-thing'],
          ['POST', '/api/no/such/thing'],
          ['DELETE', '/api/auth/nope'],
        ]) {
          const response = await c.request(path, { method });
          expect(response.status, `${method} ${path}`).toBe(404);
          expect(response.headers.get('Content-Type')).toContain('application/json');
          expect(await response.json()).toEqual({ message: 'Resource not found' });
        }
      }
    });

    it('a wrong method is a 405 naming the allowed ones', async () => {
      const get = await client().get('/api/auth/login');
      expect(get.status).toBe(405);
      expect(get.headers.get('Allow')).toBe('POST');
      expect(await get.json()).toEqual({ message: 'Method not allowed' });
      const put = await client().request('/api/auth/me', { method: 'PUT', json: {} });
      expect(put.status).toBe(405);
      expect(put.headers.get('Allow')).toBe('GET');
    });
  });

  describe('same-origin rule', () => {
    it('a cross-origin POST is a 403 and changes nothing', async () => {
      const user = await createTestUser(db());
      const c = client();
      await c.login(user.email, TEST_PASSWORD);
      const evil = { Origin: 'http://evil.example' };

      const change = await c.request('/api/auth/change-password', {
        method: 'POST',
        json: { currentPassword: TEST_PASSWORD, newPassword: 'Hijacked-Pass-1' },
        headers: evil,
      });
      expect(change.status).toBe(403);
      expect(await change.json()).toEqual({ message: 'Forbidden' });
      expect(await verifyPassword(await passwordOf(user.id), TEST_PASSWORD)).toBe(true);

      const logout = await c.request('/api/auth/logout', { method: 'POST', headers: evil });
      expect(logout.status).toBe(403);
      expect((await c.get('/api/auth/me')).status).toBe(200);

      const attemptsBefore = await db().selectFrom('loginAttempts').selectAll().execute();
      const login = await client().request('/api/auth/login', {
        method: 'POST',
        json: { email: user.email, password: TEST_PASSWORD },
        headers: evil,
      });
      expect(login.status).toBe(403);
      expect(setCookie(login, '__session')).toBeUndefined();
      expect(await db().selectFrom('loginAttempts').selectAll().execute()).toEqual(attemptsBefore);

      // Referer alone names the source when there is no Origin; 'null' is never ours.
      const referer = await c.request('/api/auth/logout', {
        method: 'POST',
        headers: { Referer: 'http://evil.example/page' },
      });
      expect(referer.status).toBe(403);
      const opaque = await c.request('/api/auth/logout', { method: 'POST', headers: { Origin: 'null' } });
      expect(opaque.status).toBe(403);
      expect((await c.get('/api/auth/me')).status).toBe(200);
    });

    it('a same-origin POST goes through', async () => {
      const user = await createTestUser(db());
      const response = await client().request('/api/auth/login', {
        method: 'POST',
        json: { email: user.email, password: TEST_PASSWORD },
        headers: { Origin: server().baseUrl, Referer: `${server().baseUrl}/login` },
      });
      expect(response.status).toBe(200);
    });
  });

  describe('headers and probes', () => {
    it('security headers on pages and API answers, with a fresh CSP nonce on every page', async () => {
      const nonces: string[] = [];
      for (const path of ['/', '/login', '/api/auth/me', '/api/nope']) {
        const response = await client().get(path);
        const csp = response.headers.get('Content-Security-Policy') ?? '';
        const scriptSrc =
          csp
            .split(';')
            .map((d) => d.trim())
            .find((d) => d.startsWith('script-src')) ?? '';
        expect(scriptSrc, path).toMatch(/'nonce-[^']+'/);
        expect(scriptSrc, path).not.toContain("'unsafe-inline'");
        expect(response.headers.get('X-Frame-Options'), path).toBe('DENY');
        expect(response.headers.get('X-Content-Type-Options'), path).toBe('nosniff');
        expect(response.headers.get('Referrer-Policy'), path).toBeTruthy();
        expect(response.headers.get('X-Powered-By'), path).toBeNull();
        const nonce = /'nonce-([^']+)'/.exec(scriptSrc)![1];
        nonces.push(nonce);
        if (!path.startsWith('/api')) {
          const html = await response.text();
          const scripts = html.match(/<script\b[^>]*>/g) ?? [];
          expect(scripts.length, path).toBeGreaterThan(0);
          for (const tag of scripts) expect(tag, path).toContain(`nonce="${nonce}"`);
        }
      }
      expect(new Set(nonces).size).toBe(nonces.length);
    });

    it('/healthz and /readyz answer JSON', async () => {
      const health = await client().get('/healthz');
      expect(health.status).toBe(200);
      const body = await health.json();
      expect(body.status).toBe('ok');
      expect(typeof body.uptime).toBe('number');
      const ready = await client().get('/readyz');
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ready', database: dialect });
    });

    it('serves the files of public/ (only those go through the static handler)', async () => {
      const favicon = await client().get('/favicon.svg');
      expect(favicon.status).toBe(200);
      expect(favicon.headers.get('Content-Type')).toContain('image/svg+xml');
      expect(favicon.headers.get('Cache-Control')).toBe('public, max-age=3600');
      expect(await favicon.text()).toContain('<svg');
      const worker = await client().get('/sw.js');
      expect(worker.status).toBe(200);
      expect(worker.headers.get('Cache-Control')).toBe('no-cache');
      expect((await client().get('/favicon.svg.bak')).status).toBe(404);
    });

    it('API answers are not cached', async () => {
      expect((await client().get('/api/auth/me')).headers.get('Cache-Control')).toBe('no-store');
    });
  });

  describe('rate limit', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('the 101st API call in a minute is a 429 with Retry-After', async () => {
      const user = await createTestUser(db());
      const c = client();
      await c.login(user.email, TEST_PASSWORD);
      freezeClockAtNextMinute();
      for (let i = 0; i < 100; i++) {
        const response = await c.get('/api/auth/me');
        if (response.status !== 200) throw new Error(`request ${i + 1} answered ${response.status}`);
      }
      const limited = await c.get('/api/auth/me');
      expect(limited.status).toBe(429);
      expect(await limited.json()).toEqual({ message: 'Too many requests' });
      const retryAfter = Number(limited.headers.get('Retry-After'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      // Another user is not affected.
      const other = client();
      await other.login(OWNER, OWNER_PASSWORD);
      expect((await other.get('/api/auth/me')).status).toBe(200);
    });
  });
});

describe.each(TEST_DIALECTS)('errors never leak on %s', (dialect) => {
  let server: TestServer;
  let cookie: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    const c = new TestClient(server.baseUrl);
    await c.login(OWNER, OWNER_PASSWORD);
    cookie = c.cookies.get('__session')!;
    // Break the database under the running server.
    await server.database.db.schema.dropTable('user_settings').execute();
  });
  afterAll(() => server?.close());

  it('a 500 from the API is { message } only, and a page 500 shows no stack', async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const leaks = /user_settings|no such table|does not exist|\bat .+:\d+:\d+|node_modules|\.ts\b/;
      const me = await replay(server, cookie).get('/api/auth/me');
      expect(me.status).toBe(500);
      const meText = await me.text();
      expect(JSON.parse(meText)).toEqual({ message: 'Internal server error' });
      expect(meText).not.toMatch(leaks);

      const login = await new TestClient(server.baseUrl).post('/api/auth/login', {
        email: OWNER,
        password: OWNER_PASSWORD,
      });
      expect(login.status).toBe(500);
      const loginText = await login.text();
      expect(JSON.parse(loginText).message).toBe('Internal server error');
      expect(loginText).not.toMatch(leaks);

      const page = await replay(server, cookie).get('/');
      expect(page.status).toBe(500);
      const html = await page.text();
      expect(html).not.toMatch(leaks);
    } finally {
      quiet.mockRestore();
    }
  });
});
