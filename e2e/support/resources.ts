// Helpers for the resource screens (budgets, companies, departments, expense categories):
// unique test data, setup through the JSON API with the page's session, the form panel,
// delete confirmations with and without JavaScript, and reading CSV downloads.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import type { Download, Locator, Page, TestInfo } from '@playwright/test';
import { expect } from '@playwright/test';
import { E2E_BASE_URL } from './constants.ts';

/**
 * A marker unique to this test and project ("js-1a2b3c4d"): both projects share one database,
 * so rows a test creates carry it (in a description or name) and the test searches for it.
 */
export function uniqueTag(testInfo: TestInfo, prefix = 'e2e'): string {
  return `${prefix}-${testInfo.project.name.replace(/[^a-z0-9]/gi, '')}-${crypto.randomBytes(4).toString('hex')}`;
}

// ---------------------------------------------------------------------------------------------
// The JSON API, with the cookies of the page's (signed-in) browser context.

/** State-changing API calls must come from our own origin. */
const ORIGIN = { Origin: E2E_BASE_URL };

export async function apiGet<T = any>(page: Page, path: string): Promise<T> {
  const response = await page.request.get(path);
  expect(response.status(), `GET ${path}: ${await response.text()}`).toBe(200);
  return response.json();
}

export async function apiPost<T = any>(page: Page, path: string, data: unknown): Promise<T> {
  const response = await page.request.post(path, { data, headers: ORIGIN });
  expect(response.status(), `POST ${path}: ${await response.text()}`).toBe(201);
  return response.json();
}

export async function apiPut<T = any>(page: Page, path: string, data: unknown): Promise<T> {
  const response = await page.request.put(path, { data, headers: ORIGIN });
  expect(response.status(), `PUT ${path}: ${await response.text()}`).toBe(200);
  return response.json();
}

/** Department ids by name (the 16 seeded shared departments). */
export async function departmentIds(page: Page): Promise<Record<string, number>> {
  const rows = await apiGet<{ id: number; name: string }[]>(page, '/api/departments');
  return Object.fromEntries(rows.map((r) => [r.name, r.id]));
}

/** Expense category ids of one company, by name. */
export async function categoryIds(page: Page, companyId: number): Promise<Record<string, number>> {
  const rows = await apiGet<{ id: number; name: string }[]>(page, `/api/expense-categories?companyId=${companyId}`);
  return Object.fromEntries(rows.map((r) => [r.name, r.id]));
}

export interface BudgetInput {
  departmentId: number;
  categoryId: number;
  amount: number;
  period?: 'monthly' | 'quarterly' | 'annual';
  startDate?: string;
  endDate?: string;
  status?: 'active' | 'pending' | 'expired';
  description?: string | null;
}

export async function createBudget(page: Page, input: BudgetInput): Promise<{ id: number } & Record<string, unknown>> {
  return apiPost(page, '/api/budgets', { period: 'monthly', startDate: '2031-01-01', endDate: '2031-01-31', ...input });
}

// ---------------------------------------------------------------------------------------------
// Screens.

/** The create/edit form: a panel without JavaScript, a dialog with it (same test id). */
export function formPanel(page: Page): Locator {
  return page.getByTestId('form-panel');
}

export function toast(page: Page): Locator {
  return page.getByTestId('toast');
}

/** The rows of the generic list table (not its "No results found." row, one cell across). */
export function tableRows(page: Page): Locator {
  return page.locator('main table.fit-table > tbody > tr:not(:has(> td[colspan]))');
}

export function showing(page: Page): Locator {
  return page.getByTestId('showing');
}

/** Fills the list's search box and submits it (the Search button works with and without JS). */
export async function search(page: Page, text: string): Promise<void> {
  await page.getByRole('searchbox').fill(text);
  await page.getByRole('search').getByRole('button', { name: 'Search' }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe(text);
}

/**
 * Clicks a delete button and answers the confirmation: the browser's confirm() with
 * JavaScript, the server's confirmation panel without. Checks the message either way.
 */
export async function confirmDelete(
  page: Page,
  js: boolean,
  button: Locator,
  message: string,
  accept: boolean,
  step = 'confirm-delete',
): Promise<void> {
  if (js) {
    const dialog = page.waitForEvent('dialog');
    const click = button.click();
    const d = await dialog;
    expect(d.type()).toBe('confirm');
    expect(d.message()).toBe(message);
    if (accept) await d.accept();
    else await d.dismiss();
    await click;
    return;
  }
  await button.click();
  const panel = page.getByTestId(step);
  await expect(panel).toContainText(message);
  if (accept) await panel.getByRole('button', { name: 'Confirm' }).click();
  else await panel.getByRole('link', { name: 'Cancel' }).click();
  await expect(panel).toHaveCount(0);
}

// ---------------------------------------------------------------------------------------------
// CSV.

/** Clicks the link and returns the downloaded file's name and text. */
export async function download(page: Page, link: Locator): Promise<{ filename: string; text: string }> {
  const [file] = await Promise.all([page.waitForEvent('download'), link.click()]);
  return { filename: file.suggestedFilename(), text: await readDownload(file) };
}

async function readDownload(file: Download): Promise<string> {
  const path = await file.path();
  return fs.readFile(path, 'utf8');
}

export { parseCsv } from '../../test/csv.ts';
