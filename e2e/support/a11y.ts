// Accessibility helpers: axe-core checks that collect the serious and critical violations of
// each page state, in the light theme and then the dark one on the same page, and an owner
// session signed in once per worker through the JSON API and reused as the Playwright storage
// state (no login form per test).
import crypto from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import {
  request as playwrightRequest,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
} from '@playwright/test';
import { expect, test as base } from './fixtures.ts';
import { E2E_BASE_URL } from './constants.ts';
import { waitForHydration } from './app.ts';
import type { Role } from '../../app/platform/lib/permissions.ts';
import { createTestUser, TEST_PASSWORD } from '../../test/users.ts';

export { expect };

export type Theme = 'light' | 'dark';

/**
 * The rules the theme can change the outcome of. The theme is CSS only (the `dark` class and the
 * color-scheme meta of <html>; the markup is the same), so a page state is checked with every
 * rule in the light theme, then switched to the dark one in place and checked with these.
 */
const DARK_RULES = ['color-contrast', 'link-in-text-block'];

type StorageState = Exclude<BrowserContextOptions['storageState'], string | undefined>;

/** The impacts that fail the check. */
const BLOCKING = new Set(['serious', 'critical']);

/**
 * Chromium runs no timers in a page whose JavaScript is disabled, and axe needs them (its run
 * never finishes there). Without JavaScript the page's DOM as rendered (its scripts, which never
 * ran, removed) is checked in a JavaScript-enabled page of the same origin and viewport, so the
 * stylesheet and the theme classes apply as they did. One such page per no-JS page.
 */
const mirrors = new WeakMap<Page, Promise<Page>>();
/** The mirror contexts of the running test, closed by the `mirrorCleanup` fixture after it. */
const openMirrors: BrowserContext[] = [];
async function mirrorOf(page: Page): Promise<Page> {
  let mirror = mirrors.get(page);
  if (!mirror) {
    mirror = (async () => {
      const context = await page
        .context()
        .browser()!
        .newContext({ javaScriptEnabled: true, viewport: page.viewportSize() });
      openMirrors.push(context);
      const other = await context.newPage();
      await other.goto(`${E2E_BASE_URL}/readyz`);
      return other;
    })();
    mirrors.set(page, mirror);
  }
  const other = await mirror;
  const html = await page.evaluate(() => {
    const copy = document.documentElement.cloneNode(true) as HTMLElement;
    for (const script of copy.querySelectorAll('script')) script.remove();
    return `<!DOCTYPE html>${copy.outerHTML}`;
  });
  await other.setContent(html, { waitUntil: 'load' });
  return other;
}

/**
 * The page in the theme, as the server renders it for a user with that theme: the `dark` class
 * and the color-scheme meta on <html>. Transitions are off from the first switch on, so colors
 * are read at their end value, not on their way there.
 */
async function showTheme(page: Page, theme: Theme): Promise<void> {
  await page.evaluate((dark) => {
    if (!document.getElementById('a11y-no-transitions')) {
      const style = document.createElement('style');
      style.id = 'a11y-no-transitions';
      style.textContent = '*, *::before, *::after { transition: none !important; animation: none !important; }';
      document.head.append(style);
    }
    document.documentElement.classList.toggle('dark', dark);
    document.querySelector('meta[name="color-scheme"]')?.setAttribute('content', dark ? 'dark' : 'light');
  }, theme === 'dark');
}

/**
 * Runs axe on the page as it is now, in the light theme and (unless `dark` is false) the dark
 * one, and records its serious/critical violations under `label` (ids, impact, help text and
 * the offending nodes' selectors), so one test reports every page state it visited instead of
 * stopping at the first.
 */
export async function audit(
  page: Page,
  label: string,
  found: string[],
  js: boolean,
  options: { dark?: boolean } = {},
): Promise<void> {
  const target = js ? page : await mirrorOf(page);
  await auditAsShown(target, label, found);
  if (options.dark === false) return;
  await showTheme(target, 'dark');
  try {
    await auditAsShown(target, `${label} (dark theme)`, found, DARK_RULES);
  } finally {
    await showTheme(target, 'light');
  }
}

