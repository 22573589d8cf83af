// Nothing off-screen at a laptop's width: every screen of the route table and every tab of its
// tab bars, opened by an owner at 1280 × 800 with and without JavaScript, fits the window
// (no sideways scrolling of the page nor of any scroll region: a table's primary actions and
// columns are all on screen) and its charts' axis text is at least 11 px as displayed (the SVG
// is scaled by its viewBox), with money on the axes abbreviated ($14M, not $14,000,000.00).
// The screens get rows of the kinds that made them wide: long sync errors, integration
// endpoints with Sync Now, Vult subscriber metrics, anomalies and figures in the millions.
// On a 390 px phone the page itself never scrolls sideways (wide content scrolls in its box).
import type { Page } from '@playwright/test';
import { SCREENS } from '../app/platform/screen/navigation.ts';
import { COMPANY } from './support/fixtures.ts';
import { expect, expectSignedIn, open, test } from './support/a11y.ts';
import { apiPost, categoryIds, departmentIds } from './support/resources.ts';

const WIDTH = 1280;
const PHONE_WIDTH = 390;
const MIN_AXIS_PX = 11;

/** The tabs of the page's tab bars (navs in main whose current link is marked), as paths with queries. */
async function tabTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out = new Set<string>();
    for (const nav of document.querySelectorAll('main nav')) {
      if (
        !nav.querySelector('a[aria-current="page"]') ||
        /pagination|more /i.test(nav.getAttribute('aria-label') ?? '')
      )
        continue;
      for (const a of nav.querySelectorAll('a[href]')) {
        const url = new URL((a as HTMLAnchorElement).href);
        if (url.origin === location.origin && url.pathname === location.pathname) out.add(url.pathname + url.search);
      }
    }
    return [...out];
  });
}

/** What sticks out sideways on the page as it is: the page itself, and each scrolling box (unless `pageOnly`). */
async function overflows(page: Page, width = WIDTH, pageOnly = false): Promise<string[]> {
  return page.evaluate(
    ({ width, pageOnly }) => {
      const found: string[] = [];
      const root = document.documentElement;
      if (root.scrollWidth > width) found.push(`the page is ${root.scrollWidth} px wide`);
      if (pageOnly) return found;
      for (const el of document.querySelectorAll<HTMLElement>('main *')) {
        // clientWidth 1: visually hidden text (sr-only), which is never seen.
        if (el.scrollWidth <= el.clientWidth + 1 || el.clientWidth <= 1) continue;
        const style = getComputedStyle(el);
        if (style.overflowX !== 'auto' && style.overflowX !== 'scroll' && style.overflowX !== 'hidden') continue;
        // An input scrolls its own text; only its visible box counts (below).
        if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement)
          continue;
        const name = el.getAttribute('aria-label') ?? el.querySelector('caption, th')?.textContent ?? el.className;
        found.push(`"${name}" scrolls sideways: ${el.scrollWidth} px in ${el.clientWidth} px`);
      }
      // A date or month input too narrow for its own value shows 'mm' and nothing else.
      for (const input of document.querySelectorAll<HTMLInputElement>(
        'main input[type="date"], main input[type="month"]',
      )) {
        if (input.getBoundingClientRect().width > 0 && input.getBoundingClientRect().width < 130)
          found.push(`date input "${input.name}" is ${Math.round(input.getBoundingClientRect().width)} px wide`);
      }
      return found;
    },
    { width, pageOnly },
  );
}

/** Chart axis text smaller than MIN_AXIS_PX as displayed, and money ticks with cents. */
async function chartProblems(page: Page): Promise<string[]> {
  return page.evaluate((min) => {
    const found: string[] = [];
    for (const svg of document.querySelectorAll<SVGSVGElement>('main figure svg[role="img"]')) {
      const box = svg.viewBox.baseVal;
      const shown = svg.getBoundingClientRect().width;
      if (!box || box.width === 0 || shown === 0) continue;
      const title = svg.querySelector('title')?.textContent ?? '';
      for (const text of svg.querySelectorAll('text')) {
        const effective = (parseFloat(getComputedStyle(text).fontSize) * shown) / box.width;
        if (effective < min - 0.05)
          found.push(`"${title}": axis text "${text.textContent}" is ${effective.toFixed(1)} px`);
        if (/\$[\d,]+\.\d\d/.test(text.textContent ?? ''))
          found.push(`"${title}": money tick with cents "${text.textContent}"`);
      }
    }
    return found;
  }, MIN_AXIS_PX);
}

