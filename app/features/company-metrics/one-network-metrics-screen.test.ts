// The One Network Subscriptions screen over HTTP, as a browser without JavaScript uses it: the
// empty states (never placeholder figures), the latest record of each kind
// and the ?year=&month= choice, the edit and create forms with their toasts and field errors,
// role gates, company scope, the server-rendered charts and the missing-company state.
import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/database.ts';
import { useTestServer, type TestClient } from '../../../test/server.ts';

const SCREEN = '/one-network-subscription-metrics';
const VULT = 2;
const ONE_NETWORK = 1;
const API = {
  broadband: '/api/one-network/broadband-connections',
  mobile: '/api/one-network/mobile-subscription-patterns',
  access: '/api/one-network/mobile-access-methods',
};

// A record's counts per type; its totals and shares are computed, never sent.
const broadband = (year: number, month: number, values: Record<string, number> = {}) => ({
  year,
  month,
  ...Object.fromEntries(
    ['fixedBroadband', 'fixedFiber', 'fixedFwa5gRouter'].flatMap((t) => [
      [t, 0],
      [`${t}New`, 0],
      [`${t}Churn`, 0],
    ]),
  ),
  ...values,
});
const mobile = (year: number, month: number, values: Record<string, number> = {}) => ({
  year,
  month,
  ...Object.fromEntries(
    ['daily', 'weekly', 'monthly'].flatMap((c) => [
      [`${c}Subscriptions`, 0],
      [`${c}New`, 0],
      [`${c}Churn`, 0],
    ]),
  ),
  ...values,
});
const access = (year: number, month: number, values: Record<string, number> = {}) => ({
  year,
  month,
  mifiDevices: 0,
  simCards: 0,
  eSim: 0,
  fwaMobile: 0,
  ...values,
});

/** A record as the edit form posts it. */
const asForm = (record: Record<string, number>) =>
  Object.fromEntries(Object.entries(record).map(([k, v]) => [k, String(v)]));

