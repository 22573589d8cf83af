// The Playwright `test` of this suite: the shared database (the e2e server's SQLite file) and
// a factory for users with unique e-mail addresses, so tests never share an account (and so
// the per-account sign-in throttle never carries over from one test to another).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { test as base, expect, type BrowserContext, type Page, type Request } from '@playwright/test';
import { signIn } from './app.ts';
import { createDatabase, type DatabaseHandle } from '../../db/client.ts';
import type { PermissionFlag, Role } from '../../app/platform/lib/permissions.ts';
import { createTestUser, TEST_PASSWORD } from '../../test/users.ts';
import { ASSETS_URL } from '../../app/platform/http/assets.ts';

export { expect };

export interface E2EUser {
  id: number;
  email: string;
  password: string;
  role: Role;
  companyId: number | null;
}

export interface UserOptions {
  role?: Role;
  companyId?: number | null;
  flags?: Partial<Record<PermissionFlag, boolean>>;
  password?: string;
  isTemporaryPassword?: boolean;
  isActive?: boolean;
}

/** Seeded reference companies (db/seed/reference.ts), by id. */
export const COMPANY = { oneNetwork: 1, vult: 2, atlas: 3, spark: 4 } as const;

/** A POST the browser sent during the test, and how (a document navigation or a fetch). */
export interface RecordedPost {
  url: string;
  resourceType: string;
}

interface TestFixtures {
  /**
   * Automatic, in every test: every POST of the test's browser context. In the "no-js" project
   * it checks afterwards that JavaScript really was off (the page never hydrated: no
   * <html data-hydrated>, which the root sets on mount) and that every POST was a document
   * (a native form submission), not a fetch/XHR. In "js" it only records, and checks the app
   * did hydrate.
   */
  scripting: RecordedPost[];
  /** Creates a user directly in the database (the user-management screens come later). */
  createUser: (options?: UserOptions) => Promise<E2EUser>;
  /** True in the "js" project, false in "no-js". */
  js: boolean;
  /**
   * Signs the user in from a second browser (same JavaScript setting) and returns its page,
   * on the dashboard; the browser is closed after the test.
   */
  signInElsewhere: (user: E2EUser) => Promise<Page>;
}

interface WorkerFixtures {
  database: DatabaseHandle;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  database: [
    async ({}, use) => {
      const dataDir = process.env.E2E_DATA_DIR;
      if (!dataDir) throw new Error('E2E_DATA_DIR is not set: run the suite through playwright.config.ts');
      // Never create an empty database here: the server's must exist (it is gone if the server stopped).
      if (!fs.existsSync(path.join(dataDir, 'finhub.db')))
        throw new Error(`No e2e database in ${dataDir}: is the e2e server running?`);
      const handle = createDatabase({ dataDir });
      await use(handle);
      await handle.close();
    },
    { scope: 'worker' },
  ],

  createUser: async ({ database }, use, testInfo) => {
    await use(async (options = {}) => {
      const role = options.role ?? 'viewer';
      const project = testInfo.project.name.replace(/[^a-z0-9]/gi, '');
      const email = `e2e-${role}-${project}-${crypto.randomBytes(5).toString('hex')}@example.com`;
      const password = options.password ?? TEST_PASSWORD;
      const row = await createTestUser(database.db, { ...options, role, email, password });
      return { id: row.id, email, password, role, companyId: row.companyId ?? null };
    });
  },

  scripting: [
    async ({ context, page, js }, use, testInfo) => {
      // Strict in the no-js project whatever its settings say: that is what is being proved.
      const noJs = !js || testInfo.project.name === 'no-js';
      const posts: RecordedPost[] = [];
      const onRequest = (request: Request) => {
        if (request.method() === 'POST') posts.push({ url: request.url(), resourceType: request.resourceType() });
      };
      context.on('request', onRequest);
      await use(posts);
      context.off('request', onRequest);
      const onApp = !page.isClosed() && page.url().startsWith('http') && (await page.locator('body').count()) > 0;
      if (noJs) {
        if (onApp)
          await expect(
            page.locator('html[data-hydrated]'),
            'JavaScript ran in the no-js project: the page hydrated',
          ).toHaveCount(0);
        expect(
          posts.filter((p) => p.resourceType !== 'document'),
          'POSTs without JavaScript must be document (form) submissions',
        ).toEqual([]);
      } else if (onApp && (await page.locator(`link[rel="modulepreload"][href^="${ASSETS_URL}"]`).count()) > 0) {
        await expect(
          page.locator('html[data-hydrated]'),
          "the page has the app's scripts but never hydrated",
        ).toHaveCount(1);
      }
    },
    { auto: true },
  ],

  js: async ({ javaScriptEnabled }, use) => {
    await use(javaScriptEnabled !== false);
  },

  signInElsewhere: async ({ browser, js }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async (user) => {
      const context = await browser.newContext({ javaScriptEnabled: js });
      contexts.push(context);
      const page = await context.newPage();
      await signIn(page, user);
      await expect(page.getByTestId('access-card')).toBeVisible();
      return page;
    });
    for (const context of contexts) await context.close();
  },
});
