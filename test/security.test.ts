// Security findings over HTTP (docs/security.md): open redirects after sign-in, the same-origin rule,
// no-store caching, proxy addresses, sign-in and current-password throttling, reference data.
import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from './database.ts';
import { useTestServer } from './server.ts';
import { createTestUser, TEST_PASSWORD } from './users.ts';

const ATTACKS = [
  '/.//evil.example',
  '/..//evil.example/phish',
  '/a/..//evil.example/x',
  '/%2e//evil.example',
  '/\\evil.example',
  '/./\\evil.example',
  '/\t/evil.example',
  '/.\n//evil.example',
];

describe.each(TEST_DIALECTS)('security over HTTP on %s', (dialect) => {
  const { server, db, client, signedIn } = useTestServer(dialect);

  describe('redirectTo after sign-in', () => {
    it('GET /login when signed in never redirects off the site, whatever the dot segments', async () => {
      const { c } = await signedIn();
      for (const target of ATTACKS) {
        const response = await c.get(`/login?redirectTo=${encodeURIComponent(target)}`);
        expect(response.status, JSON.stringify(target)).toBe(302);
        expect(response.headers.get('Location'), JSON.stringify(target)).toBe('/');
      }
      const ok = await c.get(`/login?redirectTo=${encodeURIComponent('/budget-planning?page=2')}`);
      expect(ok.headers.get('Location')).toBe('/budget-planning?page=2');
    });

    it('the sign-in form never redirects off the site either', async () => {
      const user = await createTestUser(db());
      for (const redirectTo of ATTACKS) {
        const response = await client().postForm('/login', { email: user.email, password: TEST_PASSWORD, redirectTo });
        expect(response.status, JSON.stringify(redirectTo)).toBe(302);
        expect(response.headers.get('Location'), JSON.stringify(redirectTo)).toBe('/');
      }
    });
  });

  describe('a partial user manager (manage users, but not delete/backups/audit logs)', () => {
    it('cannot take over a more powerful account through the API', async () => {
      const { c } = await signedIn({ role: 'viewer', flags: { canManageUsers: true } });
      const target = await createTestUser(db(), { role: 'viewer', flags: { canDelete: true, canAccessBackups: true } });
      const calls: [string, () => Promise<Response>][] = [
        ['change-password', () => c.post(`/api/users/${target.id}/change-password`, { newPassword: 'Taken-Over-123' })],
        ['temporary-password', () => c.post(`/api/users/${target.id}/temporary-password`)],
        [
          'edit',
          () => c.request(`/api/users/${target.id}`, { method: 'PUT', json: { username: `${target.username}x` } }),
        ],
        ['delete', () => c.request(`/api/users/${target.id}`, { method: 'DELETE' })],
      ];
      for (const [name, call] of calls) {
        const response = await call();
        expect(response.status, name).toBe(403);
        expect(await response.json(), name).toEqual({ message: 'Forbidden' });
      }
      await client().login(target.email, TEST_PASSWORD);
    });

    it('the User Management screen hides and refuses the same actions', async () => {
      const { c } = await signedIn({ role: 'viewer', flags: { canManageUsers: true } });
      const target = await createTestUser(db(), { role: 'viewer', flags: { canAccessAuditLogs: true } });
      const page = await (await c.get(`/user-management?q=${target.username}`)).text();
      expect(page).toContain(target.email);
      // The row's buttons are disabled and its Edit / Permissions links are not offered.
      expect(page).not.toContain(`aria-label="Edit ${target.username}"`);
      expect(page).not.toContain(`aria-label="Permissions of ${target.username}"`);
      for (const label of [
        `Create temporary password for ${target.username}`,
        `Deactivate ${target.username}`,
        `Delete ${target.username}`,
      ]) {
        expect(page, label).toMatch(new RegExp(`<button[^>]*disabled=""[^>]*aria-label="${label}"`));
      }
      for (const intent of ['temporary-password', 'deactivate', 'delete']) {
        const response = await c.postForm('/user-management', { intent, id: String(target.id), confirmed: '1' });
        expect(response.status, intent).toBe(403);
      }
      const row = await db()
        .selectFrom('users')
        .select(['isActive', 'isTemporaryPassword'])
        .where('id', '=', target.id)
        .executeTakeFirstOrThrow();
      expect(Boolean(row.isActive)).toBe(true);
      expect(Boolean(row.isTemporaryPassword)).toBe(false);
    });
  });

  describe('group-wide reference data (companies, departments)', () => {
    const ATLAS = 3;

    it('a company-scoped admin reads but never writes departments or companies over the API', async () => {
      const { c: owner } = await signedIn({ role: 'owner' });
      const dept = await (await owner.post('/api/departments', { name: `Sec dept ${dialect}` })).json();
      const { c } = await signedIn({ role: 'admin', companyId: ATLAS });
      expect((await c.get('/api/departments')).status).toBe(200);
      const refused: [string, Promise<Response>][] = [
        ['create department', c.post('/api/departments', { name: `Scoped ${dialect}` })],
        [
          'rename department',
          c.request(`/api/departments/${dept.id}`, { method: 'PUT', json: { name: `Renamed ${dialect}` } }),
        ],
        ['delete department', c.request(`/api/departments/${dept.id}`, { method: 'DELETE' })],
        ['create company', c.post('/api/companies', { name: `Scoped Co ${dialect}`, type: 'fintech' })],
        [
          'rename own company',
          c.request(`/api/companies/${ATLAS}`, { method: 'PUT', json: { name: `Renamed Co ${dialect}` } }),
        ],
      ];
      for (const [name, call] of refused) expect((await call).status, name).toBe(403);
      const row = await db().selectFrom('departments').select('name').where('id', '=', dept.id).executeTakeFirst();
      expect(row?.name).toBe(`Sec dept ${dialect}`);
      // An unscoped admin still may.
      const { c: admin } = await signedIn({ role: 'admin' });
      expect((await admin.request(`/api/departments/${dept.id}`, { method: 'DELETE' })).status).toBe(204);
    });

    it('the /departments screen offers no Add to a company-scoped admin and refuses its posts', async () => {
      const { c } = await signedIn({ role: 'admin', companyId: ATLAS });
      const page = await c.get('/departments');
      expect(page.status).toBe(200);
      expect(await page.text()).not.toMatch(/Add (<!-- -->)?Department/);
      const post = await c.postForm('/departments?new=1', {
        intent: 'create',
        name: `Screen ${dialect}`,
        description: '',
      });
      expect(post.status).toBe(403);
      const deleted = await c.postForm('/departments', { intent: 'delete', id: '1', confirmed: '1' });
      expect(deleted.status).toBe(403);
      expect(
        await db().selectFrom('departments').select('id').where('name', '=', `Screen ${dialect}`).executeTakeFirst(),
      ).toBeUndefined();
      const { c: admin } = await signedIn({ role: 'admin' });
      expect(await (await admin.get('/departments')).text()).toMatch(/Add (<!-- -->)?Department/);
    });
  });

  describe('same-origin rule for state-changing requests', () => {
    it('refuses a POST with neither Origin nor Referer, an opaque origin and another scheme; passes our own', async () => {
      const user = await createTestUser(db());
      const login = (headers: Record<string, string>, sameOrigin = true) =>
        client().request('/api/auth/login', {
          method: 'POST',
          json: { email: user.email, password: TEST_PASSWORD },
          headers,
          sameOrigin,
        });
      const none = await login({}, false);
      expect(none.status).toBe(403);
      expect(await none.json()).toEqual({ message: 'Forbidden' });
      expect((await login({ Origin: 'null' })).status).toBe(403);
      const https = server().baseUrl.replace(/^http:/, 'https:');
      expect((await login({ Origin: https })).status).toBe(403);
      expect((await login({ Referer: `${https}/login` })).status).toBe(403);
      expect((await login({ Origin: server().baseUrl })).status).toBe(200);
      expect((await login({ Referer: `${server().baseUrl}/login` })).status).toBe(200);
      // The test client sends our Origin by default.
      expect((await login({})).status).toBe(200);
      // A form post without either header is refused too.
      const form = await client().request('/login', {
        method: 'POST',
        body: new URLSearchParams({ email: user.email, password: TEST_PASSWORD }),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        sameOrigin: false,
      });
      expect(form.status).toBe(403);
    });
  });

  describe('caching', () => {
    it('pages and loader data rendered for a signed-in user are never stored by a cache', async () => {
      const { c } = await signedIn({ role: 'admin' });
      for (const path of [
        '/',
        '/profile',
        '/departments',
        '/user-management',
        '/departments?_data=routes%2F_shell.departments',
      ]) {
        const response = await c.get(path);
        expect(response.status, path).toBe(200);
        expect(response.headers.get('Cache-Control'), path).toBe('no-store');
      }
      const csv = await c.get('/export/departments');
      expect(csv.headers.get('Cache-Control')).toBe('no-store');
      expect((await c.get('/api/auth/me')).headers.get('Cache-Control')).toBe('no-store');
    });
  });

  describe('wrong current passwords', () => {
    it('the API answers 429 with Retry-After after five wrong current passwords', async () => {
      const { c } = await signedIn();
      for (let i = 0; i < 5; i++) {
        const wrong = await c.post('/api/auth/change-password', {
          currentPassword: `Wrong-Current-${i}`,
          newPassword: 'Brand-New-Pass-1',
        });
        expect(wrong.status).toBe(400);
      }
      const blocked = await c.post('/api/auth/change-password', {
        currentPassword: TEST_PASSWORD,
        newPassword: 'Brand-New-Pass-1',
      });
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get('Retry-After'))).toBeGreaterThan(0);
      expect(await blocked.json()).toEqual({ message: 'Too many attempts. Please try again later.' });
    });

    it('the /profile password form answers 429 with the form error after five wrong current passwords', async () => {
      const { c } = await signedIn();
      const post = (currentPassword: string) =>
        c.postForm('/profile?password=1', {
          intent: 'password',
          currentPassword,
          newPassword: 'Brand-New-Pass-1',
          confirmPassword: 'Brand-New-Pass-1',
        });
      for (let i = 0; i < 5; i++) {
        const wrong = await post(`Wrong-Current-${i}`);
        expect(wrong.status).toBe(400);
        expect(await wrong.text()).toContain('Current password is incorrect');
      }
      const blocked = await post(TEST_PASSWORD);
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get('Retry-After'))).toBeGreaterThan(0);
      expect(await blocked.text()).toContain('Too many attempts. Please try again later.');
    });

    it('the /change-password form does the same', async () => {
      const { c } = await signedIn({ isTemporaryPassword: true });
      const post = (currentPassword: string) =>
        c.postForm('/change-password', {
          currentPassword,
          newPassword: 'Brand-New-Pass-1',
          confirmPassword: 'Brand-New-Pass-1',
        });
      for (let i = 0; i < 5; i++) expect((await post(`Wrong-Current-${i}`)).status).toBe(400);
      const blocked = await post(TEST_PASSWORD);
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get('Retry-After'))).toBeGreaterThan(0);
      expect(await blocked.text()).toContain('Too many attempts. Please try again later.');
    });
  });
});

