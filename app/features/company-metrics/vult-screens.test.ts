// The Vult screens over HTTP, as a browser without JavaScript uses them (the fintech
// data warehouse and subscriber metrics): empty states before any row, the latest month
// by default and ?year=&month=, formatted figures, the server-rendered chart, the add form (the
// company pinned to Vult), edits, validation and conflicts, roles, company scope, and the notice
// when no company is named 'Vult'. The tests share one database and run in order.
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/database.ts';
import { useTestServer, type TestClient } from '../../../test/server.ts';

const ONE_NETWORK = 1;
const VULT = 2;
const SERVICES = '/vult-financial-services';
const METRICS = '/vult-subscriber-metrics';
const CHART = /<svg[^>]*role="img"/;

const text = async (response: Response) => (await response.text()).replace(/<!-- -->/g, '');

/** The value of the figure card `key` (e.g. totalSubscribers). */
function figure(html: string, key: string): string {
  const start = html.indexOf(`data-testid="figure-${key}"`);
  if (start < 0) return '';
  const dd = html.indexOf('<dd', start);
  return html.slice(html.indexOf('>', dd) + 1, html.indexOf('</dd>', dd));
}

describe.each(TEST_DIALECTS)('Vult screens on %s', (dialect) => {
  const { db, signedIn } = useTestServer(dialect);
  let admin: TestClient;
  const ids: Record<string, number> = {};

  async function create(path: string, body: Record<string, unknown>): Promise<number> {
    const response = await admin.post(`/api/${path}`, { companyId: VULT, ...body });
    expect(response.status, await response.clone().text()).toBe(201);
    return (await response.json()).id;
  }
  const countRows = async (table: 'vultSubscriberLevels' | 'vultCardTypes' | 'vultSubscriberMetrics') =>
    Number(
      (
        await db()
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    admin = (await signedIn({ role: 'admin' })).c;
  });

  it('without rows both screens show empty states and no figures or chart', async () => {
    const overview = await text(await admin.get(SERVICES));
    expect(overview).toContain('<h1 class="text-2xl font-semibold text-slate-900">Vult Financial Services</h1>');
    expect(overview).toContain('Latest Metrics');
    expect(overview).toContain('No subscriber metrics recorded for Vult yet.');
    expect(overview.match(/data-testid="record-count">0 records</g)).toHaveLength(3);
    expect(overview).toContain('fintech');
    for (const path of [
      '/api/vult-subscriber-metrics',
      '/api/vult-subscriber-levels',
      '/api/vult-card-types',
      '/api/vult/subscriber-metrics',
      '/api/vult/subscriber-levels',
      '/api/vult/card-types',
    ]) {
      expect(overview).toContain(`>${path}</code>`);
    }
    expect(overview).not.toMatch(CHART);
    expect(await text(await admin.get(`${SERVICES}?tab=levels`))).toContain(
      'No subscriber levels recorded for Vult yet.',
    );

    const metrics = await text(await admin.get(METRICS));
    expect(metrics).toContain('Vult Subscriber Metrics');
    expect(metrics).toContain('No subscriber metrics recorded for Vult yet.');
    expect(metrics).not.toContain('subscribers have cards');
    expect(metrics).not.toMatch(CHART);
    expect(await text(await admin.get(`${METRICS}?tab=levels`))).toContain(
      'No subscriber levels recorded for Vult yet.',
    );
    expect(await text(await admin.get(`${METRICS}?tab=cards`))).toContain('No card types recorded for Vult yet.');
  });

  it('shows the latest month by default, formatted, and another month with ?year=&month=', async () => {
    ids.may = await create('vult-subscriber-metrics', {
      year: 2024,
      month: 5,
      totalSubscribers: 12345,
      cardHolders: 4111,
      cardAdoptionRate: 33.3,
      retentionRate: 87.25,
      conversionRate: 12.5,
    });
    ids.june = await create('vult-subscriber-metrics', {
      year: 2024,
      month: 6,
      totalSubscribers: 15000,
      cardHolders: 6000,
      cardAdoptionRate: 40,
      retentionRate: 88.5,
      conversionRate: 13.75,
    });
    ids.cardReady = await create('vult-subscriber-levels', {
      year: 2024,
      month: 6,
      level: 'level_1',
      subscriberCount: 6000,
      percentageOfTotal: 40,
      description: 'Cards issued',
    });
    ids.signUps = await create('vult-subscriber-levels', {
      year: 2024,
      month: 6,
      level: 'level_0',
      subscriberCount: 9000,
      percentageOfTotal: 60,
    });
    ids.gold = await create('vult-card-types', {
      year: 2024,
      month: 6,
      cardType: 'gold',
      cardCount: 1234,
      percentageOfCards: 20.57,
      percentageOfUsers: 8.23,
    });

    const latest = await text(await admin.get(METRICS));
    expect(latest).toContain('June 2024');
    expect(figure(latest, 'totalSubscribers')).toBe('15,000');
    expect(figure(latest, 'cardHolders')).toBe('6,000');
    expect(figure(latest, 'cardAdoptionRate')).toBe('40.00%');
    expect(figure(latest, 'retentionRate')).toBe('88.50%');
    expect(latest).toContain('6,000 out of 15,000 subscribers have cards');
    expect(latest).toMatch(CHART);
    // The chart's numbers are given as text too, with the month before (a gap for months without figures).
    expect(latest).toContain('12,345');

    const may = await text(await admin.get(`${METRICS}?year=2024&month=5`));
    expect(may).toContain('4,111 out of 12,345 subscribers have cards');
    expect(figure(may, 'cardAdoptionRate')).toBe('33.30%');
    expect(figure(may, 'retentionRate')).toBe('87.25%');
    // A month without rows is an empty state; a malformed month is ignored.
    const empty = await text(await admin.get(`${METRICS}?year=2023&month=1`));
    expect(empty).toContain('No subscriber metrics for January 2023.');
    expect(empty).not.toContain('subscribers have cards');
    expect(await text(await admin.get(`${METRICS}?year=abc&month=5`))).toContain(
      '6,000 out of 15,000 subscribers have cards',
    );

    const levels = await text(await admin.get(`${METRICS}?tab=levels`));
    expect(levels).toContain('>Active Sign-ups</span>');
    expect(levels).toContain('>Card Ready</span>');
    // The level's meaning when the row has no description; the enumeration's order.
    expect(levels).toContain('Initial sign-up');
    expect(levels).toContain('Cards issued');
    expect(levels.indexOf('Active Sign-ups')).toBeLessThan(levels.indexOf('Card Ready'));
    expect(levels).toContain('9,000');
    expect(levels).toContain('60.00%');
    expect(await text(await admin.get(`${METRICS}?tab=levels&year=2024&month=5`))).toContain(
      'No subscriber levels for May 2024.',
    );

    const cards = await text(await admin.get(`${METRICS}?tab=cards`));
    expect(cards).toContain('>Gold</span>');
    expect(cards).toContain('1,234');
    expect(cards).toContain('20.57%');
    expect(cards).toContain('8.23%');

    const overview = await text(await admin.get(SERVICES));
    expect(overview).toContain('Latest Metrics');
    expect(figure(overview, 'totalSubscribers')).toBe('15,000');
    expect(figure(overview, 'conversionRate')).toBe('13.75%');
    expect(overview).toContain('data-testid="record-count">2 records<');
    expect(overview).toContain('data-testid="record-count">1 record<');
    expect(overview).toMatch(CHART);
    const chosen = await text(await admin.get(`${SERVICES}?year=2024&month=5`));
    expect(chosen).toContain('Metrics for May 2024');
    expect(figure(chosen, 'totalSubscribers')).toBe('12,345');

    // The add tab: the form (company fixed to Vult, not offered) beside the recent rows.
    const addTab = await text(await admin.get(`${SERVICES}?tab=levels`));
    expect(addTab).toContain('Add Subscriber Level');
    expect(addTab).toContain(`type="hidden" name="companyId" value="${VULT}"`);
    expect(addTab).not.toMatch(/<select[^>]*name="companyId"/);
    expect(addTab.match(/data-testid="recent-row"/g)).toHaveLength(2);
    expect(addTab).toContain('Card Ready');

    // The month pickers offer the years the add forms offer (this year and the nine before, in range), no later ones.
    const yearLists = [
      addTab,
      await text(await admin.get(METRICS)),
      await text(await admin.get(`${METRICS}?tab=cards`)),
    ].flatMap((page) =>
      [...page.matchAll(/<select[^>]*name="year"[^>]*>(.*?)<\/select>/gs)].map((m) =>
        [...m[1].matchAll(/value="(\d+)"/g)].map((v) => Number(v[1])),
      ),
    );
    expect(yearLists.length).toBeGreaterThanOrEqual(3);
    const thisYear = new Date().getUTCFullYear();
    for (const years of yearLists) {
      expect(years[0]).toBe(thisYear);
      expect(years.filter((y) => y !== 2024)).toEqual(
        Array.from({ length: thisYear - 2019 }, (_, i) => thisYear - i).filter((y) => y !== 2024),
      );
    }
  });

  it('the add form on the levels tab saves a level for Vult, whatever company the form names', async () => {
    const { c } = await signedIn({ role: 'editor' });
    const fields = {
      intent: 'create',
      companyId: String(ONE_NETWORK),
      year: '2024',
      month: '7',
      level: 'level_2',
      subscriberCount: '321',
      percentageOfTotal: '12.5',
      description: `Linked wallets ${dialect}`,
    };
    const response = await c.postForm(`${SERVICES}?tab=levels`, fields);
    expect(response.status, await response.clone().text()).toBe(302);
    expect(response.headers.get('Location')).toBe(`${SERVICES}?tab=levels`);
    const page = await text(await c.get(`${SERVICES}?tab=levels`));
    expect(page).toContain('Subscriber level added successfully');
    expect(page).toContain('Enhanced Experience');
    expect(page).toContain('12.50%');
    const row = await db()
      .selectFrom('vultSubscriberLevels')
      .selectAll()
      .where('description', '=', `Linked wallets ${dialect}`)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      companyId: VULT,
      year: 2024,
      month: 7,
      level: 'level_2',
      percentageOfTotalHundredths: 1250,
    });
    expect(Number(row.subscriberCount)).toBe(321);
  });

  it('a validation error answers 400 with the field message beside the field, and saves nothing', async () => {
    const { c } = await signedIn({ role: 'editor' });
    const before = await countRows('vultSubscriberLevels');
    const valid = {
      intent: 'create',
      companyId: String(VULT),
      year: '2024',
      month: '8',
      level: 'level_1',
      subscriberCount: '10',
      percentageOfTotal: '50',
      description: '',
    };
    const percent = await c.postForm(`${SERVICES}?tab=levels`, { ...valid, percentageOfTotal: '101' });
    expect(percent.status).toBe(400);
    const percentPage = await text(percent);
    expect(percentPage).toMatch(
      /data-testid="[^"]*-percentageOfTotal-error">Percentage of Total must be between 0 and 100</,
    );
    expect(percentPage).toContain('Failed to create vult subscriber level');
    const year = await c.postForm(`${SERVICES}?tab=levels`, { ...valid, year: '2019' });
    expect(year.status).toBe(400);
    expect(await text(year)).toMatch(/data-testid="[^"]*-year-error">Year must be a whole number from 2020 to 2030</);
    const edit = await c.postForm(`${METRICS}?tab=cards&edit=${ids.gold}`, {
      intent: 'update',
      id: String(ids.gold),
      companyId: String(VULT),
      year: '2024',
      month: '6',
      cardType: 'gold',
      cardCount: '-1',
      percentageOfCards: '1',
      percentageOfUsers: '1',
    });
    expect(edit.status).toBe(400);
    expect(await text(edit)).toContain('Card Count must be a whole number of 0 or more');
    expect(await countRows('vultSubscriberLevels')).toBe(before);
    expect((await (await admin.get(`/api/vult-card-types/${ids.gold}`)).json()).cardCount).toBe(1234);
  });

  it('a second row for the same level and month answers 409 with the reason', async () => {
    const before = await countRows('vultSubscriberLevels');
    const response = await admin.postForm(`${SERVICES}?tab=levels`, {
      intent: 'create',
      companyId: String(VULT),
      year: '2024',
      month: '6',
      level: 'level_1',
      subscriberCount: '1',
      percentageOfTotal: '1',
      description: '',
    });
    expect(response.status).toBe(409);
    expect(await text(response)).toContain('This level already has a record for this company and month');
    expect(await countRows('vultSubscriberLevels')).toBe(before);
  });

  it('edits open from the URL with the documented titles, and an edit on the cards tab is saved for Vult', async () => {
    const { c } = await signedIn({ role: 'editor' });
    expect(await text(await c.get(`${METRICS}?edit=${ids.june}`))).toContain('Edit Subscriber Metrics');
    expect(await text(await c.get(`${METRICS}?tab=levels&edit=${ids.cardReady}`))).toContain('Edit Subscriber Level');
    const dialog = await text(await c.get(`${METRICS}?tab=cards&year=2024&month=6&edit=${ids.gold}`));
    expect(dialog).toContain('Edit Card Type');
    expect(dialog).toMatch(/name="cardCount"[^>]*value="1234"|value="1234"[^>]*name="cardCount"/);
    // An id that names no row is a 404, as on the list screens.
    expect((await c.get(`${METRICS}?tab=cards&edit=999999`)).status).toBe(404);

    const response = await c.postForm(`${METRICS}?tab=cards&year=2024&month=6&edit=${ids.gold}`, {
      intent: 'update',
      id: String(ids.gold),
      companyId: String(ONE_NETWORK),
      year: '2024',
      month: '6',
      cardType: 'gold',
      cardCount: '2000',
      percentageOfCards: '25.5',
      percentageOfUsers: '13.33',
      description: '',
    });
    expect(response.status, await response.clone().text()).toBe(302);
    expect(response.headers.get('Location')).toBe(`${METRICS}?tab=cards&year=2024&month=6`);
    const page = await text(await c.get(response.headers.get('Location')!));
    expect(page).toContain('Card type updated successfully');
    expect(page).toContain('2,000');
    expect(page).toContain('25.50%');
    expect(page).toContain('13.33%');
    expect(page).not.toContain('Edit Card Type');
    const row = await db().selectFrom('vultCardTypes').selectAll().where('id', '=', ids.gold).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      companyId: VULT,
      percentageOfCardsHundredths: 2550,
      percentageOfUsersHundredths: 1333,
    });
  });

  it('a viewer sees no add or edit controls and is refused a post with 403', async () => {
    const { c } = await signedIn({ role: 'viewer' });
    const add = await text(await c.get(`${SERVICES}?tab=levels`));
    expect(add).toContain('Recent Subscriber Levels');
    expect(add).not.toContain('Add Subscriber Level');
    expect(add).not.toContain('vult-subscriber-levels-form-new');
    for (const tab of ['overview', 'levels', 'cards']) {
      const page = await text(await c.get(`${METRICS}?tab=${tab}`));
      expect(page, tab).not.toContain('aria-label="Edit ');
    }
    expect(await text(await c.get(`${METRICS}?tab=cards&edit=${ids.gold}`))).not.toContain('Edit Card Type');
    const before = await countRows('vultSubscriberLevels');
    const post = await c.postForm(`${SERVICES}?tab=levels`, {
      intent: 'create',
      companyId: String(VULT),
      year: '2024',
      month: '9',
      level: 'level_1',
      subscriberCount: '1',
      percentageOfTotal: '1',
    });
    expect(post.status).toBe(403);
    const edit = await c.postForm(`${METRICS}?tab=cards`, {
      intent: 'update',
      id: String(ids.gold),
      companyId: String(VULT),
      year: '2024',
      month: '6',
      cardType: 'gold',
      cardCount: '1',
      percentageOfCards: '1',
      percentageOfUsers: '1',
    });
    expect(edit.status).toBe(403);
    expect(await countRows('vultSubscriberLevels')).toBe(before);
  });

  it('a user limited to One Network gets 404 on both screens; a user limited to Vult sees them', async () => {
    const { c } = await signedIn({ role: 'editor', companyId: ONE_NETWORK });
    expect((await c.get(SERVICES)).status).toBe(404);
    expect((await c.get(METRICS)).status).toBe(404);
    const post = await c.postForm(`${SERVICES}?tab=levels`, {
      intent: 'create',
      companyId: String(VULT),
      year: '2024',
      month: '9',
      level: 'level_1',
      subscriberCount: '1',
      percentageOfTotal: '1',
    });
    expect(post.status).toBe(404);
    const vult = (await signedIn({ role: 'viewer', companyId: VULT })).c;
    expect(await text(await vult.get(METRICS))).toContain('6,000 out of 15,000 subscribers have cards');
  });

  it('without a company named Vult both screens say so', async () => {
    await db().updateTable('companies').set({ name: 'Vult Renamed' }).where('id', '=', VULT).execute();
    try {
      for (const path of [SERVICES, `${SERVICES}?tab=levels`, METRICS, `${METRICS}?tab=cards`]) {
        const response = await admin.get(path);
        expect(response.status, path).toBe(200);
        const page = await text(response);
        expect(page, path).toContain('Vult Company Not Found');
        expect(page, path).toContain('Please ensure the Vult company is created in the system.');
        expect(page, path).not.toContain('subscribers have cards');
      }
    } finally {
      await db().updateTable('companies').set({ name: 'Vult' }).where('id', '=', VULT).execute();
    }
  });
});
