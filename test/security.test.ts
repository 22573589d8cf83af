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
});
