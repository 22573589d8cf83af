// Languages, time zones and formats (docs/languages.md), with JavaScript and without: signed-out
// pages follow the browser's language; a signed-in reader's language, time zone, date and time
// formats apply to every screen, the next page after a change without JavaScript and at once
// with it.
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { E2E_BASE_URL } from './support/constants.ts';
import { signInByApi, waitForHydration } from './support/app.ts';
import { translated } from './support/i18n.ts';
import { apiPost, formPanel } from './support/resources.ts';
import { COMPANY } from './support/fixtures.ts';
import { SCREENS } from '../app/platform/screen/navigation.ts';
import { formatsFor } from '../app/platform/i18n/formats.ts';
import { LOCALES, type Locale } from '../app/platform/i18n/locales.ts';
import type { Preferences } from '../app/platform/i18n/preferences.ts';

/** Each language with a time zone other than UTC, and between them every date format and clock. */
const READERS: Preferences[] = [
  { locale: 'en', timeZone: 'America/Los_Angeles', dateFormat: 'yyyy-MM-dd', timeFormat: '24h' },
  { locale: 'es', timeZone: 'Europe/Madrid', dateFormat: 'dd/MM/yyyy', timeFormat: '24h' },
  { locale: 'fr', timeZone: 'Europe/Paris', dateFormat: 'yyyy-MM-dd', timeFormat: '12h' },
  { locale: 'de', timeZone: 'America/New_York', dateFormat: 'MM/dd/yyyy', timeFormat: '12h' },
];

/** Characters of HTML a page may send (docs/languages.md). */
const MAX_PAGE_HTML = 60_000;

/** Screens whose document title is not their route-table title. */
const DOCUMENT_TITLES: Record<string, (locale: Locale) => string> = {
  '/editor-stats': (locale) => translated(locale, 'Editor Statistics'),
  // Named after the company of that kind in the books.
  '/mobile-metrics': (locale) => translated(locale, '{name} Metrics', { name: 'One Network' }),
  '/fintech-metrics': (locale) => translated(locale, '{name} Metrics', { name: 'Vult' }),
};

