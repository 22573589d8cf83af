// Page helpers shared by the specs: signing in, waiting for hydration, reading the shell.
import type { Locator, Page, Response } from '@playwright/test';
import { expect } from '@playwright/test';
import { E2E_BASE_URL } from './constants.ts';

/**
 * With JavaScript, waits until the app has hydrated (the root marks <html data-hydrated>), so
 * a click is handled by the client (validation, fetch submissions) and not by the browser's
 * native form submission. Without JavaScript there is nothing to wait for.
 */
export async function waitForHydration(page: Page, js: boolean): Promise<void> {
  if (!js) return;
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
}

/**
 * With JavaScript, marks the loaded document, so that expectSameDocument can tell a client-side
 * navigation (the document stays) from a page load. Without JavaScript, links load pages.
 */
export async function markDocument(page: Page, js: boolean): Promise<void> {
  if (js) await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
}

/** With JavaScript: the navigations since markDocument were client-side (no page load). */
export async function expectSameDocument(page: Page, js: boolean): Promise<void> {
  if (js)
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
}

/** Records every POST the page sends (to prove client-side validation sent nothing). */
export function recordPosts(page: Page): string[] {
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST') posts.push(request.url());
  });
  return posts;
}

/** Clicks `trigger` and returns the answer to the POST it causes (document or fetch alike). */
export async function postVia(page: Page, path: string, trigger: Locator): Promise<Response> {
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === path),
    trigger.click(),
  ]);
  return response;
}

export function loginForm(page: Page) {
  return {
    email: page.getByLabel('Email', { exact: true }),
    password: page.getByLabel('Password', { exact: true }),
    rememberMe: page.getByRole('checkbox', { name: 'Remember me' }),
    submit: page.getByRole('button', { name: 'Sign In' }),
  };
}

/** Fills and submits the login form of the current page. */
export async function submitLogin(page: Page, email: string, password: string, options: { rememberMe?: boolean } = {}) {
  const form = loginForm(page);
  await form.email.fill(email);
  await form.password.fill(password);
  if (options.rememberMe) await form.rememberMe.check();
  await form.submit.click();
}

/** Signs in through the login page and waits until it has been left. */
export async function signIn(
  page: Page,
  user: { email: string; password: string },
  options: { rememberMe?: boolean } = {},
) {
  await page.goto('/login');
  await submitLogin(page, user.email, user.password, options);
  await expect(page).not.toHaveURL(/\/login/);
}

/**
 * Signs in through `POST /api/auth/login` on the page's browser context (the same session
 * cookie the login form gives), without loading a page: for tests about what comes after
 * signing in, which go to their screen next. The login form has its own specs.
 */
export async function signInByApi(page: Page, user: { email: string; password: string }) {
  const response = await page.request.post('/api/auth/login', {
    data: { email: user.email, password: user.password },
    headers: { Origin: E2E_BASE_URL },
  });
  expect(response.status(), `sign-in of ${user.email}: ${await response.text()}`).toBe(200);
}

export function sidebar(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Main navigation' });
}

export function breadcrumb(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Breadcrumb' });
}

/**
 * The sidebar as { group: [link labels] }, in display order. Uses textContent: the group
 * headings are upper-cased by CSS, which innerText would reflect.
 */
export async function sidebarStructure(page: Page): Promise<Record<string, string[]>> {
  const nav = sidebar(page);
  // The HTML is streamed: once the first group is there the last ones may still be on the way
  // (seen without JavaScript on a busy machine), so read the groups from the complete document.
  await page.waitForLoadState('domcontentloaded');
  await expect(nav.locator('details').first()).toBeAttached();
  const structure: Record<string, string[]> = {};
  for (const group of await nav.locator('details').all()) {
    const name = (await group.locator('summary').textContent())?.trim() ?? '';
    structure[name] = (await group.getByRole('link').allTextContents()).map((t) => t.trim());
  }
  return structure;
}

export const FINANCIAL_DATA = ['Budget Planning', 'Actual Expenses', 'Revenue Projections', 'Actual Revenue'];
export const CONFIGURATION = ['Companies', 'Departments', 'Expense Categories'];
/** Company Metrics for the four seeded companies, seen by a user of no particular company. */
export const ALL_COMPANY_METRICS = [
  'Vult',
  'One Network Data',
  'One Network Subscriptions',
  'Vult Financial Services',
  'Vult Subscriber Metrics',
];