/**
 * Opens every screen of the route table, every tab of its tab bars and the `extra` targets, each
 * once, and collects what `problems` finds on each ("target: problem").
 */
async function visitEveryScreen(
  page: Page,
  js: boolean,
  extra: string[],
  problems: () => Promise<string[]>,
): Promise<string[]> {
  const found: string[] = [];
  const visited = new Set<string>();
  const check = async (target: string) => {
    if (visited.has(target)) return;
    visited.add(target);
    const status = await open(page, target, js);
    expect([200, 404], `status of ${target}`).toContain(status);
    for (const problem of await problems()) found.push(`${target}: ${problem}`);
  };
  for (const screen of SCREENS) {
    await check(screen.path);
    for (const tab of await tabTargets(page)) await check(tab);
  }
  for (const target of extra) await check(target);
  expect(visited.size, 'screens and tabs visited').toBeGreaterThan(SCREENS.length + 20);
  return found;
}

/** Rows of the kinds that widened the screens, for this project (tagged), through the API and the books. */
async function plantRows(page: Page, database: { db: any }, tag: string, slot: number, retry: number): Promise<void> {
  const departments = await departmentIds(page);
  const atlas = await categoryIds(page, COMPANY.atlas);
  const month = new Date().toISOString().slice(0, 7);
  const [y, m] = month.split('-').map(Number);
  const monthEnd = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
  const categoryId = atlas['Audit & Accounting'];
  await apiPost(page, '/api/budgets', {
    departmentId: departments.Finance,
    categoryId,
    amount: 14_000_000,
    period: 'monthly',
    startDate: `${month}-01`,
    endDate: monthEnd,
    description: tag,
  });
  await apiPost(page, '/api/actual-expenses', {
    departmentId: departments.Finance,
    categoryId,
    amount: 12_345_678.9,
    expenseDate: `${month}-01`,
    description: tag,
  });
  await apiPost(page, '/api/revenue-projections', {
    companyId: COMPANY.atlas,
    source: tag,
    amount: 9_850_000,
    period: 'monthly',
    startDate: `${month}-01`,
    endDate: monthEnd,
    description: tag,
  });
  await apiPost(page, '/api/actual-revenues', {
    companyId: COMPANY.atlas,
    source: tag,
    amount: 8_500_000,
    revenueDate: `${month}-01`,
    description: tag,
  });
  // One month per project, so the two runs never clash on Vult's month.
  await apiPost(page, '/api/vult-subscriber-metrics', {
    companyId: COMPANY.vult,
    year: 2020 + retry,
    month: 11 + slot,
    totalSubscribers: 1_234_567,
    retentionRate: 91.25,
    conversionRate: 12.5,
    cardHolders: 987_654,
    cardAdoptionRate: 80.01,
  });

  const source = await apiPost<{ id: number }>(page, '/api/api-integration-sources', {
    name: `${tag} Treasury Management Platform`,
    baseUrl: 'https://treasury-management.example.com/api/v2/organisations/finance',
    authType: 'bearer',
  });
  const endpoint = await apiPost<{ id: number }>(page, '/api/api-integration-endpoints', {
    sourceId: source.id,
    name: `${tag} Monthly departmental expenses`,
    endpoint: '/reports/expenses/departmental/monthly-breakdown',
    method: 'GET',
    direction: 'inbound',
    targetTable: 'actual_expenses',
    syncFrequency: 'daily',
  });
  const started = new Date(Date.now() - 60_000).toISOString();
  await database.db
    .insertInto('apiIntegrationSyncLogs')
    .values({
      endpointId: endpoint.id,
      status: 'failed',
      startedAt: started,
      completedAt: new Date().toISOString(),
      recordsProcessed: 1250,
      recordsCreated: 1000,
      recordsUpdated: 200,
      recordsSkipped: 40,
      recordsFailed: 10,
      syncDuration: 12_345,
      errorMessage:
        'https://treasury-management.example.com/api/v2/organisations/finance/reports/expenses/departmental/monthly-breakdown?page=17&pageSize=500 answered 502 Bad Gateway after 15000 ms; the run stopped at record 1250',
    })
    .execute();

  // Expenses that make anomalies (a large one-off and a charge booked twice today), in a category of their own.
  const today = new Date().toISOString().slice(0, 10);
  const category = (
    await database.db
      .insertInto('expenseCategories')
      .values({
        companyId: COMPANY.spark,
        departmentId: departments['Business Development'],
        name: `${tag} Professional services and consultancy`,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  await database.db
    .insertInto('actualExpenses')
    .values([
      ...Array.from({ length: 8 }, (_, i) => ({
        companyId: COMPANY.spark,
        departmentId: departments['Business Development'],
        categoryId: category,
        amountCents: 20_000 + 500 * i,
        expenseDate: new Date(Date.now() - (i + 1) * 86_400_000).toISOString().slice(0, 10),
        description: tag,
        vendor: tag,
      })),
      {
        companyId: COMPANY.spark,
        departmentId: departments['Business Development'],
        categoryId: category,
        amountCents: 1_234_567_800,
        expenseDate: today,
        description: tag,
        vendor: tag,
      },
      ...Array.from({ length: 2 }, () => ({
        companyId: COMPANY.spark,
        departmentId: departments['Business Development'],
        categoryId: category,
        amountCents: 45_000,
        expenseDate: today,
        description: tag,
        vendor: `${tag} twice`,
      })),
    ])
    .execute();
}

test.describe.configure({ timeout: 360_000 });

test('every screen and tab fits 1280 px with readable chart axes', async ({ page, js, database, owner }, testInfo) => {
  await expectSignedIn(page, database, owner);
  // A retry plants afresh: names and Vult's month must not clash with the first try's.
  const tag = `Layout ${testInfo.project.name} ${testInfo.retry}`;
  await page.setViewportSize({ width: WIDTH, height: 800 });
  await plantRows(page, database, tag, js ? 0 : 1, testInfo.retry);

  // The anomalies are computed from the books in the background: wait until they list.
  await expect(async () => {
    await open(page, '/ai-analytics?tab=anomalies&lookbackDays=30', js);
    await expect(page.getByTestId('anomaly').first()).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 60_000 });

  const extra = [
    '/ai-analytics?tab=anomalies&lookbackDays=30',
    '/vult-financial-services?tab=metrics',
    '/api-documentation?tab=endpoints',
  ];
  const found = await visitEveryScreen(page, js, extra, async () => [
    ...(await overflows(page)),
    ...(await chartProblems(page)),
  ]);
  expect(found, `sideways scrolling or unreadable chart axes at ${WIDTH} px:\n${found.join('\n')}`).toEqual([]);
});

// On a phone wide tables and charts scroll inside their own box; the page itself never does.
test('every screen and tab fits a 390 px phone without the page scrolling sideways', async ({
  page,
  js,
  database,
  owner,
}) => {
  await expectSignedIn(page, database, owner);
  await page.setViewportSize({ width: PHONE_WIDTH, height: 844 });
  const found = await visitEveryScreen(page, js, [], () => overflows(page, PHONE_WIDTH, true));
  expect(found, `the page scrolls sideways at ${PHONE_WIDTH} px:\n${found.join('\n')}`).toEqual([]);
});

// On a phone a list's rows stack into 'heading: value' lines: each cell shows its column's
// heading before its value (set once per table, app/ui/table/column-labels.ts); the actions don't.
test('on a phone each list row reads as its columns’ headings and values', async ({ page, js, database, owner }) => {
  await expectSignedIn(page, database, owner);
  await page.setViewportSize({ width: PHONE_WIDTH, height: 844 });
  for (const [target, headings] of [
    ['/departments', ['Name', 'Description', 'Created', '']],
    ['/user-management', ['User', 'Role', 'Company', 'Status', 'Last Login', '']],
  ] as const) {
    await open(page, target, js, 200);
    const shown = await page.locator('main table.fit-table > tbody > tr:first-child > td').evaluateAll((cells) =>
      cells.map((cell) => {
        const content = getComputedStyle(cell, '::before').content;
        return content === 'none' || content === 'normal' ? '' : JSON.parse(content);
      }),
    );
    expect(shown, target).toEqual(headings);
  }
});