async function savePreferences(page: Page, reader: Preferences) {
  const response = await page.request.put('/api/user-settings', {
    data: {
      language: reader.locale,
      timezone: reader.timeZone,
      dateFormat: reader.dateFormat,
      timeFormat: reader.timeFormat,
    },
    headers: { Origin: E2E_BASE_URL },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** Every <time> on the page shows its ISO value as the reader wants it. */
async function expectTimesFormatted(page: Page, reader: Preferences): Promise<number> {
  const formats = formatsFor(reader);
  const times = await page
    .locator('time[datetime]')
    .evaluateAll((nodes) =>
      nodes.map((node) => ({ iso: node.getAttribute('datetime') ?? '', text: node.textContent ?? '' })),
    );
  for (const { iso, text } of times) {
    const now = Date.now();
    // A day, an instant (its date, time or both), or how long ago it was.
    const spellings = [
      formats.day(iso),
      formats.instantDate(iso),
      formats.instant(iso),
      formats.time(iso),
      translated(reader.locale, 'Just now'),
      translated(reader.locale, 'just now'),
      ...[now - 120_000, now - 60_000, now].map((at) => formats.ago(iso, at)),
    ];
    expect(spellings, `<time datetime="${iso}">`).toContain(text);
  }
  return times.length;
}

test.describe('signed out', () => {
  for (const locale of LOCALES) {
    test(`the sign-in page follows Accept-Language: ${locale}`, async ({ browser, js }) => {
      // The browser's language setting is what it sends as Accept-Language.
      const context = await browser.newContext({ javaScriptEnabled: js, locale: `${locale}-CH` });
      const page = await context.newPage();
      await page.goto('/login');
      await waitForHydration(page, js);
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      await expect(page.getByRole('button', { name: translated(locale, 'Sign In'), exact: true })).toBeVisible();
      await context.close();
    });
  }
});

test.describe('signed in', () => {
  for (const reader of READERS) {
    test(`every screen in ${reader.locale}, ${reader.timeZone}, ${reader.dateFormat}, ${reader.timeFormat}`, async ({
      page,
      js,
      createUser,
    }) => {
      test.setTimeout(180_000);
      const user = await createUser({ role: 'owner' });
      await signInByApi(page, user);
      await savePreferences(page, reader);
      let times = 0;
      for (const screen of SCREENS) {
        const response = await page.goto(screen.path);
        expect(response?.status(), screen.path).toBe(200);
        // The page's messages come as cached files: the HTML stays within every page's 60 KB.
        expect((await response!.text()).length, screen.path).toBeLessThan(MAX_PAGE_HTML);
        await waitForHydration(page, js);
        await expect(page.locator('html'), screen.path).toHaveAttribute('lang', reader.locale);
        await expect(page, screen.path).toHaveTitle(
          `${DOCUMENT_TITLES[screen.path]?.(reader.locale) ?? translated(reader.locale, screen.title)} · Group Finance Hub`,
        );
        times += await expectTimesFormatted(page, reader);
      }
      expect(times).toBeGreaterThan(0);
    });
  }

  test('a form takes days in the reader’s date format, ISO too, and names that format when it refuses one', async ({
    page,
    js,
    createUser,
  }) => {
    const user = await createUser({ role: 'admin' });
    await signInByApi(page, user);
    const reader: Preferences = {
      locale: 'es',
      timeZone: 'Europe/Madrid',
      dateFormat: 'dd/MM/yyyy',
      timeFormat: '24h',
    };
    await savePreferences(page, reader);
    const tag = `day-input-${js ? 'js' : 'nojs'}-${Date.now()}`;
    const created = await apiPost<{ id: number }>(page, '/api/actual-revenues', {
      companyId: COMPANY.atlas,
      source: tag,
      amount: 100,
      revenueDate: '2031-12-31',
    });
    const stored = async () =>
      ((await (await page.request.get(`/api/actual-revenues/${created.id}`)).json()) as { revenueDate: string })
        .revenueDate;
    const day = () => formPanel(page).getByLabel(translated('es', 'Revenue Date'), { exact: true });
    const update = () => formPanel(page).getByRole('button', { name: translated('es', 'Update') });

    await page.goto(`/actual-revenue?edit=${created.id}`);
    await waitForHydration(page, js);
    await expect(day()).toHaveValue('31/12/2031');
    await expect(day()).toHaveAttribute('placeholder', translated('es', 'DD/MM/YYYY'));

    // Not a day in the reader's order: refused, naming the format, nothing stored.
    await day().fill('12/31/2032');
    await update().click();
    await expect(page.getByTestId(/-revenueDate-error$/)).toHaveText(
      translated('es', '{label} must be a valid date ({format})', {
        label: translated('es', 'Revenue Date'),
        format: translated('es', 'DD/MM/YYYY'),
      }),
    );
    expect(await stored()).toBe('2031-12-31');

    await day().fill('1/2/2032');
    await update().click();
    await expect(page.getByTestId('toast')).toBeVisible();
    await expect.poll(stored).toBe('2032-02-01');

    await page.goto(`/actual-revenue?edit=${created.id}`);
    await day().fill('2032-03-04');
    await update().click();
    await expect(page.getByTestId('toast')).toBeVisible();
    await expect.poll(stored).toBe('2032-03-04');
  });

  test('the refused rows of an import say what is wrong in the reader’s language', async ({ page, js, createUser }) => {
    await signInByApi(page, await createUser({ role: 'admin' }));
    await savePreferences(page, READERS[1]);
    await page.goto('/imports?table=actual-revenues');
    await waitForHydration(page, js);
    const file = ['Company,Source,Amount,Revenue Date', 'Vult,Spain,-3,2026-04-02', 'Nowhere,Spain,3,2026-04-02'];
    await page
      .getByLabel(translated('es', 'CSV file'))
      .setInputFiles({ name: 'ingresos.csv', mimeType: 'text/csv', buffer: Buffer.from(file.join('\r\n')) });
    await page.getByRole('button', { name: translated('es', 'Upload and check') }).click();
    const problems = page.getByTestId('import-errors');
    await expect(problems).toContainText(
      translated('es', '{label} must be a positive number', { label: translated('es', 'Amount') }),
    );
    await expect(problems).toContainText(translated('es', '{label} not found', { label: translated('es', 'Company') }));
    await expect(problems).not.toContainText('not found');
  });

  test('a new language applies to the next page without JavaScript, at once with it', async ({
    page,
    js,
    createUser,
  }) => {
    const user = await createUser();
    await signInByApi(page, user);
    await page.goto('/settings?tab=preferences');
    await waitForHydration(page, js);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    const target: Locale = js ? 'de' : 'fr';
    await page.getByLabel('Language', { exact: true }).selectOption(target);
    await page.getByRole('button', { name: 'Save Settings' }).first().click();
    await expect(page.locator('html')).toHaveAttribute('lang', target);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(translated(target, 'Settings'));
    await expect(page.getByTestId('toast')).toContainText(translated(target, 'Settings updated'));
  });
});