describe.each(TEST_DIALECTS)('TRUST_PROXY=1 on %s', (dialect) => {
  const { db, client } = useTestServer(dialect, { env: { TRUST_PROXY: '1' } });

  it('takes the client address one hop from the right of X-Forwarded-For, not the leftmost', async () => {
    const user = await createTestUser(db());
    const c = client();
    const response = await c.request('/api/auth/login', {
      method: 'POST',
      json: { email: user.email, password: TEST_PASSWORD },
      headers: { 'X-Forwarded-For': '1.2.3.4, 5.6.7.8' },
    });
    expect(response.status).toBe(200);
    const session = await db()
      .selectFrom('userSessions')
      .select('ipAddress')
      .where('userId', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(session.ipAddress).toBe('5.6.7.8');
    const attempt = await db()
      .selectFrom('loginAttempts')
      .select('ipAddress')
      .where('email', '=', user.email)
      .executeTakeFirstOrThrow();
    expect(attempt.ipAddress).toBe('5.6.7.8');
  });

  it('five wrong passwords from address A lock A out of that account (429), not the owner at address B', async () => {
    const user = await createTestUser(db());
    const signIn = (password: string, ip: string) =>
      client().request('/api/auth/login', {
        method: 'POST',
        json: { email: user.email, password },
        headers: { 'X-Forwarded-For': ip },
      });
    for (let i = 0; i < 5; i++) expect((await signIn('Wrong-Password-1', '203.0.113.10')).status).toBe(401);
    const blocked = await signIn(TEST_PASSWORD, '203.0.113.10');
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect((await signIn(TEST_PASSWORD, '198.51.100.7')).status).toBe(200);
  });
});