async function auditAsShown(target: Page, label: string, found: string[], rules?: readonly string[]): Promise<void> {
  // Legacy mode runs axe in the page itself: the default (partial runs finished in a new blank
  // page) costs a page per check, and the app has no iframes to reach. Only violations are
  // serialized back.
  let builder = new AxeBuilder({ page: target }).setLegacyMode(true).options({ resultTypes: ['violations'] });
  if (rules) builder = builder.withRules([...rules]);
  const results = await builder.analyze();
  for (const v of results.violations) {
    if (!BLOCKING.has(v.impact ?? '')) continue;
    const nodes = v.nodes
      .slice(0, 6)
      .map(
        (n) =>
          `      ${n.target.join(' ')}${n.failureSummary ? `  (${n.failureSummary.split('\n').slice(1, 2).join('').trim()})` : ''}`,
      );
    const more = v.nodes.length > 6 ? [`      … and ${v.nodes.length - 6} more`] : [];
    found.push([`${label}: [${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})`, ...nodes, ...more].join('\n'));
  }
}

/** Fails with every violation collected (an empty list passes). */
export function expectNoViolations(found: string[]): void {
  expect(found, `serious/critical axe violations:\n${found.join('\n')}`).toEqual([]);
}

/** Loads a page (waiting for hydration with JavaScript) and checks that it answered `status`. */
export async function open(page: Page, url: string, js: boolean, status?: number): Promise<number> {
  const response = await page.goto(url);
  const code = response?.status() ?? 0;
  if (status !== undefined) expect(code, `status of ${url}`).toBe(status);
  await page.waitForLoadState('load');
  await waitForHydration(page, js);
  return code;
}

export interface Account {
  id: number;
  email: string;
  password: string;
  state: StorageState;
}

/** Creates a user with this role and theme and signs it in through the JSON API (no browser). */
export async function signedInAccount(
  db: Parameters<typeof createTestUser>[0],
  role: Role,
  theme: Theme,
  tag: string,
): Promise<Account> {
  const email = `a11y-${role}-${theme}-${tag}-${crypto.randomBytes(4).toString('hex')}@example.com`;
  const row = await createTestUser(db, { role, email });
  // No cookies: inside a test a new request context takes the test's storage state (the
  // worker's owner session), and signing in with that cookie would end the owner's session
  // (a sign-in replaces the browser's previous session) for every later test of the worker.
  const api = await playwrightRequest.newContext({
    baseURL: E2E_BASE_URL,
    extraHTTPHeaders: { Origin: E2E_BASE_URL },
    storageState: { cookies: [], origins: [] },
  });
  try {
    // Remember me: the account lives as long as its worker, which may leave it unused for longer
    // than the idle timeout while other specs run.
    const login = await api.post('/api/auth/login', { data: { email, password: TEST_PASSWORD, rememberMe: true } });
    expect(login.status(), await login.text()).toBe(200);
    const settings = await api.put('/api/user-settings', { data: { theme } });
    expect(settings.status(), await settings.text()).toBe(200);
    return { id: row.id, email, password: TEST_PASSWORD, state: await api.storageState() };
  } finally {
    await api.dispose();
  }
}

/**
 * Fails with what became of the account's sessions when the page's session no longer signs in
 * (a worker-wide session ended by another spec would otherwise show as a puzzling 401 later).
 */
export async function expectSignedIn(page: Page, database: { db: any }, account: Account): Promise<void> {
  const me = await page.request.get('/api/auth/me');
  if (me.status() === 200) return;
  const sessions = await database.db
    .selectFrom('userSessions')
    .select(['id', 'isActive', 'endReason', 'rememberMe', 'loginAt', 'lastSeenAt', 'logoutAt', 'expiresAt'])
    .where('userId', '=', account.id)
    .orderBy('id', 'desc')
    .limit(5)
    .execute();
  const user = await database.db
    .selectFrom('users')
    .select(['isActive', 'role'])
    .where('id', '=', account.id)
    .executeTakeFirst();
  throw new Error(
    `${account.email} is not signed in (GET /api/auth/me: ${me.status()}); user ${JSON.stringify(user)}, sessions ${JSON.stringify(sessions)}`,
  );
}

interface A11yOptions {
  mirrorCleanup: void;
}
interface A11yWorker {
  /** An owner-role account in the light theme, created and signed in once per worker. */
  owner: Account;
}

/** The suite's `test` with `page` signed in as the worker's owner-role user. */
export const test = base.extend<A11yOptions, A11yWorker>({
  mirrorCleanup: [
    async ({}, use) => {
      await use();
      for (const context of openMirrors.splice(0)) await context.close().catch(() => {});
    },
    { auto: true },
  ],
  owner: [
    async ({ database }, use, workerInfo) => {
      const tag = `${workerInfo.project.name.replace(/[^a-z0-9]/gi, '')}${workerInfo.workerIndex}`;
      await use(await signedInAccount(database.db, 'owner', 'light', tag));
    },
    { scope: 'worker' },
  ],
  storageState: async ({ owner }, use) => {
    await use(owner.state);
  },
});
