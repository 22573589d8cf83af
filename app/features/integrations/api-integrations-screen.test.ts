// The API Integration screen over HTTP, as a browser without JavaScript uses it
// (docs/screens.md): the six tabs, a source added from its panel, an endpoint's Sync Now, a
// credential added (never shown back), sync logs 'In progress' until done, an endpoint's
// company and a partial run with its skipped records, the analysis tabs, and the 403s.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeRemoteApi, type FakeRemoteApi } from '../../../test/support/fake-remote-api.ts';
import { TEST_DIALECTS } from '../../../test/database.ts';
import { useTestServer, type TestClient } from '../../../test/server.ts';
import { waitFor } from '../../../test/wait.ts';

const URL_ = '/api-integrations';

describe.each(TEST_DIALECTS)('API integration screen on %s', (dialect) => {
  let remote: FakeRemoteApi;
  beforeAll(async () => {
    remote = await startFakeRemoteApi(() => ({ json: { data: [] } }));
  });
  afterAll(() => remote?.close());
  const { db, signedIn } = useTestServer(dialect, { env: { ALLOW_PRIVATE_TARGETS: '1' } });
  const text = async (response: Response) =>
    (await response.text())
      .replace(/<!-- -->/g, '')
      .replace(/&#x27;/g, "'")
      .replace(/&quot;/g, '"');
  const post = (c: TestClient, url: string, fields: Record<string, string>) => c.postForm(url, fields);
  const follow = async (c: TestClient, response: Response) => text(await c.get(response.headers.get('Location')!));

  it('shows six tabs, Recommendations first; adds a source, an endpoint, a credential; Sync Now; the logs', async () => {
    const { c } = await signedIn({ role: 'admin' });
    const home = await text(await c.get(URL_));
    for (const label of ['Recommendations', 'Performance', 'API Sources', 'Endpoints', 'Credentials', 'Sync Logs'])
      expect(home).toContain(`>${label}</a>`);
    expect(home).toMatch(/aria-current="page"[^>]*>Recommendations</);

    const name = `Screen source ${dialect}`;
    const created = await post(c, `${URL_}?tab=sources&new=1`, {
      intent: 'create',
      name,
      baseUrl: `${remote.origin}/v1`,
      authType: 'bearer',
      isActive: 'on',
    });
    expect(created.status).toBe(302);
    const sources = await follow(c, created);
    expect(sources).toContain('API source created successfully');
    expect(sources).toContain(name);
    expect(sources).toContain('Active');
    expect(sources).toContain('Add API Source');
    const source = await db()
      .selectFrom('apiIntegrationSources')
      .select(['id', 'isActive'])
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
    expect(source.isActive).toBe(true);
    // Unticked: inactive.
    await post(c, `${URL_}?tab=sources&edit=${source.id}`, {
      intent: 'update',
      id: String(source.id),
      name,
      baseUrl: `${remote.origin}/v1`,
      authType: 'bearer',
    });
    expect(
      (
        await db()
          .selectFrom('apiIntegrationSources')
          .select('isActive')
          .where('id', '=', source.id)
          .executeTakeFirstOrThrow()
      ).isActive,
    ).toBe(false);
    await post(c, `${URL_}?tab=sources&edit=${source.id}`, {
      intent: 'update',
      id: String(source.id),
      name,
      baseUrl: `${remote.origin}/v1`,
      authType: 'bearer',
      isActive: 'on',
    });
    const badUrl = await post(c, `${URL_}?tab=sources&new=1`, {
      intent: 'create',
      name: 'x',
      baseUrl: 'not a url',
      authType: 'none',
    });
    expect(badUrl.status).toBe(400);
    expect(await text(badUrl)).toContain('Must be a valid URL');

    const credential = await post(c, `${URL_}?tab=credentials`, {
      intent: 'credential',
      sourceId: String(source.id),
      credentialKey: 'token',
      credentialValue: 'Screen-Secret-991',
      description: '',
    });
    expect(credential.status).toBe(302);
    const credentials = await follow(c, credential);
    expect(credentials).toContain('API credential created successfully');
    expect(credentials).toContain('Credentials are encrypted and stored securely');
    expect(credentials).not.toContain('Screen-Secret-991');
    const missing = await post(c, `${URL_}?tab=credentials`, {
      intent: 'credential',
      sourceId: String(source.id),
      credentialKey: '',
      credentialValue: '',
    });
    expect(missing.status).toBe(400);
    expect(await text(missing)).toContain('Credential key is required');

    const mappingConfig = JSON.stringify({ key: 'id', fields: { source: 'name' } });
    const newEndpoint = await text(await c.get(`${URL_}?tab=endpoints&new=1`));
    expect(newEndpoint).toContain('Webhook (JSON)');
    expect(newEndpoint).toMatch(/<textarea[^>]*name="webhookConfig"/);
    const badWebhook = await post(c, `${URL_}?tab=endpoints&new=1`, {
      intent: 'create',
      sourceId: String(source.id),
      name: 'Screen revenue',
      endpoint: '/revenue',
      method: 'GET',
      direction: 'inbound',
      targetTable: 'actual_revenue',
      syncFrequency: 'daily',
      mappingConfig,
      webhookConfig: '[1]',
      isActive: 'on',
    });
    expect(badWebhook.status).toBe(400);
    expect(await text(badWebhook)).toContain('Webhook (JSON) must be a JSON object');
    const webhookConfig = JSON.stringify({ url: '/hooks/revenue' });
    const endpoint = await post(c, `${URL_}?tab=endpoints&new=1`, {
      intent: 'create',
      sourceId: String(source.id),
      name: 'Screen revenue',
      endpoint: '/revenue',
      method: 'GET',
      direction: 'inbound',
      targetTable: 'actual_revenue',
      syncFrequency: 'daily',
      mappingConfig,
      webhookConfig,
      isActive: 'on',
    });
    expect(endpoint.status).toBe(302);
    const endpoints = await follow(c, endpoint);
    expect(endpoints).toContain('API endpoint created successfully');
    expect(endpoints).toContain('Never');
    expect(endpoints).toContain('Sync Now');
    const { id: endpointId, webhookConfig: storedWebhook } = await db()
      .selectFrom('apiIntegrationEndpoints')
      .select(['id', 'webhookConfig'])
      .where('name', '=', 'Screen revenue')
      .executeTakeFirstOrThrow();
    expect(storedWebhook).toBe(webhookConfig);
    // The edit panel shows it back in its field.
    const editForm = await text(await c.get(`${URL_}?tab=endpoints&edit=${endpointId}`));
    expect(editForm).toContain('/hooks/revenue');
    const sync = await post(c, `${URL_}?tab=endpoints`, { intent: 'sync', id: String(endpointId) });
    expect(sync.status).toBe(302);
    expect(await follow(c, sync)).toContain('Sync started successfully');
    await waitFor(
      async () =>
        (await db()
          .selectFrom('apiIntegrationSyncLogs')
          .select('status')
          .where('endpointId', '=', endpointId)
          .where('status', '!=', 'running')
          .executeTakeFirst()) ?? null,
    );
    expect(remote.requests.at(-1)!.headers.authorization).toBe('Bearer Screen-Secret-991');
    await db()
      .insertInto('apiIntegrationSyncLogs')
      .values({ endpointId, status: 'running', startedAt: new Date().toISOString() })
      .execute();
    const logs = await text(await c.get(`${URL_}?tab=logs`));
    expect(logs).toContain('In progress');
    expect(logs).toContain('Success');
    expect(logs).toContain('Screen revenue');

    const performance = await text(await c.get(`${URL_}?tab=performance`));
    for (const label of [
      'Total requests',
      'Success rate',
      'Average response time',
      'Performance score',
      'Activity timeline',
    ])
      expect(performance).toContain(label);
    expect(await text(await c.get(`${URL_}?tab=recommendations`))).toContain('Recommendations');
  });

  it("files an endpoint's rows under its company; a run that skipped records shows as Partial with the reasons", async () => {
    const { c } = await signedIn({ role: 'admin' });
    remote.handler = () => ({
      json: {
        data: [
          {
            id: `ok-${dialect}`,
            category: 'Cloud Hosting',
            department: 'Engineering',
            amount: 10,
            day: '2026-05-01',
            memo: `Screen hosting ${dialect}`,
          },
          {
            id: `bad-${dialect}`,
            category: 'Media Buying',
            department: 'Marketing',
            amount: 20,
            day: '2026-05-01',
            memo: `Screen media ${dialect}`,
          },
        ],
      },
    });
    const vult = (await db().selectFrom('companies').select('id').where('name', '=', 'Vult').executeTakeFirstOrThrow())
      .id;
    const form = await text(await c.get(`${URL_}?tab=endpoints&new=1`));
    expect(form).toContain('<option value="">Named by each record</option>');
    const source = await (
      await c.request('/api/api-integration-sources', {
        method: 'POST',
        json: { name: `Screen cards ${dialect}`, baseUrl: `${remote.origin}/v1` },
      })
    ).json();
    const mappingConfig = JSON.stringify({
      key: 'id',
      fields: {
        categoryId: { path: 'category', lookup: 'expenseCategories' },
        departmentId: { path: 'department', lookup: 'departments' },
        amount: { path: 'amount', transform: 'number' },
        expenseDate: { path: 'day', transform: 'date' },
        description: 'memo',
      },
    });
    const created = await post(c, `${URL_}?tab=endpoints&new=1`, {
      intent: 'create',
      sourceId: String(source.id),
      name: 'Screen cards',
      endpoint: '/cards',
      method: 'GET',
      direction: 'inbound',
      targetTable: 'actual_expenses',
      companyId: String(vult),
      syncFrequency: 'manual',
      mappingConfig,
      isActive: 'on',
    });
    expect(created.status).toBe(302);
    const endpoint = await db()
      .selectFrom('apiIntegrationEndpoints')
      .select(['id', 'companyId'])
      .where('name', '=', 'Screen cards')
      .executeTakeFirstOrThrow();
    expect(endpoint.companyId).toBe(vult);
    expect(await follow(c, created)).toMatch(/Screen cards.*Vult/s);
    await post(c, `${URL_}?tab=endpoints`, { intent: 'sync', id: String(endpoint.id) });
    await waitFor(
      async () =>
        (await db()
          .selectFrom('apiIntegrationSyncLogs')
          .select('status')
          .where('endpointId', '=', endpoint.id)
          .where('status', '!=', 'running')
          .executeTakeFirst()) ?? null,
    );
    const logs = await text(await c.get(`${URL_}?tab=logs`));
    const row = logs.slice(logs.indexOf('Screen cards'));
    // The log's row and, under it, its details row (the error and the skipped records).
    expect(row.slice(0, row.indexOf('</tr>', row.indexOf('</tr>') + 1))).toMatch(
      />Partial<.*1 skipped record<\/summary>.*bad-\w+: categoryId: no expense category named "Media Buying" in Vult/s,
    );
    expect(
      await db()
        .selectFrom('actualExpenses')
        .select('companyId')
        .where('description', 'like', `Screen % ${dialect}`)
        .execute(),
    ).toEqual([{ companyId: vult }]);
  });

  it("describes a mapping that does not parse in the reader's language, the /api in English", async () => {
    const { c } = await signedIn({ role: 'admin' });
    const created = await c.request('/api/api-integration-sources', {
      method: 'POST',
      json: { name: `Mapping words ${dialect}`, baseUrl: `${remote.origin}/v1`, authType: 'none' },
    });
    expect(created.status).toBe(201);
    const { id: sourceId } = (await created.json()) as { id: number };
    const endpoint = {
      sourceId: String(sourceId),
      name: 'Mapping words',
      endpoint: '/revenue',
      method: 'GET',
      direction: 'inbound',
      targetTable: 'actual_revenue',
      syncFrequency: 'manual',
      mappingConfig: JSON.stringify({ key: 1, fields: { source: 'name' } }),
    };
    const english = await c.request('/api/api-integration-endpoints', {
      method: 'POST',
      json: { ...endpoint, sourceId },
    });
    expect(english.status).toBe(400);
    expect((await english.json()).errors).toContainEqual({
      field: 'mappingConfig',
      message: 'Mapping key: Invalid input: expected string, received number',
    });
    expect((await c.request('/api/user-settings', { method: 'PUT', json: { language: 'de' } })).status).toBe(200);
    const german = await post(c, `${URL_}?tab=endpoints&new=1`, { intent: 'create', ...endpoint });
    expect(german.status).toBe(400);
    expect(await text(german)).toContain('Zuordnung, key: Ungültige Eingabe: erwartet string, erhalten Zahl');
    const unknownKey = await post(c, `${URL_}?tab=endpoints&new=1`, {
      intent: 'create',
      ...endpoint,
      mappingConfig: JSON.stringify({ key: 'id', fields: { source: 'name' }, extra: 1 }),
    });
    expect(await text(unknownKey)).toContain('Zuordnung: Unbekannter Schlüssel: "extra"');
    const ownMessage = await post(c, `${URL_}?tab=endpoints&new=1`, {
      intent: 'create',
      ...endpoint,
      mappingConfig: JSON.stringify({ key: 'id', fields: {} }),
    });
    expect(await text(ownMessage)).toContain('Zuordnung, fields: ordnen Sie mindestens ein Feld zu');
  });

  it('shows recommendations ten at a time, ranked, with Show more and the way back (no JavaScript)', async () => {
    const { c } = await signedIn({ role: 'admin' });
    // Each active source with a key to send and no credential is a recommendation of its own.
    const names = Array.from({ length: 12 }, (_, i) => `Bare source ${dialect} ${String(i).padStart(2, '0')}`);
    await db()
      .insertInto('apiIntegrationSources')
      .values(names.map((name) => ({ name, baseUrl: `${remote.origin}/bare`, authType: 'api_key', isActive: true })))
      .execute();
    const cards = (html: string) => html.match(/data-testid="recommendation"/g)?.length ?? 0;
    const first = await text(await c.get(`${URL_}?tab=recommendations`));
    const total = Number(/Showing 1–10 of (\d+) recommendations, ranked/.exec(first)?.[1]);
    expect(total).toBeGreaterThanOrEqual(12);
    expect(cards(first)).toBe(10);
    expect(first).toContain('>Show more</a>');
    expect(first).toContain('href="/api-integrations?tab=recommendations&amp;offset=10"');
    const shown = new Set<string>();
    for (let offset = 0; offset < total; offset += 10) {
      const html = await text(await c.get(`${URL_}?tab=recommendations&offset=${offset}`));
      expect(cards(html)).toBe(Math.min(10, total - offset));
      for (const name of names) if (html.includes(`Add credentials for ${name}`)) shown.add(name);
      if (offset > 0) expect(html).toContain('Back to the first');
    }
    expect([...shown].sort()).toEqual(names);
    // Past the end (or not a number): the last page, or the first.
    expect(cards(await text(await c.get(`${URL_}?tab=recommendations&offset=100000`)))).toBe(total % 10 || 10);
    expect(cards(await text(await c.get(`${URL_}?tab=recommendations&offset=abc`)))).toBe(10);
  });

  it('needs the API integrations permission; a company-scoped admin reads but changes nothing', async () => {
    const { c: viewer } = await signedIn({ role: 'viewer' });
    expect((await viewer.get(URL_)).status).toBe(403);
    const companyId = (await db().selectFrom('companies').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    const { c: scoped } = await signedIn({ role: 'admin', companyId });
    const page = await text(await scoped.get(`${URL_}?tab=sources`));
    expect(page).not.toContain('Add API Source');
    expect(
      (
        await post(scoped, `${URL_}?tab=sources`, {
          intent: 'create',
          name: 'Nope',
          baseUrl: 'https://x.example.com',
          authType: 'none',
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await post(scoped, `${URL_}?tab=credentials`, {
          intent: 'credential',
          sourceId: '1',
          credentialKey: 'k',
          credentialValue: 'v',
        })
      ).status,
    ).toBe(403);
  });
});
