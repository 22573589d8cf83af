// The API integration calls over real HTTP, on every test dialect: sources and
// endpoints with the spec's bodies, defaults and messages; credentials that never come back;
// a sync started (202) and its log; the analysis calls; permissions and company scope; an
// endpoint that is not a path refused; a source moved to another origin deactivating its
// credentials, audited; an endpoint's company, within which a sync resolves names (partial run).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeRemoteApi, type FakeRemoteApi } from '../../../test/support/fake-remote-api.ts';
import { TEST_DIALECTS } from '../../../test/database.ts';
import { useTestServer, type TestClient } from '../../../test/server.ts';
import { waitFor } from '../../../test/wait.ts';
import { expectAnswer } from '../../../test/assertions.ts';
import { SyncLogListAnswer } from './answers.ts';

describe.each(TEST_DIALECTS)('/api integrations on %s', (dialect) => {
  let remote: FakeRemoteApi;
  beforeAll(async () => {
    remote = await startFakeRemoteApi();
  });
  afterAll(() => remote?.close());
  const { db, signedIn } = useTestServer(dialect, { env: { ALLOW_PRIVATE_TARGETS: '1' } });
  const admin = () => signedIn({ role: 'admin' });
  const send = (c: TestClient, method: string, path: string, body?: unknown) =>
    c.request(path, { method, json: body ?? {} });

  it("sources: create with defaults, edit, list, delete; the spec's messages", async () => {
    const { c } = await admin();
    const created = await send(c, 'POST', '/api/api-integration-sources', {
      name: `Bank feed ${dialect}`,
      description: 'Daily statements',
      baseUrl: 'https://bank.example.com/api',
    });
    expect(created.status).toBe(201);
    const source = await created.json();
    expect(source).toMatchObject({
      name: `Bank feed ${dialect}`,
      baseUrl: 'https://bank.example.com/api',
      authType: 'none',
      isActive: true,
      createdAt: expect.any(String),
    });
    const edited = await send(c, 'PUT', `/api/api-integration-sources/${source.id}`, {
      authType: 'bearer',
      isActive: false,
    });
    expect(await edited.json()).toMatchObject({ authType: 'bearer', isActive: false });
    const list = await (await c.get('/api/api-integration-sources')).json();
    expect(JSON.stringify(list)).toContain(`Bank feed ${dialect}`);
    const bad = await send(c, 'POST', '/api/api-integration-sources', {
      name: '',
      baseUrl: 'ftp://x',
      authType: 'kerberos',
    });
    expect(bad.status).toBe(400);
    const errors = (await bad.json()).errors;
    expect(errors).toEqual(
      expect.arrayContaining([
        { field: 'name', message: 'Name is required' },
        { field: 'baseUrl', message: 'Must be a valid URL' },
        expect.objectContaining({ field: 'authType' }),
      ]),
    );
    expect((await send(c, 'DELETE', `/api/api-integration-sources/${source.id}`)).status).toBe(204);
  });

  it("endpoints: the spec's defaults and required fields; a source with endpoints cannot be deleted", async () => {
    const { c } = await admin();
    const source = await (
      await send(c, 'POST', '/api/api-integration-sources', {
        name: `Ledger ${dialect}`,
        baseUrl: `${remote.origin}/v1`,
      })
    ).json();
    const created = await send(c, 'POST', '/api/api-integration-endpoints', {
      sourceId: source.id,
      name: 'Revenue',
      endpoint: '/revenue',
      targetTable: 'actual_revenue',
      description: null,
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({
      method: 'GET',
      direction: 'inbound',
      syncFrequency: 'manual',
      isActive: true,
      lastSyncAt: null,
      sourceName: `Ledger ${dialect}`,
    });
    const bad = await send(c, 'POST', '/api/api-integration-endpoints', {
      sourceId: source.id,
      name: '',
      endpoint: '',
      syncFrequency: 'sometimes',
      mappingConfig: '{"key": 1}',
    });
    expect((await bad.json()).errors).toEqual(
      expect.arrayContaining([
        { field: 'name', message: 'Name is required' },
        { field: 'endpoint', message: 'Endpoint is required' },
        { field: 'targetTable', message: 'Target table is required' },
      ]),
    );
    const conflict = await send(c, 'DELETE', `/api/api-integration-sources/${source.id}`);
    expect(conflict.status).toBe(409);
    expect((await conflict.json()).message).toBe('Cannot delete this API source: it is still used by 1 endpoint');
  });

  it('an endpoint is a path on its source: an absolute or protocol-relative address is a 400 on create and update', async () => {
    const { c } = await admin();
    const source = await (
      await send(c, 'POST', '/api/api-integration-sources', {
        name: `Paths ${dialect}`,
        baseUrl: 'https://paths.example.com/v1',
      })
    ).json();
    const message =
      "Endpoint must be a path on the source's base URL (such as /v1/expenses), not an address of its own";
    for (const endpoint of ['https://collector.example/steal', '//collector.example/steal', 'http:collector.example']) {
      const bad = await send(c, 'POST', '/api/api-integration-endpoints', {
        sourceId: source.id,
        name: 'Absolute',
        endpoint,
        targetTable: 'actual_revenue',
      });
      expect(bad.status, endpoint).toBe(400);
      expect((await bad.json()).errors).toEqual([{ field: 'endpoint', message }]);
    }
    const created = await (
      await send(c, 'POST', '/api/api-integration-endpoints', {
        sourceId: source.id,
        name: 'Relative',
        endpoint: '/revenue',
        targetTable: 'actual_revenue',
      })
    ).json();
    const moved = await send(c, 'PUT', `/api/api-integration-endpoints/${created.id}`, {
      endpoint: 'https://collector.example/steal',
    });
    expect(moved.status).toBe(400);
    expect((await moved.json()).errors).toEqual([{ field: 'endpoint', message }]);
  });

  it("an endpoint's webhookConfig is set, read, changed, cleared, exported and audited; it must be a JSON object", async () => {
    const { c } = await admin();
    const source = await (
      await send(c, 'POST', '/api/api-integration-sources', {
        name: `Hooks ${dialect}`,
        baseUrl: 'https://hooks.example.com/v1',
      })
    ).json();
    const webhookConfig = JSON.stringify({ url: '/hooks/expenses', events: ['created'] });
    const created = await send(c, 'POST', '/api/api-integration-endpoints', {
      sourceId: source.id,
      name: `Hooked ${dialect}`,
      endpoint: '/expenses',
      targetTable: 'budgets',
      webhookConfig,
    });
    expect(created.status).toBe(201);
    const endpoint = await created.json();
    expect(endpoint.webhookConfig).toBe(webhookConfig);
    expect((await (await c.get(`/api/api-integration-endpoints/${endpoint.id}`)).json()).webhookConfig).toBe(
      webhookConfig,
    );
    const listed = (await (await c.get(`/api/api-integration-endpoints?sourceId=${source.id}`)).json()) as {
      id: number;
      webhookConfig: string | null;
    }[];
    expect(listed.find((e) => e.id === endpoint.id)?.webhookConfig).toBe(webhookConfig);

    const changedConfig = JSON.stringify({ url: '/hooks/v2' });
    const changed = await send(c, 'PUT', `/api/api-integration-endpoints/${endpoint.id}`, {
      webhookConfig: changedConfig,
    });
    expect(changed.status).toBe(200);
    expect((await changed.json()).webhookConfig).toBe(changedConfig);
    const stored = await db()
      .selectFrom('apiIntegrationEndpoints')
      .select('webhookConfig')
      .where('id', '=', endpoint.id)
      .executeTakeFirstOrThrow();
    expect(stored.webhookConfig).toBe(changedConfig);
    const entries = await db()
      .selectFrom('auditLogs')
      .select(['action', 'changes', 'newData'])
      .where('tableName', '=', 'api_integration_endpoints')
      .where('recordId', '=', endpoint.id)
      .orderBy('id')
      .execute();
    expect(entries.map((e) => e.action)).toEqual(['create', 'update']);
    expect(JSON.stringify(entries[0].newData)).toContain('webhookConfig');
    expect(JSON.parse(JSON.stringify(entries[1].changes))).toMatchObject({
      webhookConfig: { old: webhookConfig, new: changedConfig },
    });
    const version = await db()
      .selectFrom('dataVersions')
      .select('data')
      .where('tableName', '=', 'api_integration_endpoints')
      .where('recordId', '=', endpoint.id)
      .where('isActive', '=', true)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(version.data)).toContain('hooks/v2');

    const csv = await (
      await c.get(`/export/api-integration-endpoints?q=${encodeURIComponent(`Hooked ${dialect}`)}`)
    ).text();
    expect(csv.split('\n')[0]).toContain('Webhook (JSON)');
    expect(csv).toContain('hooks/v2');

    for (const [value, message] of [
      ['[1, 2]', 'Webhook (JSON) must be a JSON object'],
      ['{not json', 'Webhook (JSON) must be a JSON object'],
      [`{"url": "${'x'.repeat(20_000)}"}`, 'Webhook (JSON) must be at most 20000 characters'],
      [42, 'Webhook (JSON) must be text'],
    ] as const) {
      const bad = await send(c, 'PUT', `/api/api-integration-endpoints/${endpoint.id}`, { webhookConfig: value });
      expect(bad.status, String(value).slice(0, 20)).toBe(400);
      expect((await bad.json()).errors).toEqual([{ field: 'webhookConfig', message }]);
    }
    const cleared = await send(c, 'PUT', `/api/api-integration-endpoints/${endpoint.id}`, { webhookConfig: '' });
    expect((await cleared.json()).webhookConfig).toBeNull();
  });

  it('a source moved to another origin deactivates its credentials, each with an audit entry; another path keeps them', async () => {
    const { c, user } = await admin();
    const source = await (
      await send(c, 'POST', '/api/api-integration-sources', {
        name: `Moving ${dialect}`,
        baseUrl: 'https://moving.example.com/v1',
        authType: 'bearer',
      })
    ).json();
    const credential = await (
      await send(c, 'POST', '/api/api-integration-credentials', {
        sourceId: source.id,
        credentialKey: 'token',
        credentialValue: 'Moving-Secret-991',
      })
    ).json();
    const active = async () =>
      (
        await db()
          .selectFrom('apiIntegrationCredentials')
          .select('isActive')
          .where('id', '=', credential.id)
          .executeTakeFirstOrThrow()
      ).isActive;
    expect(
      (await send(c, 'PUT', `/api/api-integration-sources/${source.id}`, { baseUrl: 'https://moving.example.com/v2' }))
        .status,
    ).toBe(200);
    expect(await active()).toBe(true);
    expect(
      (await send(c, 'PUT', `/api/api-integration-sources/${source.id}`, { baseUrl: 'http://moving.example.com/v2' }))
        .status,
    ).toBe(200);
    expect(await active()).toBe(false);
    const entry = await db()
      .selectFrom('auditLogs')
      .selectAll()
      .where('tableName', '=', 'api_integration_credentials')
      .where('recordId', '=', credential.id)
      .where('action', '=', 'update')
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({
      userId: user.id,
      reason:
        "The source's origin changed from https://moving.example.com to http://moving.example.com: the credential must be entered again",
    });
    expect(JSON.stringify(entry)).not.toContain('Moving-Secret-991');
  });

  it('credentials are stored sealed and never returned', async () => {
    const { c } = await admin();
    const source = await (
      await send(c, 'POST', '/api/api-integration-sources', {
        name: `Vault ${dialect}`,
        baseUrl: 'https://vault.example.com',
        authType: 'bearer',
      })
    ).json();
    const created = await send(c, 'POST', '/api/api-integration-credentials', {
      sourceId: String(source.id),
      credentialKey: 'token',
      credentialValue: 'Never-Shown-7781',
      description: 'prod',
    });
    expect(created.status).toBe(201);
    const body = await created.text();
    expect(body).not.toContain('Never-Shown-7781');
    expect(JSON.parse(body)).toMatchObject({
      sourceId: source.id,
      credentialKey: 'token',
      description: 'prod',
      isActive: true,
    });
    const bad = await send(c, 'POST', '/api/api-integration-credentials', {
      sourceId: 999999,
      credentialKey: '',
      credentialValue: '',
    });
    expect((await bad.json()).errors).toEqual(
      expect.arrayContaining([
        { field: 'credentialKey', message: 'Credential key is required' },
        { field: 'credentialValue', message: 'Credential value is required' },
      ]),
    );
    expect((await c.get('/api/api-integration-credentials')).status).toBe(405);
  });

  it("a sync starts (202, the body's userId ignored), runs, and shows in both log lists", async () => {
    remote.handler = () => ({
      json: {
        data: [{ ref: `r-${dialect}`, amount: 12.5, day: '2026-04-01', company: 'Vult', source: 'Remote sales' }],
      },
    });
    const { c, user } = await admin();
    const source = await (
      await send(c, 'POST', '/api/api-integration-sources', {
        name: `Sales ${dialect}`,
        baseUrl: `${remote.origin}/v1`,
      })
    ).json();
    const mappingConfig = JSON.stringify({
      key: 'ref',
      fields: {
        companyId: { path: 'company', lookup: 'companies' },
        amount: { path: 'amount', transform: 'number' },
        revenueDate: { path: 'day', transform: 'date' },
        source: 'source',
      },
    });
    const endpoint = await (
      await send(c, 'POST', '/api/api-integration-endpoints', {
        sourceId: source.id,
        name: 'Sales',
        endpoint: '/sales',
        targetTable: 'actual_revenue',
        mappingConfig,
      })
    ).json();
    const started = await send(c, 'POST', `/api/api-integration-sync/${endpoint.id}`, { userId: 1 });
    expect(started.status).toBe(202);
    const { message, syncLog } = await started.json();
    expect(message).toBe('Sync started successfully');
    expect(syncLog).toMatchObject({ endpointId: endpoint.id, status: 'running', triggeredBy: user.id });
    const done = await waitFor(async () => {
      const log = await db()
        .selectFrom('apiIntegrationSyncLogs')
        .selectAll()
        .where('id', '=', syncLog.id)
        .executeTakeFirstOrThrow();
      return log.status === 'running' ? null : log;
    });
    expect(done).toMatchObject({ status: 'success', recordsCreated: 1 });
    const logs = await c.get('/api/api-integration-sync-logs?limit=5');
    expect(logs.headers.get('x-total-count')).not.toBeNull();
    const listed = await logs.json();
    expectAnswer(SyncLogListAnswer, listed);
    expect(listed[0]).toMatchObject({
      id: syncLog.id,
      status: 'success',
      endpointName: 'Sales',
      sourceName: `Sales ${dialect}`,
    });
    const dashboard = await (await c.get('/api/api-integrations/sync-logs?limit=5&offset=0')).json();
    expect(dashboard.length).toBeLessThanOrEqual(5);
    // Every field of the log, plus when it last changed: its end (its start while running),
    // the same value the dashboard's API activity shows for it.
    const item = dashboard.find((l: { id: number }) => l.id === syncLog.id);
    expect(item).toMatchObject({
      id: syncLog.id,
      endpointId: endpoint.id,
      endpointName: 'Sales',
      sourceName: `Sales ${dialect}`,
      status: 'success',
      startedAt: expect.any(String),
      completedAt: expect.any(String),
      recordsProcessed: 1,
      recordsCreated: 1,
      recordsUpdated: 0,
      recordsSkipped: 0,
      errorMessage: null,
      syncData: null,
      syncDuration: expect.any(Number),
      triggeredBy: user.id,
    });
    expect(item.timestamp).toBe(item.completedAt);
    expect(new Date(item.timestamp).toISOString()).toBe(item.timestamp);
    for (const log of dashboard) expect(log.timestamp).toBe(log.completedAt ?? log.startedAt);
    const { apiActivity } = await (await c.get('/api/dashboard')).json();
    expect(apiActivity.find((a: { id: number }) => a.id === syncLog.id)?.timestamp).toBe(item.timestamp);
    expect((await c.get('/api/api-integration-sync-logs?limit=0')).status).toBe(400);
    expect((await send(c, 'POST', '/api/api-integration-sync/999999')).status).toBe(404);
  });

  it("an endpoint's company: lookups resolve within it; a record they cannot resolve is skipped and the run is partial with the reason", async () => {
    remote.handler = () => ({
      json: {
        data: [
          {
            ref: `hosting-${dialect}`,
            category: 'Cloud Hosting',
            department: 'Engineering',
            amount: 80,
            day: '2026-04-02',
            memo: `Hosting ${dialect}`,
          },
          {
            ref: `towers-${dialect}`,
            category: 'Tower Leases',
            department: 'Network Operations',
            amount: 90,
            day: '2026-04-02',
            memo: `Towers ${dialect}`,
          },
        ],
      },
    });
    const { c } = await admin();
    const spark = (
      await db().selectFrom('companies').select('id').where('name', '=', 'Spark Marketing').executeTakeFirstOrThrow()
    ).id;
    const source = await (
      await send(c, 'POST', '/api/api-integration-sources', {
        name: `Card feed ${dialect}`,
        baseUrl: `${remote.origin}/v1`,
      })
    ).json();
    const mappingConfig = JSON.stringify({
      key: 'ref',
      fields: {
        categoryId: { path: 'category', lookup: 'expenseCategories' },
        departmentId: { path: 'department', lookup: 'departments' },
        amount: { path: 'amount', transform: 'number' },
        expenseDate: { path: 'day', transform: 'date' },
        description: 'memo',
      },
    });
    const unknown = await send(c, 'POST', '/api/api-integration-endpoints', {
      sourceId: source.id,
      companyId: 999_999,
      name: 'Cards',
      endpoint: '/cards',
      targetTable: 'actual_expenses',
      mappingConfig,
    });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).errors).toEqual([{ field: 'companyId', message: 'Company not found' }]);
    const created = await send(c, 'POST', '/api/api-integration-endpoints', {
      sourceId: source.id,
      companyId: spark,
      name: 'Cards',
      endpoint: '/cards',
      targetTable: 'actual_expenses',
      mappingConfig,
    });
    expect(created.status).toBe(201);
    const endpoint = await created.json();
    expect(endpoint).toMatchObject({ companyId: spark, companyName: 'Spark Marketing' });
    const { syncLog } = await (await send(c, 'POST', `/api/api-integration-sync/${endpoint.id}`)).json();
    await waitFor(
      async () =>
        (
          await db()
            .selectFrom('apiIntegrationSyncLogs')
            .select('status')
            .where('id', '=', syncLog.id)
            .executeTakeFirstOrThrow()
        ).status !== 'running' || null,
    );
    const [log] = await (await c.get(`/api/api-integration-sync-logs?endpointId=${endpoint.id}`)).json();
    const reason = 'categoryId: no expense category named "Tower Leases" in Spark Marketing';
    expect(log).toMatchObject({
      id: syncLog.id,
      status: 'partial',
      recordsProcessed: 2,
      recordsCreated: 1,
      recordsSkipped: 1,
      errorMessage: `1 record skipped; first: ${reason}`,
      syncData: { errors: [{ record: `towers-${dialect}`, message: reason }] },
    });
    const filed = await db()
      .selectFrom('actualExpenses as x')
      .innerJoin('expenseCategories as cat', 'cat.id', 'x.categoryId')
      .select(['x.companyId', 'cat.companyId as categoryCompany'])
      .where('x.description', '=', `Hosting ${dialect}`)
      .execute();
    expect(filed).toEqual([{ companyId: spark, categoryCompany: spark }]);
    expect(
      await db().selectFrom('actualExpenses').select('id').where('description', '=', `Towers ${dialect}`).execute(),
    ).toEqual([]);
  });

  it('the analysis calls answer; reading needs the permission; a company-scoped admin changes nothing', async () => {
    const { c } = await admin();
    expect(await (await c.get('/api/api-performance-analysis')).json()).toMatchObject({
      totalRequests: expect.any(Number),
      successRate: expect.any(Number),
      avgResponseTime: expect.any(Number),
      performanceScore: expect.any(Number),
      issues: expect.any(Array),
    });
    expect(Array.isArray(await (await c.get('/api/api-activity-timeline')).json())).toBe(true);
    expect(Array.isArray(await (await c.get('/api/api-recommendations')).json())).toBe(true);
    const { c: viewer } = await signedIn({ role: 'viewer' });
    expect((await viewer.get('/api/api-recommendations')).status).toBe(403);
    const companyId = (await db().selectFrom('companies').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    const { c: scoped } = await signedIn({ role: 'admin', companyId });
    expect((await scoped.get('/api/api-integration-sources')).status).toBe(200);
    expect(
      (await send(scoped, 'POST', '/api/api-integration-sources', { name: 'Scoped', baseUrl: 'https://x.example.com' }))
        .status,
    ).toBe(403);
    expect(
      (
        await send(scoped, 'POST', '/api/api-integration-credentials', {
          sourceId: 1,
          credentialKey: 'k',
          credentialValue: 'v',
        })
      ).status,
    ).toBe(403);
  });
});
