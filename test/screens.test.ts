// Screens over HTTP without a browser (docs/screens.md): guards, redirects, the no-JavaScript
// sign-in, sign-out and change-password forms, and flash toasts.
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from './database.ts';
import { type TestClient, useTestServer } from './server.ts';
import { createTestUser, TEST_PASSWORD } from './users.ts';

function setCookie(response: Response, name: string): string | undefined {
  return response.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
}

describe.each(TEST_DIALECTS)('screens on %s', (dialect) => {
  const { server, db, client, signedIn } = useTestServer(dialect);

  describe('signed out', () => {
    it('a known screen redirects to /login with redirectTo', async () => {
      for (const [path, target] of [
        ['/budget-planning', '/login?redirectTo=%2Fbudget-planning'],
        ['/audit-trail?tab=logs&page=2', `/login?redirectTo=${encodeURIComponent('/audit-trail?tab=logs&page=2')}`],
        ['/user-management', '/login?redirectTo=%2Fuser-management'],
        ['/change-password', '/login?redirectTo=%2Fchange-password'],
      ]) {
        const response = await client().get(path);
        expect(response.status, path).toBe(302);
        expect(response.headers.get('Location'), path).toBe(target);
      }
    });

    it('the landing page and the login page are open', async () => {
      const home = await client().get('/');
      expect(home.status).toBe(200);
      const login = await client().get('/login');
      expect(login.status).toBe(200);
      const html = await login.text();
      expect(html).toContain('name="email"');
      expect(html).toContain('name="password"');
    });

    it('an unknown path is a 404', async () => {
      const response = await client().get('/no-such-page');
      expect(response.status).toBe(404);
      expect(setCookie(response, '__session')).toBeUndefined();
    });
  });

  describe('signed in', () => {
    // Read-only visits: one signed-in viewer serves them all.
    let viewer: TestClient;
    beforeAll(async () => {
      viewer = (await signedIn({ role: 'viewer' })).c;
    });

    it('a viewer gets 403 for user management, and the screens the role allows', async () => {
      const c = viewer;
      const forbidden = await c.get('/user-management');
      expect(forbidden.status).toBe(403);
      expect(await forbidden.text()).toContain('403');
      for (const path of [
        '/audit-trail',
        '/backup-recovery',
        '/system-settings',
        '/editor-stats',
        '/editor-dashboard',
      ]) {
        expect((await c.get(path)).status, path).toBe(403);
      }
      for (const path of ['/', '/budget-planning', '/companies', '/profile', '/change-password']) {
        expect((await c.get(path)).status, path).toBe(200);
      }
    });

    it('the sidebar only links what the user may open', async () => {
      const html = await (await viewer.get('/')).text();
      expect(html).toContain('href="/budget-planning"');
      expect(html).not.toContain('href="/user-management"');
      expect(html).not.toContain('href="/audit-trail"');
      const admin = await signedIn({ role: 'admin' });
      const adminHtml = await (await admin.c.get('/')).text();
      expect(adminHtml).toContain('href="/user-management"');
      expect(adminHtml).toContain('href="/audit-trail"');
    });

    it('an unknown path is a 404 page', async () => {
      const response = await viewer.get('/no-such-page');
      expect(response.status).toBe(404);
      expect(await response.text()).toContain('404 Page Not Found');
    });

    it("another company's own screens are a 404 for a company-scoped user", async () => {
      const vult = await db().selectFrom('companies').select('id').where('name', '=', 'Vult').executeTakeFirstOrThrow();
      const { c } = await signedIn({ role: 'viewer', companyId: vult.id });
      for (const path of ['/one-network-data', '/one-network-subscription-metrics']) {
        expect((await c.get(path)).status, path).toBe(404);
      }
      for (const path of ['/vult-financial-services', '/vult-subscriber-metrics', '/fintech-metrics']) {
        expect((await c.get(path)).status, path).toBe(200);
      }
      // All-company users open both companies' screens.
      expect((await viewer.get('/one-network-data')).status).toBe(200);
    });

    it('the login page sends a signed-in user on', async () => {
      const response = await viewer.get('/login?redirectTo=%2Fbudget-planning');
      expect(response.status).toBe(302);
      expect(response.headers.get('Location')).toBe('/budget-planning');
      const offsite = await viewer.get('/login?redirectTo=%2F%2Fevil.example');
      expect(offsite.headers.get('Location')).toBe('/');
    });

    it('a user with a temporary password is sent to /change-password from every page', async () => {
      const { c } = await signedIn({ isTemporaryPassword: true });
      for (const path of ['/', '/budget-planning', '/user-management', '/profile', '/no-such-page']) {
        const response = await c.get(path);
        expect(response.status, path).toBe(302);
        expect(response.headers.get('Location'), path).toBe('/change-password');
      }
      const page = await c.get('/change-password');
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Password change required');
    });
  });

  describe('the sign-in form', () => {
    it('signs in, sets the session cookie and redirects with a toast', async () => {
      const user = await createTestUser(db());
      const c = client();
      const response = await c.postForm('/login', { email: user.email, password: TEST_PASSWORD, redirectTo: '' });
      expect(response.status).toBe(302);
      expect(response.headers.get('Location')).toBe('/');
      const session = setCookie(response, '__session');
      expect(session).toMatch(/HttpOnly/i);
      expect(session).toMatch(/SameSite=Lax/i);
      expect(setCookie(response, '__toast')).toBeDefined();

      const home = await c.get('/');
      expect(home.status).toBe(200);
      expect(await home.text()).toContain('Welcome back!');
      // The toast is shown once.
      expect(await (await c.get('/')).text()).not.toContain('Welcome back!');
      expect((await c.get('/api/auth/me')).status).toBe(200);
    });

    it('goes back to redirectTo, but only on this site', async () => {
      const user = await createTestUser(db());
      const back = await client().postForm('/login', {
        email: user.email,
        password: TEST_PASSWORD,
        redirectTo: '/budget-planning?page=2',
      });
      expect(back.headers.get('Location')).toBe('/budget-planning?page=2');
      for (const redirectTo of ['//evil.example/x', 'https://evil.example/', '/\\evil.example']) {
        const response = await client().postForm('/login', { email: user.email, password: TEST_PASSWORD, redirectTo });
        expect(response.status, redirectTo).toBe(302);
        expect(response.headers.get('Location'), redirectTo).toBe('/');
      }
    });

    it('redirectTo with a tab or newline cannot leave the site either (browsers drop those characters)', async () => {
      const user = await createTestUser(db());
      const origin = new URL(server().baseUrl).origin;
      // '/\t/evil.example' passes a "starts with / but not //" check, yet a browser strips the
      // tab and follows '//evil.example': an open redirect.
      for (const redirectTo of ['/\t/evil.example/', '/\n/evil.example/', '/\r\n/evil.example/']) {
        const response = await client().postForm('/login', { email: user.email, password: TEST_PASSWORD, redirectTo });
        expect(response.status, JSON.stringify(redirectTo)).toBe(302);
        const location = response.headers.get('Location') ?? '';
        expect(new URL(location, server().baseUrl).origin, JSON.stringify(redirectTo)).toBe(origin);
      }
      const { c } = await signedIn();
      const response = await c.get('/login?redirectTo=%2F%09%2Fevil.example%2F');
      expect(response.status).toBe(302);
      expect(new URL(response.headers.get('Location') ?? '', server().baseUrl).origin).toBe(origin);
    });

    it('a body that is not a form is a 400, not a 500', async () => {
      const user = await createTestUser(db());
      const response = await client().request('/login', {
        method: 'POST',
        body: JSON.stringify({ email: user.email, password: TEST_PASSWORD }),
        headers: { 'Content-Type': 'application/json', Origin: server().baseUrl },
      });
      expect(response.status).toBe(400);
    });

    it('remember me makes the cookie persistent', async () => {
      const user = await createTestUser(db());
      const response = await client().postForm('/login', {
        email: user.email,
        password: TEST_PASSWORD,
        rememberMe: 'on',
      });
      expect(response.status).toBe(302);
      expect(setCookie(response, '__session')).toMatch(/Max-Age=2592000/i);
    });

    it("a wrong password is a 401 page saying 'Invalid email or password', without echoing the password", async () => {
      const user = await createTestUser(db());
      const response = await client().postForm('/login', { email: user.email, password: 'Wrong-Password-42' });
      expect(response.status).toBe(401);
      expect(setCookie(response, '__session')).toBeUndefined();
      const html = await response.text();
      expect(html).toContain('Invalid email or password');
      expect(html).not.toContain('Wrong-Password-42');
    });

    it('an empty form is a 400 with the field messages', async () => {
      const response = await client().postForm('/login', { email: '', password: '' });
      expect(response.status).toBe(400);
      const html = await response.text();
      expect(html).toContain('Email is required');
      expect(html).toContain('Password is required');
    });

    it('too many failures answer 429 with Retry-After', async () => {
      const user = await createTestUser(db());
      for (let i = 0; i < 5; i++) {
        expect((await client().postForm('/login', { email: user.email, password: `Wrong-${i}-Password` })).status).toBe(
          401,
        );
      }
      const response = await client().postForm('/login', { email: user.email, password: TEST_PASSWORD });
      expect(response.status).toBe(429);
      expect(await response.text()).toMatch(/Too many failed login attempts/);
      // 429 with Retry-After, for the no-JavaScript form as for the API.
      expect(Number(response.headers.get('Retry-After'))).toBeGreaterThan(0);
    });

    it('a cross-origin form post is refused', async () => {
      const user = await createTestUser(db());
      const response = await client().request('/login', {
        method: 'POST',
        body: new URLSearchParams({ email: user.email, password: TEST_PASSWORD }),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'http://evil.example' },
      });
      expect(response.status).toBe(403);
      expect(setCookie(response, '__session')).toBeUndefined();
    });
  });

  describe('the sign-out form', () => {
    it('ends the session, clears the cookie and says goodbye', async () => {
      const { user, c } = await signedIn();
      const old = c.cookies.get('__session')!;
      const response = await c.postForm('/logout', {});
      expect(response.status).toBe(302);
      expect(response.headers.get('Location')).toBe('/');
      expect(setCookie(response, '__session')).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/i);
      expect(c.cookies.has('__session')).toBe(false);
      expect(await (await c.get('/')).text()).toContain('Logged Out');

      const replayed = client();
      replayed.cookies.set('__session', old);
      expect((await replayed.get('/api/auth/me')).status).toBe(401);
      const budget = await replayed.get('/budget-planning');
      expect(budget.status).toBe(302);
      const session = await db()
        .selectFrom('userSessions')
        .selectAll()
        .where('userId', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(session.isActive).toBe(false);
    });

    it('GET /logout changes nothing', async () => {
      const { c } = await signedIn();
      const response = await c.get('/logout');
      expect(response.status).toBe(302);
      expect((await c.get('/api/auth/me')).status).toBe(200);
    });
  });

  describe('the change-password form', () => {
    it('a temporary-password user picks a new one and is let in', async () => {
      const { c } = await signedIn({ isTemporaryPassword: true });
      const mismatch = await c.postForm('/change-password', {
        currentPassword: TEST_PASSWORD,
        newPassword: 'Form-Chosen-1',
        confirmPassword: 'Form-Chosen-2',
      });
      expect(mismatch.status).toBe(400);
      expect(await mismatch.text()).toContain('New passwords don&#x27;t match');

      const wrong = await c.postForm('/change-password', {
        currentPassword: 'Not-The-Password',
        newPassword: 'Form-Chosen-1',
        confirmPassword: 'Form-Chosen-1',
      });
      expect(wrong.status).toBe(400);
      expect(await wrong.text()).toContain('Current password is incorrect');
      expect((await c.get('/')).status).toBe(302);

      const done = await c.postForm('/change-password', {
        currentPassword: TEST_PASSWORD,
        newPassword: 'Form-Chosen-1',
        confirmPassword: 'Form-Chosen-1',
      });
      expect(done.status).toBe(200);
      const html = await done.text();
      expect(html).toContain('Password changed successfully!');
      expect(html).not.toContain('Form-Chosen-1');
      expect((await c.get('/')).status).toBe(200);
      expect((await c.get('/budget-planning')).status).toBe(200);
    });
  });
});