describe.each(TEST_DIALECTS)('One Network Subscriptions screen on %s', (dialect) => {
  const { db, signedIn } = useTestServer(dialect);
  const text = async (response: Response) => (await response.text()).replace(/<!-- -->/g, '');
  /** The page's own content (not the shell, whose asset names could hold any digits). */
  const main = (html: string) => html.slice(html.indexOf('<main'), html.indexOf('</main>'));
  async function page(c: TestClient, path: string, status = 200) {
    const response = await c.get(path);
    expect(response.status, path).toBe(status);
    return text(response);
  }
  async function create(c: TestClient, kind: keyof typeof API, body: Record<string, number>): Promise<number> {
    const response = await c.post(API[kind], body);
    expect(response.status, await response.clone().text()).toBe(201);
    return (await response.json()).id;
  }

  // First: the database has reference data only.
  it('without records every tab shows an empty state and never the default figures', async () => {
    const { c } = await signedIn({ role: 'editor' });
    const overview = await page(c, SCREEN);
    expect(overview).toContain('>One Network Subscriptions</h1>');
    expect(overview).toContain('No broadband records yet.');
    expect(overview).toContain('No mobile subscription records yet.');
    expect(overview).toContain('No mobile access records yet.');
    expect(overview).toContain('No data to chart yet.');
    for (const tab of ['broadband', 'mobile', 'access']) {
      const html = await page(c, `${SCREEN}?tab=${tab}`);
      expect(html).toContain('data-testid="empty-state"');
      expect(html).toContain(`href="${SCREEN}?tab=${tab}&amp;new=1"`);
      expect(html).toContain('Add record');
      for (const content of [main(html), main(overview)])
        for (const invented of ['2,144', '2144', '679', '33.3']) expect(content).not.toContain(invented);
    }
    const form = await page(c, `${SCREEN}?tab=broadband&new=1`);
    expect(form).toContain('Add Broadband Connection Record');
    expect(form).toContain('name="intent" value="create"');
  });

  it('shows the latest record of each kind with formatted numbers, and charts the last months', async () => {
    const { c } = await signedIn({ role: 'admin' });
    await create(c, 'broadband', broadband(2030, 11, { fixedBroadband: 11111 }));
    const latestId = await create(
      c,
      'broadband',
      broadband(2030, 12, {
        fixedBroadband: 9674,
        fixedBroadbandNew: 1000,
        fixedBroadbandChurn: 500,
        fixedFwa5gRouter: 2671,
        fixedFwa5gRouterNew: 234,
        fixedFwa5gRouterChurn: 67,
      }),
    );
    await create(
      c,
      'mobile',
      mobile(2030, 12, {
        dailySubscriptions: 10001,
        dailyNew: 4101,
        dailyChurn: 4102,
        weeklySubscriptions: 9992,
        monthlySubscriptions: 10010,
      }),
    );
    await create(c, 'access', access(2030, 12, { mifiDevices: 6790, simCards: 2020, eSim: 1010, fwaMobile: 180 }));

    const overview = await page(c, SCREEN);
    expect(overview).toContain('Total Broadband Connections');
    expect(overview).toContain('12,345');
    expect(overview).toContain('1,234');
    expect(overview).toContain('All billing cycles: Daily + Weekly + Monthly');
    expect(overview).toContain('30,003');
    expect(overview).toContain('MiFi Device Dominance');
    expect(overview).toContain('67.90%');
    expect(overview).toContain('December 2030');
    // Both charts are server-rendered SVG with a title, oldest month first.
    expect(overview).toContain('role="img" aria-labelledby="broadband-trend-title"');
    expect(overview).toContain('role="img" aria-labelledby="mobile-trend-title"');
    expect(overview).toContain(
      '<title id="broadband-trend-title">Total broadband connections, last 12 recorded months</title>',
    );
    expect(overview.indexOf('>Nov 2030<')).toBeGreaterThan(-1);
    expect(overview.indexOf('>Nov 2030<')).toBeLessThan(overview.indexOf('>Dec 2030<'));
    expect(overview).toContain('11,111');
    // Each card's record opens in its tab's edit dialog.
    expect(overview).toMatch(
      new RegExp(
        `aria-label="Edit Broadband Connection Record"[^>]*href="${SCREEN}\\?tab=broadband&amp;edit=${latestId}"`,
      ),
    );
    expect(overview).toContain('aria-label="Edit Mobile Subscription Pattern"');
    expect(overview).toContain('aria-label="Edit Mobile Access Method"');

    const broadbandTab = await page(c, `${SCREEN}?tab=broadband`);
    for (const shown of [
      'Fixed Broadband',
      'Fixed FWA 5G Router',
      '9,674',
      '78.36%',
      '2,671',
      '21.64%',
      '1,234',
      '567',
      'December 2030',
    ])
      expect(broadbandTab).toContain(shown);
    expect(broadbandTab).toContain('style="width:78.36%"');
    expect(broadbandTab).not.toContain('11,111');
    expect(broadbandTab).toMatch(/href="\/one-network-subscription-metrics\?tab=broadband&amp;edit=\d+"/);

    const mobileTab = await page(c, `${SCREEN}?tab=mobile`);
    // Shares of the computed total 30,003.
    for (const shown of [
      'Daily',
      'Weekly',
      'Monthly',
      '10,001',
      '33.33%',
      '4,101',
      '4,102',
      '9,992',
      '33.30%',
      '10,010',
      '33.36%',
      '30,003',
    ])
      expect(mobileTab).toContain(shown);

    const accessTab = await page(c, `${SCREEN}?tab=access`);
    for (const shown of [
      'MiFi Devices',
      'SIM Cards',
      'eSIM',
      'FWA Mobile',
      '6,790',
      '67.90%',
      '2,020',
      '20.20%',
      '1,010',
      '10.10%',
      '180',
      '1.80%',
      '10,000',
    ])
      expect(accessTab).toContain(shown);
  });

  it('?year=&month= shows that month on every tab; a month without a record is an empty state', async () => {
    const { c } = await signedIn({ role: 'editor' });
    await create(
      c,
      'broadband',
      broadband(2024, 5, { fixedBroadband: 45678, fixedBroadbandNew: 4321, fixedBroadbandChurn: 8765 }),
    );
    await create(c, 'access', access(2024, 5, { mifiDevices: 5432, simCards: 4568 }));

    const overview = await page(c, `${SCREEN}?year=2024&month=5`);
    expect(overview).toContain('Showing May 2024');
    expect(overview).toContain('45,678');
    expect(overview).toContain('54.32%');
    expect(overview).toContain('No mobile subscription records yet.');
    // The picker keeps the choice and the tab.
    expect(overview).toMatch(/<option value="2024" selected="">2024<\/option>/);
    expect(overview).toMatch(/<option value="5" selected="">May<\/option>/);
    expect(overview).toContain('name="tab" value="overview"');

    const broadbandTab = await page(c, `${SCREEN}?tab=broadband&year=2024&month=5`);
    expect(broadbandTab).toContain('45,678');
    expect(broadbandTab).toContain('8,765');
    // Tab links keep the month.
    expect(broadbandTab).toContain(`href="${SCREEN}?tab=access&amp;year=2024&amp;month=5"`);

    const empty = await page(c, `${SCREEN}?tab=mobile&year=2024&month=5`);
    expect(empty).toContain('No mobile subscription record for May 2024.');
    expect(empty).toContain(`href="${SCREEN}?tab=mobile&amp;year=2024&amp;month=5&amp;new=1"`);

    // A month outside the records' range is no choice: the latest records show.
    const invalid = await page(c, `${SCREEN}?tab=broadband&year=1999&month=5`);
    expect(invalid).toContain('Showing the latest record of each kind');
    expect(invalid).not.toContain('45,678');
  });

  it('the edit form saves without JavaScript and returns to the month with a toast; create works the same way', async () => {
    const { c } = await signedIn({ role: 'editor' });
    const values = broadband(2027, 3, {
      fixedBroadband: 1500,
      fixedBroadbandNew: 10,
      fixedBroadbandChurn: 5,
      fixedFwa5gRouter: 500,
    });
    const id = await create(c, 'broadband', values);
    const list = `${SCREEN}?tab=broadband&year=2027&month=3`;
    const shown = await page(c, list);
    expect(shown).toContain(`href="${SCREEN}?tab=broadband&amp;year=2027&amp;month=3&amp;edit=${id}"`);

    const form = await page(c, `${list}&edit=${id}`);
    expect(form).toContain('Edit Broadband Connection Record');
    expect(form).toContain('data-testid="form-panel"');
    expect(form).toContain(`name="id" value="${id}"`);
    expect(form).toMatch(/name="fixedBroadband"[^>]*value="1500"/);
    // The form asks for counts only: the total and the shares are computed.
    for (const computed of ['totalBroadband', 'fixedBroadbandPercentage', 'newConnections'])
      expect(form).not.toContain(`name="${computed}"`);

    const saved = await c.postForm(`${list}&edit=${id}`, {
      intent: 'update',
      id: String(id),
      ...asForm({ ...values, fixedBroadband: 1968 }),
    });
    expect(saved.status).toBe(302);
    expect(saved.headers.get('Location')).toBe(list);
    const after = await page(c, list);
    expect(after).toContain('Broadband connection record updated successfully');
    expect(after).toContain('2,468');
    expect(after).toContain('79.74%');
    expect(after).not.toContain('Edit Broadband Connection Record');
    const stored = await (await c.get(`${API.broadband}/${id}`)).json();
    expect(stored).toMatchObject({ totalBroadband: 2468, fixedBroadbandPercentage: 79.74, year: 2027, month: 3 });

    // The create form of an empty month, then the one-record-per-month rule.
    const mobileList = `${SCREEN}?tab=mobile&year=2027&month=3`;
    const record = asForm(mobile(2027, 3, { dailySubscriptions: 3579 }));
    const created = await c.postForm(`${mobileList}&new=1`, { intent: 'create', ...record });
    expect(created.status).toBe(302);
    expect(created.headers.get('Location')).toBe(mobileList);
    const createdPage = await page(c, mobileList);
    expect(createdPage).toContain('Mobile subscription pattern created successfully');
    expect(createdPage).toContain('3,579');
    const twice = await c.postForm(`${mobileList}&new=1`, { intent: 'create', ...record });
    expect(twice.status).toBe(409);
    expect(await text(twice)).toContain('A record for this month already exists');
  });

  it('a field error answers 400 beside the field and changes nothing', async () => {
    const { c } = await signedIn({ role: 'editor' });
    const values = broadband(2026, 2, { fixedBroadband: 3141 });
    const id = await create(c, 'broadband', values);
    const url = `${SCREEN}?tab=broadband&year=2026&month=2&edit=${id}`;
    const response = await c.postForm(url, {
      intent: 'update',
      id: String(id),
      ...asForm({ ...values, month: 13, fixedFwa5gRouter: -1 }),
    });
    expect(response.status).toBe(400);
    const html = await text(response);
    expect(html).toContain('Failed to update broadband connection record');
    expect(html).toContain('Month must be a whole number from 1 to 12');
    expect(html).toContain('Fixed FWA 5G Router must be a whole number of 0 or more');
    // The form stays open with what was sent.
    expect(html).toContain('Edit Broadband Connection Record');
    expect(html).toMatch(/name="fixedFwa5gRouter"[^>]*value="-1"/);
    expect(await (await c.get(`${API.broadband}/${id}`)).json()).toMatchObject({
      month: 2,
      fixedFwa5gRouter: 0,
      totalBroadband: 3141,
    });
  });

  it('a part edited on One Network Data changes the total and every share here, and the other way round', async () => {
    const { c } = await signedIn({ role: 'editor' });
    const part = async (connectionType: string, activeConnections: number) => {
      const response = await c.post('/api/broadband-connections', {
        companyId: ONE_NETWORK,
        year: 2028,
        month: 11,
        connectionType,
        activeConnections,
        newThisMonth: 0,
        churnThisMonth: 0,
      });
      expect(response.status).toBe(201);
      return (await response.json()).id as number;
    };
    const fixed = await part('fixed_broadband', 1681);
    await part('fixed_fwa_5g', 463);
    const tab = `${SCREEN}?tab=broadband&year=2028&month=11`;
    const before = await page(c, tab);
    for (const shown of ['2,144', '1,681', '78.40%', '463', '21.60%']) expect(before).toContain(shown);

    // Fixed Broadband 1,681 → 1,700 with the One Network Data form.
    const saved = await c.postForm('/one-network-data?tab=broadband', {
      intent: 'update',
      id: String(fixed),
      companyId: String(ONE_NETWORK),
      year: '2028',
      month: '11',
      connectionType: 'fixed_broadband',
      activeConnections: '1700',
      newThisMonth: '0',
      churnThisMonth: '0',
      revenue: '',
    });
    expect(saved.status).toBe(302);
    const after = main(await page(c, tab));
    for (const shown of ['2,163', '1,700', '78.59%', '21.41%']) expect(after).toContain(shown);
    for (const stale of ['2,144', '78.40%', '21.60%']) expect(after).not.toContain(stale);
    const data = main(await page(c, '/one-network-data?tab=broadband&year=2028&month=11'));
    for (const shown of ['1,700', '78.59%', '21.41%']) expect(data).toContain(shown);

    // Here the record's Fixed Broadband is that row: saving it here shows on One Network Data.
    const record = 2028 * 100 + 11;
    const form = await page(c, `${tab}&edit=${record}`);
    expect(form).toMatch(/name="fixedBroadband"[^>]*value="1700"/);
    const again = await c.postForm(`${tab}&edit=${record}`, {
      intent: 'update',
      id: String(record),
      ...asForm(broadband(2028, 11, { fixedBroadband: 1737, fixedFwa5gRouter: 463 })),
    });
    expect(again.status).toBe(302);
    expect(main(await page(c, '/one-network-data?tab=broadband&year=2028&month=11'))).toContain('1,737');
    expect(await (await c.get(`/api/broadband-connections/${fixed}`)).json()).toMatchObject({
      activeConnections: 1737,
      percentageOfTotal: 78.95,
    });
    expect(await (await c.get(`${API.broadband}/${record}`)).json()).toMatchObject({
      totalBroadband: 2200,
      fixedBroadbandPercentage: 78.95,
      fixedFwa5gRouterPercentage: 21.05,
    });
  });

  it('a viewer sees no Edit or Add controls and a posted form is refused with 403', async () => {
    const { c: admin } = await signedIn({ role: 'admin' });
    const values = broadband(2025, 8, { fixedBroadband: 8080 });
    const id = await create(admin, 'broadband', values);
    const { c } = await signedIn({ role: 'viewer' });
    const html = await page(c, `${SCREEN}?tab=broadband&year=2025&month=8`);
    expect(html).toContain('8,080');
    expect(main(html)).not.toContain('edit=');
    expect(main(await page(c, `${SCREEN}?year=2025&month=8`))).not.toContain('edit=');
    const empty = await page(c, `${SCREEN}?tab=mobile&year=2025&month=8`);
    expect(empty).toContain('No mobile subscription record for August 2025.');
    expect(empty).not.toContain('Add record');
    // ?edit= and ?new=1 open nothing for a viewer.
    expect(await page(c, `${SCREEN}?tab=broadband&year=2025&month=8&edit=${id}`)).not.toContain(
      'Edit Broadband Connection Record',
    );
    expect(await page(c, `${SCREEN}?tab=broadband&new=1`)).not.toContain('Add Broadband Connection Record');
    const post = await c.postForm(`${SCREEN}?tab=broadband`, {
      intent: 'update',
      id: String(id),
      ...asForm({ ...values, fixedBroadband: 1 }),
    });
    expect(post.status).toBe(403);
    expect(await (await c.get(`${API.broadband}/${id}`)).json()).toMatchObject({ totalBroadband: 8080 });
  });

  it('a user limited to Vult gets 404 for the screen, its forms and its posts', async () => {
    const { c: admin } = await signedIn({ role: 'admin' });
    const values = broadband(2025, 9, { fixedBroadband: 9090 });
    const id = await create(admin, 'broadband', values);
    for (const role of ['viewer', 'editor'] as const) {
      const { c } = await signedIn({ role, companyId: VULT });
      for (const path of [SCREEN, `${SCREEN}?tab=broadband&edit=${id}`, `${SCREEN}?tab=mobile&new=1`])
        expect((await c.get(path)).status, `${role} ${path}`).toBe(404);
      const post = await c.postForm(`${SCREEN}?tab=broadband`, {
        intent: 'update',
        id: String(id),
        ...asForm({ ...values, fixedBroadband: 1 }),
      });
      expect(post.status, role).toBe(404);
      const created = await c.postForm(`${SCREEN}?tab=access`, { intent: 'create', ...asForm(access(2025, 10)) });
      expect(created.status, role).toBe(404);
    }
    expect(await (await admin.get(`${API.broadband}/${id}`)).json()).toMatchObject({ totalBroadband: 9090 });
    // A user of One Network itself opens it.
    const { c: own } = await signedIn({ role: 'viewer', companyId: ONE_NETWORK });
    expect(await page(own, `${SCREEN}?tab=broadband&year=2025&month=9`)).toContain('9,090');
  });

  // Last: it renames the company for a moment.
  it('says so when no company is named One Network, without tabs or data', async () => {
    const { c } = await signedIn({ role: 'admin' });
    await db().updateTable('companies').set({ name: 'One Network (renamed)' }).where('id', '=', ONE_NETWORK).execute();
    try {
      const html = await page(c, `${SCREEN}?tab=broadband`);
      expect(html).toContain('>One Network Subscriptions</h1>');
      expect(html).toContain('One Network Company Not Found');
      expect(html).toContain('Please ensure the One Network company is created in the system.');
      expect(html).not.toContain('aria-label="Subscription metrics"');
      expect(html).not.toContain('12,345');
    } finally {
      await db().updateTable('companies').set({ name: 'One Network' }).where('id', '=', ONE_NETWORK).execute();
    }
  });
});
