// Security findings over HTTP (DESIGN §5): open redirects after sign-in, the same-origin rule,
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
  const { server, db, client } = useTestServer(dialect);
  async function signedIn(options: Parameters<typeof createTestUser>[1] = {}) {
    const user = await createTestUser(db(), options);
    const c = client();
    await c.login(user.email, options.password ?? TEST_PASSWORD);
    return { user, c };
  }

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
        ['edit', () => c.request(`/api/users/${target.id}`, { method: 'PUT', json: { username: `${target.username}x` } })],
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
      for (const label of [`Create temporary password for ${target.username}`, `Deactivate ${target.username}`, `Delete ${target.username}`]) {
        expect(page, label).toMatch(new RegExp(`<button[^>]*disabled=""[^>]*aria-label="${label}"`));
      }
      for (const intent of ['temporary-password', 'deactivate', 'delete']) {
        const response = await c.postForm('/user-management', { intent, id: String(target.id), confirmed: '1' });
        expect(response.status, intent).toBe(403);
      }
      const row = await db().selectFrom('users').select(['isActive', 'isTemporaryPassword']).where('id', '=', target.id).executeTakeFirstOrThrow();
      expect(Boolean(row.isActive)).toBe(true);
      expect(Boolean(row.isTemporaryPassword)).toBe(false);
    });
  });
});
