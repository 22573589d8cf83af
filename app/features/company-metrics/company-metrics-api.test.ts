// The company-metrics /api paths over real HTTP on every test dialect: the nine
// resources at their paths (and Vult's two spellings over the same rows), the latest-object
// GET, the year/month/company filters, validation (400 with field messages, nothing written),
// one record per month (409 with the reason), roles, company scope (the One Network paths are
// a 404 for a user limited to Vult), the rows named after One Network, audit and CSV export.
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/database.ts';
import { TestClient, useTestServer } from '../../../test/server.ts';

type Row = Record<string, any> & { id: number };

const ONE_NETWORK = 1;
const VULT = 2;
const ATLAS = 3;

async function status(response: Response, expected: number) {
  if (response.status !== expected)
    expect(response.status, `${response.url}: ${await response.clone().text()}`).toBe(expected);
}

/** A valid body per collection path; `month` keeps the unique rules apart. */
const BODIES: Record<string, (month: number, year?: number) => Record<string, unknown>> = {
  'broadband-connections': (month, year = 2024) => ({
    companyId: ATLAS,
    year,
    month,
    connectionType: 'fixed_fiber',
    activeConnections: 1200,
    newThisMonth: 40,
    churnThisMonth: 12,
    revenue: 42000,
  }),
  'mobile-subscriptions': (month, year = 2024) => ({
    companyId: ONE_NETWORK,
    year,
    month,
    subscriptionType: 'weekly',
    activeSubscriptions: 300,
    newThisMonth: 9,
    churnThisMonth: 3,
    revenue: null,
  }),
  'mobile-access-methods': (month, year = 2024) => ({
    companyId: ONE_NETWORK,
    year,
    month,
    accessMethod: 'esim',
    activeDevices: 77,
  }),
  'one-network/broadband-connections': (month, year = 2024) => ({
    year,
    month,
    fixedBroadband: 1681,
    fixedBroadbandNew: 12,
    fixedBroadbandChurn: 20,
    fixedFiber: 0,
    fixedFiberNew: 0,
    fixedFiberChurn: 0,
    fixedFwa5gRouter: 463,
    fixedFwa5gRouterNew: 5,
    fixedFwa5gRouterChurn: 12,
  }),
  'one-network/mobile-subscription-patterns': (month, year = 2024) => ({
    year,
    month,
    dailySubscriptions: 2310,
    dailyNew: 1,
    dailyChurn: 0,
    weeklySubscriptions: 3520,
    weeklyNew: 1,
    weeklyChurn: 1,
    monthlySubscriptions: 5170,
    monthlyNew: 2,
    monthlyChurn: 0,
  }),
  'one-network/mobile-access-methods': (month, year = 2024) => ({
    year,
    month,
    mifiDevices: 679,
    simCards: 0,
    eSim: 0,
    fwaMobile: 0,
  }),
  'vult-subscriber-metrics': (month, year = 2024) => ({
    companyId: VULT,
    year,
    month,
    totalSubscribers: 150000,
    retentionRate: 93.25,
    conversionRate: 24.1,
    cardHolders: 90000,
    cardAdoptionRate: 60,
  }),
  'vult-subscriber-levels': (month, year = 2024) => ({
    companyId: VULT,
    year,
    month,
    level: 'level_1',
    subscriberCount: 52000,
    percentageOfTotal: 34.67,
    description: 'Ready to use cards',
  }),
  'vult-card-types': (month, year = 2024) => ({
    companyId: VULT,
    year,
    month,
    cardType: 'gold',
    cardCount: 12000,
    percentageOfCards: 13.33,
    percentageOfUsers: 8,
    description: null,
  }),
};

/** The table behind each path (for counting writes). */
const TABLES: Record<string, string> = {
  'broadband-connections': 'broadband_connections',
  'mobile-subscriptions': 'mobile_subscriptions',
  'mobile-access-methods': 'mobile_access_methods',
  // A One Network record is its month's rows of the per-company table, one per type.
  'one-network/broadband-connections': 'broadband_connections',
  'one-network/mobile-subscription-patterns': 'mobile_subscriptions',
  'one-network/mobile-access-methods': 'mobile_access_methods',
  'vult-subscriber-metrics': 'vult_subscriber_metrics',
  'vult-subscriber-levels': 'vult_subscriber_levels',
  'vult-card-types': 'vult_card_types',
};

