// AI Analytics in a real browser, with and without JavaScript (docs/screens.md): the
// tabs' GET forms, the prediction chart, an anomaly planted for this test, the budget prompt and
// figures, Generate now, and the chat: streamed with JavaScript, a form post without, its
// conversation kept on the server. Each test plants
// its expenses in a category of its own (the projects share one database).
import { addMonths } from '../app/features/ai/stats/forecast.ts';
import { signInByApi, waitForHydration } from './support/app.ts';
import { COMPANY, expect, test } from './support/fixtures.ts';
import { toast } from './support/resources.ts';

test.describe('AI analytics', () => {
  test('tabs, predictions, anomalies, budget, insights and the chat', async ({
    page,
    js,
    createUser,
    database,
  }, testInfo) => {
    const tag = `E2E AI ${testInfo.project.name}`;
    const db = database.db;
    const departmentId = (await db.selectFrom('departments').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    const categoryId = (
      await db
        .insertInto('expenseCategories')
        .values({ companyId: COMPANY.atlas, departmentId, name: tag })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const today = new Date().toISOString().slice(0, 10);
    await db
      .insertInto('actualExpenses')
      .values([
        ...Array.from({ length: 12 }, (_, i) => ({
          companyId: COMPANY.atlas,
          departmentId,
          categoryId,
          amountCents: 30_000 + 1_500 * i,
          expenseDate: `${addMonths(today.slice(0, 7), i - 12)}-05`,
          description: tag,
          vendor: tag,
        })),
        {
          companyId: COMPANY.atlas,
          departmentId,
          categoryId,
          amountCents: 7_654_300,
          expenseDate: today,
          description: tag,
          vendor: tag,
        },
        // The same charge booked 17 times today: 16 duplicates, more than one page of anomalies.
        ...Array.from({ length: 17 }, () => ({
          companyId: COMPANY.atlas,
          departmentId,
          categoryId,
          amountCents: 40_000,
          expenseDate: today,
          description: tag,
          vendor: `${tag} twice`,
        })),
      ])
      .execute();

    await signInByApi(page, await createUser({ role: 'viewer', flags: { canAccessAnalytics: true } }));
    await page.goto('/ai-analytics');
    await waitForHydration(page, js);
    await expect(page.getByRole('heading', { name: 'AI Insights', level: 1 })).toBeVisible();

    const tabs = page.getByRole('navigation', { name: 'AI analytics sections' });
    await tabs.getByRole('link', { name: 'Predictions' }).click();
    const filters = page.getByRole('form', { name: 'Analysis filters' });
    await filters.getByLabel('Company').selectOption({ label: 'Atlas Infrastructure' });
    await filters.getByLabel('Horizon').selectOption('6');
    await filters.getByRole('button', { name: 'Analyze' }).click();
    await expect(page).toHaveURL(/tab=predictions.*months=6/);
    await expect(page.getByTestId('prediction').filter({ hasText: tag })).toContainText('increasing');
    await expect(page.locator('svg title').first()).toContainText('history and prediction');

    await tabs.getByRole('link', { name: 'Anomalies' }).click();
    await filters.getByLabel('Window').selectOption('7');
    await filters.getByRole('button', { name: 'Analyze' }).click();
    // Anomalies are computed in the background from the books: the rows just planted show once a
    // computation has seen them (with JavaScript the page refreshes itself; without, a reload).
    await expect(async () => {
      if (!js) await page.reload();
      await expect(page.getByTestId('anomaly').filter({ hasText: tag }).filter({ hasText: '$76,543.00' })).toBeVisible({
        timeout: 2_000,
      });
    }).toPass({ timeout: 40_000 });
    await expect(page.getByTestId('anomalies-computed')).toContainText(/^Computed (just now|\d+ minutes? ago)/);
    await expect(toast(page)).toContainText(/Analysis Complete\s*\d+ anomal(y|ies) detected/);
    await expect(page.locator('#anomaly-chart-title')).toHaveText(
      'Daily expenses of the last 7 days, anomalies marked',
    );
    // A page of the ranked anomalies, and Show more for the next (a plain link).
    await expect(page.getByTestId('anomaly')).toHaveCount(15);
    await page.getByRole('navigation', { name: 'More anomalies' }).getByRole('link', { name: 'Show more' }).click();
    await expect(page).toHaveURL(/offset=15/);
    await expect(page.getByTestId('show-more')).toContainText(/Showing 16–\d+ of \d+ anomalies/);
    await expect(page.getByTestId('anomaly').first()).toBeVisible();
    await page.getByRole('link', { name: 'Back to the first' }).click();
    await expect(page.getByTestId('show-more')).toContainText(/Showing 1–15 of/);

    await tabs.getByRole('link', { name: 'Budget Analysis' }).click();
    await expect(page).toHaveURL(/tab=budget/);
    await expect(page.getByTestId('budget-totals')).toContainText('Total actual');
    await expect(page.getByTestId('budget-rule')).toContainText('Plan per month: the most specific active budget');

    await page.goto('/ai-analytics?tab=budget');
    await expect(page.getByText('Please select a company for budget analysis')).toBeVisible();

    await page.goto('/ai-analytics?tab=insights&companyId=3');
    await waitForHydration(page, js);
    await page.getByRole('button', { name: 'Generate now' }).click();
    await expect(toast(page)).toContainText('Analysis Complete');
    await expect(page.getByTestId('insight').first()).toBeVisible();

    await page.goto('/ai-analytics?tab=chat');
    await waitForHydration(page, js);
    await expect(page.getByTestId('chat-log')).toContainText('Hello!');
    const question = page.getByLabel('Your question');
    if (js) await expect(page.getByRole('button', { name: 'Send' })).toBeDisabled();
    await question.fill('What did Atlas Infrastructure spend in the last 400 days?');
    // With JavaScript the answer streams from /api/ai/chat/stream; without, the form posts.
    const streamed = js
      ? page.waitForResponse((r) => r.url().endsWith('/api/ai/chat/stream') && r.status() === 200)
      : null;
    await page.getByRole('button', { name: 'Send' }).click();
    await streamed;
    await expect(page.getByTestId('chat-assistant')).toContainText('Expenses of Atlas Infrastructure');
    await expect(page.getByTestId('chat-assistant')).toContainText('Offline mode');
    if (js) await expect(question).toHaveValue('');
    await question.fill('Any anomalies in the last 7 days?');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByTestId('chat-user')).toHaveCount(2);
    await expect(page.getByTestId('chat-assistant').last()).toContainText('unusual expense');
    // The conversation is kept on the server for this session.
    await page.reload();
    await waitForHydration(page, js);
    await expect(page.getByTestId('chat-user')).toHaveCount(2);
    await page.getByRole('button', { name: 'Clear' }).click();
    await expect(page.getByTestId('chat-log')).toContainText('Chat cleared.');
    await expect(page.getByTestId('chat-user')).toHaveCount(0);
  });

  test('the chat answers its own suggestions and says what it can answer when it does not understand', async ({
    page,
    js,
    createUser,
  }) => {
    await signInByApi(page, await createUser({ role: 'viewer', flags: { canAccessAnalytics: true } }));
    await page.goto('/ai-analytics?tab=chat');
    await waitForHydration(page, js);
    const question = page.getByLabel('Your question');
    const ask = async (text: string, count: number) => {
      await question.fill(text);
      await page.getByRole('button', { name: 'Send' }).click();
      await expect(page.getByTestId('chat-user')).toHaveCount(count);
      return page.getByTestId('chat-assistant').last();
    };
    await expect(await ask('Any anomalies in the last 90 days?', 1)).toContainText(
      /over the last 90 days|being computed/,
    );
    // Not a follow-up: what the chat can answer, not the anomalies again.
    await expect(await ask('Tell me a joke', 2)).toContainText('I can answer these questions');
    // Its own suggestion names Atlas by its first word.
    await expect(await ask('Is Atlas over budget in 2026?', 3)).toContainText('Atlas Infrastructure in 2026: budget $');
    await expect(await ask('Forecast the next 6 months for Atlas', 4)).toContainText(
      /Predicted expenses of Atlas Infrastructure for the next 6 months|no expenses in Atlas Infrastructure/,
    );
  });
});