/** Rows a record of BODIES writes: the One Network records write one row per type with a count (the first type always). */
const PARTS: Record<string, number> = {
  'one-network/broadband-connections': 2,
  'one-network/mobile-subscription-patterns': 3,
  'one-network/mobile-access-methods': 1,
};

describe.each(TEST_DIALECTS)('company metrics API on %s', (dialect) => {
  const { db, signedIn } = useTestServer(dialect, {
    env: { API_RATE_LIMIT_PER_MINUTE: '100000', API_RATE_LIMIT_PER_HOUR: '1000000' },
  });
  let owner: TestClient;
  let admin: TestClient;
  let editor: TestClient;
  let viewer: TestClient;
  let vultEditor: TestClient;
  let month = 0;
  /** A month no other test used (each test writes its own months of 2024–2026). */
  const nextMonth = () => {
    month += 1;
    return { month: ((month - 1) % 12) + 1, year: 2024 + Math.floor((month - 1) / 12) };
  };

  const count = async (table: string) =>
    Number(
      (
        (await db()
          .selectFrom(table as never)
          .select((eb: any) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()) as { n: unknown }
      ).n,
    );
  const writes = async (table: string) => ({
    rows: await count(table),
    audit: await count('audit_logs'),
    versions: await count('data_versions'),
  });
  const put = (c: TestClient, path: string, body: unknown) => c.request(path, { method: 'PUT', json: body });
  const del = (c: TestClient, path: string) => c.request(path, { method: 'DELETE' });

  async function create(c: TestClient, path: string, body: Record<string, unknown>): Promise<Row> {
    const response = await c.post(`/api/${path}`, body);
    await status(response, 201);
    return response.json();
  }

  beforeAll(async () => {
    owner = (await signedIn({ role: 'owner' })).c;
    admin = (await signedIn({ role: 'admin' })).c;
    editor = (await signedIn({ role: 'editor' })).c;
    viewer = (await signedIn({ role: 'viewer' })).c;
    vultEditor = (await signedIn({ role: 'editor', companyId: VULT })).c;
  });

  it('creates, reads, updates and deletes at every path, with one audit entry and version per write', async () => {
    for (const path of Object.keys(BODIES)) {
      const { month: m, year } = nextMonth();
      const body = BODIES[path](m, year);
      const row = await create(editor, path, body);
      for (const [key, value] of Object.entries(body)) expect(row[key], `${path}.${key}`).toEqual(value);
      expect(typeof row.companyId).toBe('number');
      expect(row.companyName).toBeTruthy();

      const got = await owner.get(`/api/${path}/${row.id}`);
      await status(got, 200);
      expect(await got.json()).toEqual(row);

      const parts = PARTS[path] ?? 1;
      const before = await writes(TABLES[path]);
      const updated = await put(editor, `/api/${path}/${row.id}`, {
        id: row.id,
        month: m === 12 ? 11 : m + 1 === 13 ? 1 : m + 1,
        year: year + 3,
      });
      await status(updated, 200);
      const moved = await updated.json();
      expect(moved.year).toBe(year + 3);
      expect(await writes(TABLES[path])).toEqual({
        rows: before.rows,
        audit: before.audit + parts,
        versions: before.versions + parts,
      });

      // Editors may not delete; admins may.
      await status(await del(editor, `/api/${path}/${moved.id}`), 403);
      await status(await del(admin, `/api/${path}/${moved.id}`), 204);
      await status(await owner.get(`/api/${path}/${moved.id}`), 404);
      expect(await writes(TABLES[path])).toEqual({
        rows: before.rows - parts,
        audit: before.audit + 2 * parts,
        versions: before.versions + 2 * parts,
      });
      if (PARTS[path]) continue;
      const audit = await db()
        .selectFrom('auditLogs')
        .select(['action', 'tableName'])
        .where('recordId', '=', row.id)
        .where('tableName', '=', TABLES[path])
        .orderBy('id')
        .execute();
      expect(audit.map((a) => a.action)).toEqual(['create', 'update', 'delete']);
    }
  });

  it("One Network's records belong to the company named 'One Network' whatever the body says", async () => {
    const { month: m, year } = nextMonth();
    const response = await editor.post('/api/one-network/broadband-connections', {
      ...BODIES['one-network/broadband-connections'](m, year),
      companyId: VULT,
    });
    // companyId is not a field of these records: an unknown field is a 400, never a move.
    await status(response, 400);
    const row = await create(
      editor,
      'one-network/broadband-connections',
      BODIES['one-network/broadband-connections'](m, year),
    );
    expect(row.companyId).toBe(ONE_NETWORK);
    expect(row.companyName).toBe('One Network');
  });

  it("One Network's records are its per-type rows: a part edited on either path changes the totals and shares both paths answer", async () => {
    const { month: m, year } = nextMonth();
    const part = (connectionType: string, activeConnections: number, newThisMonth: number) =>
      create(editor, 'broadband-connections', {
        companyId: ONE_NETWORK,
        year,
        month: m,
        connectionType,
        activeConnections,
        newThisMonth,
        churnThisMonth: 1,
      });
    const fixed = await part('fixed_broadband', 1681, 12);
    await part('fixed_fwa_5g', 463, 5);
    await part('fixed_fiber', 500, 3);
    expect(fixed.percentageOfTotal).toBe(100); // alone in its month when created
    expect((await (await viewer.get(`/api/broadband-connections/${fixed.id}`)).json()).percentageOfTotal).toBe(63.58); // 1,681 of 2,644
    const record = async () => {
      const list = await (await viewer.get(`/api/one-network/broadband-connections?year=${year}&month=${m}`)).json();
      expect(list).toHaveLength(1);
      return list[0] as Row;
    };
    const before = await record();
    expect(before).toMatchObject({
      id: year * 100 + m,
      fixedBroadband: 1681,
      fixedFiber: 500,
      fixedFwa5gRouter: 463,
      totalBroadband: 2644,
      newConnections: 20,
      churnConnections: 3,
      fixedBroadbandPercentage: 63.58,
      fixedFiberPercentage: 18.91,
      fixedFwa5gRouterPercentage: 17.51,
    });
    expect(
      (await (await viewer.get(`/api/one-network/broadband-connections/${before.id}`)).json()).totalBroadband,
    ).toBe(2644);

    // Fixed Broadband 1,681 → 1,700 on the per-company path: the record's total and every share follow.
    await status(await put(editor, `/api/broadband-connections/${fixed.id}`, { activeConnections: 1700 }), 200);
    expect(await record()).toMatchObject({
      fixedBroadband: 1700,
      totalBroadband: 2663,
      fixedBroadbandPercentage: 63.84,
      fixedFiberPercentage: 18.78,
      fixedFwa5gRouterPercentage: 17.39,
    });
    const siblings = await (
      await viewer.get(`/api/broadband-connections?companyId=${ONE_NETWORK}&year=${year}&month=${m}`)
    ).json();
    expect(Object.fromEntries(siblings.map((r: Row) => [r.connectionType, r.percentageOfTotal]))).toEqual({
      fixed_broadband: 63.84,
      fixed_fiber: 18.78,
      fixed_fwa_5g: 17.39,
    });

    // …and the other way: the record's part is the per-company row, written once (with its audit entry).
    const audit = await count('audit_logs');
    const changed = await put(editor, `/api/one-network/broadband-connections/${before.id}`, { fixedBroadband: 1800 });
    await status(changed, 200);
    expect(await changed.json()).toMatchObject({
      fixedBroadband: 1800,
      totalBroadband: 2763,
      fixedBroadbandPercentage: 65.15,
    });
    expect(await (await viewer.get(`/api/broadband-connections/${fixed.id}`)).json()).toMatchObject({
      activeConnections: 1800,
      percentageOfTotal: 65.15,
    });
    expect(await count('audit_logs')).toBe(audit + 1);
    const rows = await db()
      .selectFrom('broadbandConnections')
      .select('connectionType')
      .where('companyId', '=', ONE_NETWORK)
      .where('year', '=', year)
      .where('month', '=', m)
      .execute();
    expect(rows).toHaveLength(3);
  });

  it("derives each connection row's churn rate from its counts, and answers its connections as subscriberCount too", async () => {
    const { month: m, year } = nextMonth();
    const row = await create(editor, 'broadband-connections', BODIES['broadband-connections'](m, year));
    expect(row.churnRate).toBe(1); // 12 of 1,200
    expect(row.subscriberCount).toBe(1200);
    const listed = await (await viewer.get(`/api/broadband-connections?year=${year}&month=${m}`)).json();
    expect(listed.find((r: Row) => r.id === row.id).subscriberCount).toBe(1200);
    // Read-only: the figure is changed through activeConnections.
    expect((await put(editor, `/api/broadband-connections/${row.id}`, { subscriberCount: 5 })).status).toBe(400);
    const devices = await create(editor, 'mobile-access-methods', BODIES['mobile-access-methods'](m, year));
    expect(devices.churnRate).toBeUndefined();
  });

  it('answers both Vult spellings from the same rows and services; a PUT body may repeat the id', async () => {
    for (const [flat, nested] of [
      ['vult-subscriber-levels', 'vult/subscriber-levels'],
      ['vult-card-types', 'vult/card-types'],
    ]) {
      const { month: m, year } = nextMonth();
      const row = await create(editor, nested, BODIES[flat](m, year));
      const a = await (await viewer.get(`/api/${flat}?companyId=${VULT}&year=${year}&month=${m}`)).json();
      const b = await (await viewer.get(`/api/${nested}?companyId=${VULT}&year=${year}&month=${m}`)).json();
      expect(a).toEqual([row]);
      expect(b).toEqual(a);
      const updated = await put(editor, `/api/${nested}/${row.id}`, { id: row.id, description: 'Renamed' });
      await status(updated, 200);
      expect((await (await viewer.get(`/api/${flat}/${row.id}`)).json()).description).toBe('Renamed');
      // Another id in the body is a 400, not a write to that row.
      const wrong = await put(editor, `/api/${nested}/${row.id}`, { id: row.id + 1000, description: 'Moved' });
      await status(wrong, 400);
      expect((await wrong.json()).errors).toEqual([{ field: 'id', message: 'id must match the id in the path' }]);
    }
  });

  it('GET /api/vult/subscriber-metrics answers the latest row as one object, or 404 when none', async () => {
    // Only this test writes Vult subscriber metrics for 2029 and 2030.
    await status(await viewer.get(`/api/vult/subscriber-metrics?companyId=${VULT}&year=2029`), 404);
    expect((await (await viewer.get('/api/vult/subscriber-metrics?companyId=4')).json()).message).toBe(
      'Resource not found',
    );
    const older = await create(editor, 'vult-subscriber-metrics', BODIES['vult-subscriber-metrics'](12, 2029));
    const latest = await create(editor, 'vult/subscriber-metrics', BODIES['vult-subscriber-metrics'](2, 2030));
    const response = await viewer.get('/api/vult/subscriber-metrics');
    await status(response, 200);
    expect(await response.json()).toEqual(latest);
    expect(await (await viewer.get('/api/vult/subscriber-metrics?year=2029')).json()).toEqual(older);
    // The flat spelling is the list.
    const list = await (await viewer.get('/api/vult-subscriber-metrics?year=2030')).json();
    expect(list).toEqual([latest]);
    // The nested spelling's item routes are the same rows.
    await status(
      await put(editor, `/api/vult/subscriber-metrics/${latest.id}`, {
        ...BODIES['vult-subscriber-metrics'](2, 2030),
        id: latest.id,
        cardHolders: 91000,
      }),
      200,
    );
    expect((await (await viewer.get(`/api/vult-subscriber-metrics/${latest.id}`)).json()).cardHolders).toBe(91000);
  });

  it('filters by companyId, year and month; sorts newest month first; sends X-Total-Count', async () => {
    const year = 2027;
    for (const m of [3, 11, 7]) await create(editor, 'mobile-access-methods', BODIES['mobile-access-methods'](m, year));
    await create(editor, 'mobile-access-methods', { ...BODIES['mobile-access-methods'](5, year), companyId: VULT });
    const response = await viewer.get(`/api/mobile-access-methods?companyId=${ONE_NETWORK}&year=${year}`);
    await status(response, 200);
    expect(response.headers.get('X-Total-Count')).toBe('3');
    expect((await response.json()).map((r: Row) => r.month)).toEqual([11, 7, 3]);
    const july = await (await viewer.get(`/api/mobile-access-methods?year=${year}&month=7`)).json();
    expect(july.map((r: Row) => [r.companyId, r.month])).toEqual([[ONE_NETWORK, 7]]);
    const bad = await viewer.get('/api/mobile-access-methods?year=2019&month=13');
    await status(bad, 400);
    expect((await bad.json()).errors).toEqual([
      { field: 'year', message: 'year must be an integer from 2020 to 2030' },
      { field: 'month', message: 'month must be an integer from 1 to 12' },
    ]);
  });

  it('refuses invalid bodies with field messages and writes nothing', async () => {
    const cases: [string, Record<string, unknown>, { field: string; message: string }][] = [
      [
        'broadband-connections',
        { year: 2019 },
        { field: 'year', message: 'Year must be a whole number from 2020 to 2030' },
      ],
      [
        'broadband-connections',
        { month: 13 },
        { field: 'month', message: 'Month must be a whole number from 1 to 12' },
      ],
      [
        'broadband-connections',
        { activeConnections: -1 },
        { field: 'activeConnections', message: 'Active Connections must be a whole number of 0 or more' },
      ],
      [
        'broadband-connections',
        { newThisMonth: 1.5 },
        { field: 'newThisMonth', message: 'New This Month must be a whole number of 0 or more' },
      ],
      // Shares and totals are computed from the counts: no body sets them.
      ['broadband-connections', { percentageOfTotal: 55.5 }, { field: 'percentageOfTotal', message: 'Unknown field' }],
      [
        'one-network/broadband-connections',
        { totalBroadband: 2144 },
        { field: 'totalBroadband', message: 'Unknown field' },
      ],
      [
        'one-network/mobile-subscription-patterns',
        { dailySubscriptionsPercentage: 33.33 },
        { field: 'dailySubscriptionsPercentage', message: 'Unknown field' },
      ],
      [
        'broadband-connections',
        { connectionType: 'dial_up' },
        {
          field: 'connectionType',
          message: 'Connection Type must be one of: fixed_broadband, fixed_fiber, fixed_fwa_5g',
        },
      ],
      ['broadband-connections', { companyId: 0 }, { field: 'companyId', message: 'Company is required' }],
      ['broadband-connections', { revenue: -5 }, { field: 'revenue', message: 'Revenue must be zero or more' }],
      [
        'vult-card-types',
        { cardType: 'diamond' },
        { field: 'cardType', message: 'Card Type must be one of: platinum, gold, black, aqua, plastic, virtual' },
      ],
      // An empty choice is a missing one.
      ['vult-subscriber-levels', { level: '' }, { field: 'level', message: 'Level is required' }],
      [
        'vult-subscriber-levels',
        { level: 'level_9' },
        { field: 'level', message: 'Level must be one of: level_0, level_1, level_2, in_progress' },
      ],
      [
        'vult-subscriber-metrics',
        { retentionRate: -0.01 },
        { field: 'retentionRate', message: 'Retention Rate (%) must be between 0 and 100' },
      ],
      [
        'one-network/mobile-access-methods',
        { mifiDevices: '679' },
        { field: 'mifiDevices', message: 'MiFi Devices must be a whole number of 0 or more' },
      ],
    ];
    for (const [path, change, error] of cases) {
      const before = await writes(TABLES[path]);
      const response = await editor.post(`/api/${path}`, { ...BODIES[path](1, 2028), ...change });
      await status(response, 400);
      const body = await response.json();
      expect(body.message).toBe('Invalid data');
      expect(body.errors, path).toContainEqual(error);
      expect(await writes(TABLES[path])).toEqual(before);
    }
    // Every available card type is one list everywhere.
    for (const cardType of ['platinum', 'gold', 'black', 'aqua', 'plastic', 'virtual']) {
      const row = await create(editor, 'vult-card-types', { ...BODIES['vult-card-types'](1, 2028), cardType });
      await status(await del(admin, `/api/vult-card-types/${row.id}`), 204);
    }
  });

  it('keeps one record per company, month and type: a second is a 409 with the reason', async () => {
    const { month: m, year } = nextMonth();
    const checks: [string, string][] = [
      ['broadband-connections', 'A record for this company, month and connection type already exists'],
      ['one-network/broadband-connections', 'A record for this month already exists'],
      ['vult-subscriber-levels', 'This level already has a record for this company and month'],
      ['vult-subscriber-metrics', 'Subscriber metrics for this company and month already exist'],
    ];
    for (const [path, message] of checks) {
      const first = await create(editor, path, BODIES[path](m, year));
      const again = await editor.post(`/api/${path}`, BODIES[path](m, year));
      await status(again, 409);
      expect(await again.json()).toEqual({ message });
      // Moving another row onto the same month is refused the same way.
      const other = await create(editor, path, BODIES[path](m === 12 ? 1 : m + 1, year));
      const moved = await put(editor, `/api/${path}/${other.id}`, { month: m });
      await status(moved, 409);
      expect(first.id).not.toBe(other.id);
    }
    // Another company may have its own record for the same month and type.
    await create(editor, 'broadband-connections', {
      ...BODIES['broadband-connections'](m, year),
      companyId: ONE_NETWORK,
    });
  });

  it('roles: a viewer reads but may not write; deletes need the delete permission', async () => {
    for (const path of Object.keys(BODIES)) {
      await status(await viewer.get(`/api/${path}`), 200);
      await status(await viewer.post(`/api/${path}`, BODIES[path](1, 2026)), 403);
    }
    await status(await client().get('/api/vult-card-types'), 401);
  });

  it('company scope: a user limited to Vult sees only Vult rows and gets 404 for One Network', async () => {
    const { month: m, year } = nextMonth();
    const oneNetworkRow = await create(owner, 'mobile-subscriptions', BODIES['mobile-subscriptions'](m, year));
    // The record of a month is its per-company rows: another month's.
    const other = nextMonth();
    const record = await create(
      owner,
      'one-network/mobile-subscription-patterns',
      BODIES['one-network/mobile-subscription-patterns'](other.month, other.year),
    );
    const vultRow = await create(vultEditor, 'mobile-subscriptions', {
      ...BODIES['mobile-subscriptions'](m, year),
      companyId: VULT,
    });

    const list = await (await vultEditor.get(`/api/mobile-subscriptions?year=${year}&month=${m}`)).json();
    expect(list.map((r: Row) => r.id)).toEqual([vultRow.id]);
    await status(await vultEditor.get(`/api/mobile-subscriptions/${oneNetworkRow.id}`), 404);
    await status(
      await put(vultEditor, `/api/mobile-subscriptions/${oneNetworkRow.id}`, { activeSubscriptions: 1 }),
      404,
    );
    // Writing a row for another company: that company is not found for this user.
    const foreign = await vultEditor.post('/api/mobile-subscriptions', {
      ...BODIES['mobile-subscriptions'](m === 12 ? 1 : m + 1, year),
      companyId: ONE_NETWORK,
    });
    await status(foreign, 400);
    expect((await foreign.json()).errors).toEqual([{ field: 'companyId', message: 'Company not found' }]);

    for (const path of [
      'one-network/broadband-connections',
      'one-network/mobile-subscription-patterns',
      'one-network/mobile-access-methods',
    ]) {
      await status(await vultEditor.get(`/api/${path}`), 404);
      const before = await writes(TABLES[path]);
      await status(await vultEditor.post(`/api/${path}`, BODIES[path](m, year)), 404);
      expect(await writes(TABLES[path])).toEqual(before);
    }
    await status(await vultEditor.get(`/api/one-network/mobile-subscription-patterns/${record.id}`), 404);
    // The CSV download is refused before it starts (a status, not a broken stream).
    await status(await vultEditor.get('/export/network-subscription-patterns'), 404);
    await status(await owner.get('/export/network-subscription-patterns'), 200);
    await status(
      await put(vultEditor, `/api/one-network/mobile-subscription-patterns/${record.id}`, { dailySubscriptions: 1 }),
      404,
    );
  });

  it("without a company named 'One Network' its record paths list nothing and refuse new records", async () => {
    await db().updateTable('companies').set({ name: 'One Network (renamed)' }).where('id', '=', ONE_NETWORK).execute();
    try {
      const list = await owner.get('/api/one-network/broadband-connections');
      await status(list, 200);
      expect(await list.json()).toEqual([]);
      const refused = await owner.post(
        '/api/one-network/broadband-connections',
        BODIES['one-network/broadband-connections'](6, 2030),
      );
      await status(refused, 409);
      expect(await refused.json()).toEqual({ message: 'The One Network company does not exist' });
    } finally {
      await db().updateTable('companies').set({ name: 'One Network' }).where('id', '=', ONE_NETWORK).execute();
    }
  });

  it('exports each table as CSV through the shared writer, percentages with two decimals', async () => {
    const { month: m, year } = nextMonth();
    await create(editor, 'vult-card-types', { ...BODIES['vult-card-types'](m, year), percentageOfUsers: 8 });
    const response = await viewer.get(`/export/vult-card-types?companyId=${VULT}`);
    await status(response, 200);
    expect(response.headers.get('Content-Type')).toContain('text/csv');
    const csv = await response.text();
    expect(csv.split('\r\n')[0]).toBe(
      'ID,Company,Year,Month,Card Type,Card Count,% of Cards,% of Users,Description,Created At,Updated At',
    );
    expect(csv).toContain(`,Vult,${year},${m},gold,12000,13.33,8.00,,`);
    const records = await owner.get('/export/network-broadband-records');
    await status(records, 200);
    expect((await records.text()).split('\r\n')[0]).toContain(
      'ID,Company,Year,Month,Fixed Broadband,Fixed Broadband New',
    );
  });

  const client = () => new TestClient(owner.baseUrl);
});
