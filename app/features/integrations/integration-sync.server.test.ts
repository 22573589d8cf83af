// The sync engine against a real remote API on loopback, on every test dialect: pagination,
// every auth type, mapping with lookups and transforms, a malformed record skipped and logged,
// a second run updating instead of duplicating, outbound batches, the timeout, a retried 500, a
// redirect to another host refused, private and link-local addresses refused before any
// connection, credentials never stored or logged in clear, and the schedule's due rule. The
// origin rules (docs/security.md): a page link, a redirect (https to http on the same host too) or an
// endpoint off the source's origin never receives the credential; a source moved elsewhere
// sends none. A remote dripping its answer ends at the deadline; a run delivered twice at
// once, or two runs of one endpoint, run once. A record lands in the endpoint's (or its own)
// company: names resolve within it, an ambiguous or unknown one skips the record (run partial).
import { noticeTextsOf, noticeWords } from '../notifications/shared.ts';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { createBackupNow } from '../backups/backups.server.ts';
import { backupSettingsFrom } from '../../platform/config.server.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDatabase } from '../../../db/client.ts';
import { LOOPBACK_TLS_CERT, LOOPBACK_TLS_KEY } from '../../../test/support/loopback-tls.ts';
import { ownerId, userContext, systemContext } from '../../../test/context.ts';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { startFakeRemoteApi, type FakeRemoteApi, type RemoteRequest } from '../../../test/support/fake-remote-api.ts';
import { apiIntegrationEndpoints, apiIntegrationSources } from './resources.ts';
import type { IntegrationSettings } from '../../platform/config.server.ts';
import type { Db, ServiceContext } from '../../platform/context.ts';
import { addCredential, openCredentials, rotateCredentialKey } from './integration-credentials.server.ts';
import { failInterruptedSyncs, isDue, listSyncLogs, runSync, type SyncLog } from './integration-sync.server.ts';
import { createRecord, updateRecord } from '../../platform/resources/resource-writes.server.ts';
import { INTERRUPTED } from '../system/system.server.ts';
import { createRuntime } from '../../platform/runtime.ts';
import { catalogTranslator } from '../shell/catalog-files.server.ts';

const KEY = 'c3'.repeat(32);
const SECRET = 'tok-Very-Secret-4711';

describe.each(TEST_DIALECTS)('integration sync on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let owner: ServiceContext;
  let remote: FakeRemoteApi;
  /** Another origin: the same address, another port. */
  let other: FakeRemoteApi;
  /** https and plain http on one port. */
  let secure: FakeRemoteApi;
  let settings: IntegrationSettings;
  let category: string;
  let department: string;
  let serial = 0;

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    db = database.db;
    owner = await userContext(db, await ownerId(db));
    remote = await startFakeRemoteApi();
    other = await startFakeRemoteApi(() => ({ json: { items: [] } }));
    secure = await startFakeRemoteApi(() => ({ json: { items: [] } }), {
      tls: { key: LOOPBACK_TLS_KEY, cert: LOOPBACK_TLS_CERT },
    });
    settings = { keys: [KEY], allowPrivateTargets: true, timeoutMs: 400, maxResponseBytes: 200_000 };
    const company = (await db.selectFrom('companies').select(['id']).orderBy('id').executeTakeFirstOrThrow()).id;
    const dep = await db.selectFrom('departments').select(['id', 'name']).orderBy('id').executeTakeFirstOrThrow();
    department = dep.name;
    category = `Sync Cloud ${dialect}`;
    await db
      .insertInto('expenseCategories')
      .values({ companyId: company, departmentId: dep.id, name: category })
      .execute();
  });
  afterEach(() => {
    remote.requests.length = 0;
    other.requests.length = 0;
    secure.requests.length = 0;
  });
  afterAll(async () => {
    await remote?.close();
    await other?.close();
    await secure?.close();
    await database?.destroy();
  });

  async function source(authType: string, baseUrl = `${remote.origin}/v1`, credentials: Record<string, string> = {}) {
    const row = await createRecord(owner, apiIntegrationSources, {
      name: `Remote ${dialect} ${++serial}`,
      baseUrl,
      authType,
    });
    for (const [credentialKey, credentialValue] of Object.entries(credentials))
      await addCredential(owner, settings, { sourceId: String(row.id), credentialKey, credentialValue });
    return row.id;
  }

  const expenseMapping = (extra: object = {}) =>
    JSON.stringify({
      records: 'items',
      key: 'id',
      fields: {
        categoryId: { path: 'category', lookup: 'expenseCategories' },
        departmentId: { path: 'department', lookup: 'departments' },
        amount: { path: 'amount_cents', transform: 'cents' },
        expenseDate: { path: 'booked_at', transform: 'date' },
        description: 'memo',
        vendor: { constant: 'Remote Vendor' },
      },
      ...extra,
    });

  async function endpoint(sourceId: number, values: Record<string, unknown> = {}) {
    return (
      await createRecord(owner, apiIntegrationEndpoints, {
        sourceId,
        name: `Endpoint ${++serial}`,
        endpoint: '/expenses',
        targetTable: 'actual_expenses',
        mappingConfig: expenseMapping(),
        ...values,
      })
    ).id;
  }

  async function sync(
    endpointId: number,
    custom: Partial<IntegrationSettings> = {},
    runtime = systemContext(db).runtime,
  ): Promise<SyncLog> {
    const log = await db
      .insertInto('apiIntegrationSyncLogs')
      .values({ endpointId, status: 'running', startedAt: new Date().toISOString() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return runSync({ db, runtime }, { ...settings, ...custom }, log.id, {
      retryDelayMs: () => 5,
      ca: LOOPBACK_TLS_CERT,
    });
  }

  const record = (id: string, amountCents: number | string, memo = `memo ${id}`) => ({
    id,
    category,
    department,
    amount_cents: amountCents,
    booked_at: '2026-03-04T10:00:00Z',
    memo,
  });

  it('pulls every page with a bearer token, maps and validates; a bad record is skipped and logged; a second run updates', async () => {
    const tag = `bearer-${dialect}`;
    let amounts = [12_345, 500];
    remote.handler = (request) => {
      if (request.headers.authorization !== `Bearer ${SECRET}`) return { status: 401, json: { error: 'no' } };
      if (request.url.searchParams.get('cursor') === '2')
        return { json: { items: [record(`${tag}-3`, 'abc'), record(`${tag}-4`, 77)], links: {} } };
      return {
        json: {
          items: [record(`${tag}-1`, amounts[0]), record(`${tag}-2`, amounts[1])],
          links: { next: '/v1/expenses?cursor=2' },
        },
      };
    };
    const id = await endpoint(await source('bearer', undefined, { token: SECRET }), {
      mappingConfig: expenseMapping({ pagination: { type: 'next', path: 'links.next' } }),
    });
    const first = await sync(id);
    expect(first).toMatchObject({
      status: 'partial',
      recordsProcessed: 4,
      recordsCreated: 3,
      recordsUpdated: 0,
      recordsUnchanged: 0,
      recordsSkipped: 1,
      requests: 2,
    });
    expect(first.syncData!.errors).toEqual([{ record: `${tag}-3`, message: 'amount: "abc" is not a number' }]);
    expect(first.errorMessage).toContain('1 record skipped');
    expect(remote.requests.map((r) => `${r.method} ${r.url.pathname}${r.url.search}`)).toEqual([
      'GET /v1/expenses',
      'GET /v1/expenses?cursor=2',
    ]);
    const rows = await db
      .selectFrom('actualExpenses')
      .select(['amountCents', 'expenseDate', 'vendor', 'description'])
      .where('description', 'like', `memo ${tag}%`)
      .orderBy('description')
      .execute();
    expect(rows.map((r) => [r.amountCents, r.vendor])).toEqual([
      [12_345, 'Remote Vendor'],
      [500, 'Remote Vendor'],
      [77, 'Remote Vendor'],
    ]);
    const audit = await db
      .selectFrom('auditLogs')
      .select(['actorLabel', 'userId'])
      .where('tableName', '=', 'actual_expenses')
      .where('reason', '=', 'API integration sync')
      .execute();
    expect(audit).toHaveLength(3);
    expect(audit.every((a) => a.actorLabel === 'integration' && a.userId === null)).toBe(true);

    amounts = [99_900, 500];
    const second = await sync(id);
    // Only the record whose amount changed is an update; the two sent again as they were are unchanged (nothing written).
    expect(second).toMatchObject({
      status: 'partial',
      recordsProcessed: 4,
      recordsCreated: 0,
      recordsUpdated: 1,
      recordsUnchanged: 2,
      recordsSkipped: 1,
    });
    expect(
      await db
        .selectFrom('auditLogs')
        .select('id')
        .where('tableName', '=', 'actual_expenses')
        .where('reason', '=', 'API integration sync')
        .where('action', '=', 'update')
        .execute(),
    ).toHaveLength(1);
    expect(
      await db
        .selectFrom('actualExpenses')
        .select('amountCents')
        .where('description', 'like', `memo ${tag}%`)
        .orderBy('description')
        .execute(),
    ).toEqual([{ amountCents: 99_900 }, { amountCents: 500 }, { amountCents: 77 }]);
    const endpointRow = await db
      .selectFrom('apiIntegrationEndpoints')
      .select('lastSyncAt')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(endpointRow.lastSyncAt).toBe(second.completedAt);
  });

  describe('the company a record is filed under', () => {
    const companyId = async (name: string) =>
      (await db.selectFrom('companies').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
    const filed = (tag: string) =>
      db
        .selectFrom('actualExpenses as x')
        .innerJoin('expenseCategories as c', 'c.id', 'x.categoryId')
        .innerJoin('companies as co', 'co.id', 'x.companyId')
        .select(['x.description', 'c.name as category', 'co.name as company'])
        .where('x.description', 'like', `memo ${tag}%`)
        .orderBy('x.description')
        .execute();
    const line = (id: string, categoryName: string, extra: object = {}) => ({
      id,
      category: categoryName,
      department: 'Engineering',
      amount_cents: 4_200,
      booked_at: '2026-03-04',
      memo: `memo ${id}`,
      ...extra,
    });

    it("resolves a category name every company uses within the endpoint's company", async () => {
      const tag = `atlas-${dialect}`;
      remote.handler = () => ({
        json: { items: [line(`${tag}-1`, 'Cloud Hosting'), line(`${tag}-2`, ' cloud hosting ')] },
      });
      const atlas = await companyId('Atlas Infrastructure');
      const log = await sync(await endpoint(await source('none'), { companyId: atlas }));
      expect(log).toMatchObject({
        status: 'success',
        recordsCreated: 2,
        recordsSkipped: 0,
        errorMessage: null,
        syncData: null,
      });
      expect(await filed(tag)).toEqual([
        { description: `memo ${tag}-1`, category: 'Cloud Hosting', company: 'Atlas Infrastructure' },
        { description: `memo ${tag}-2`, category: 'Cloud Hosting', company: 'Atlas Infrastructure' },
      ]);
    });

    it('without a company, skips a name several companies use, and the run is partial with the reason', async () => {
      const tag = `ambiguous-${dialect}`;
      remote.handler = () => ({
        json: { items: [line(`${tag}-1`, 'Cloud Hosting'), line(`${tag}-2`, category, { department })] },
      });
      const log = await sync(await endpoint(await source('none')));
      expect(log).toMatchObject({ status: 'partial', recordsProcessed: 2, recordsCreated: 1, recordsSkipped: 1 });
      const reason = `categoryId: "Cloud Hosting" is ambiguous: 4 companies have an expense category of that name (Atlas Infrastructure, One Network, Spark Marketing, Vult); set the endpoint's company or map the record's company`;
      expect(log.syncData!.errors).toEqual([{ record: `${tag}-1`, message: reason }]);
      expect(log.errorMessage).toBe(`1 record skipped; first: ${reason}`);
      expect((await filed(tag)).map((r) => r.description)).toEqual([`memo ${tag}-2`]);
      expect((await listSyncLogs(owner, { endpointId: log.endpointId })).rows[0]).toMatchObject({
        id: log.id,
        status: 'partial',
        syncData: { errors: [{ record: `${tag}-1`, message: reason }] },
      });
      const notice = await db
        .selectFrom('notifications')
        .select(['title', 'type', 'message'])
        .where('relatedTable', '=', 'api_integration_sync_logs')
        .where('relatedRecordId', '=', log.id)
        .executeTakeFirstOrThrow();
      expect(notice).toMatchObject({ title: 'API sync skipped records', type: 'warning' });
      expect(notice.message).toContain('1 record skipped; first: categoryId: "Cloud Hosting" is ambiguous');
    });

    it("skips a name unknown in the endpoint's company, and a category id of another company", async () => {
      const tag = `unknown-${dialect}`;
      const other = await db
        .selectFrom('expenseCategories')
        .select('id')
        .where('name', '=', 'Cloud Hosting')
        .where('companyId', '=', await companyId('Spark Marketing'))
        .executeTakeFirstOrThrow();
      remote.handler = () => ({
        json: {
          items: [
            line(`${tag}-1`, 'No Such Category'),
            line(`${tag}-2`, category),
            line(`${tag}-3`, 'Cloud Hosting'),
            { ...line(`${tag}-4`, ''), category_id: other.id },
          ],
        },
      });
      const mapping = JSON.parse(expenseMapping()) as { fields: Record<string, unknown> };
      const byId = JSON.stringify({ ...mapping, fields: { ...mapping.fields, categoryId: { path: 'category_id' } } });
      const vult = await companyId('Vult');
      const src = await source('none');
      const log = await sync(await endpoint(src, { companyId: vult }));
      expect(log).toMatchObject({ status: 'partial', recordsProcessed: 4, recordsCreated: 1, recordsSkipped: 3 });
      expect(log.syncData!.errors).toEqual([
        { record: `${tag}-1`, message: 'categoryId: no expense category named "No Such Category" in Vult' },
        { record: `${tag}-2`, message: `categoryId: no expense category named "${category}" in Vult` },
        { record: `${tag}-4`, message: 'categoryId: Category is required' },
      ]);
      expect(await filed(tag)).toEqual([{ description: `memo ${tag}-3`, category: 'Cloud Hosting', company: 'Vult' }]);
      const raw = await sync(await endpoint(src, { companyId: vult, mappingConfig: byId }));
      expect(raw).toMatchObject({ status: 'partial', recordsCreated: 0, recordsSkipped: 4 });
      expect(raw.syncData!.errors.find((e) => e.record === `${tag}-4`)).toEqual({
        record: `${tag}-4`,
        message: `categoryId: category #${other.id} belongs to Spark Marketing, not Vult`,
      });
    });

    it('keeps why records were skipped in every language: a screen reads its own, the /api the English', async () => {
      const tag = `words-${dialect}`;
      remote.handler = () => ({
        json: { items: [line(`${tag}-1`, 'No Such Category'), { ...line('', 'Cloud Hosting'), id: undefined }] },
      });
      const vult = await companyId('Vult');
      const withCatalogs = createRuntime(undefined, { translator: catalogTranslator() });
      const log = await sync(await endpoint(await source('none'), { companyId: vult }), {}, withCatalogs);
      expect(log.errorMessage).toBe(
        '2 records skipped; first: categoryId: no expense category named "No Such Category" in Vult',
      );
      const de = catalogTranslator()('de');
      const [german] = (await listSyncLogs(owner, { endpointId: log.endpointId }, 'de')).rows;
      expect(german.syncData!.errors).toEqual([
        {
          record: `${tag}-1`,
          message: de('{field}: no expense category named {name} in {company}', {
            field: 'categoryId',
            name: '"No Such Category"',
            company: 'Vult',
          }),
        },
        {
          record: de('page {page}, record {record}', { page: 1, record: 2 }),
          message: de('no "{key}" key', { key: 'id' }),
        },
      ]);
      expect(german.errorMessage).toMatch(/^2 Datensätze übersprungen; der erste: categoryId: Keine Ausgabenkategorie/);
      // The admins' notice of the run names the first reason in the same words.
      const notice = await db
        .selectFrom('notifications')
        .select(['title', 'message', 'actionText', 'texts'])
        .where('relatedTable', '=', 'api_integration_sync_logs')
        .where('relatedRecordId', '=', log.id)
        .executeTakeFirstOrThrow();
      expect(notice.message).toContain('first: categoryId: no expense category named "No Such Category" in Vult');
      expect(noticeWords({ ...notice, texts: noticeTextsOf(notice.texts) }, { t: de, locale: 'de' }).message).toContain(
        german.syncData!.errors[0].message,
      );
      const [english] = (await listSyncLogs(owner, { endpointId: log.endpointId })).rows;
      expect(english.syncData!.errors).toEqual([
        { record: `${tag}-1`, message: 'categoryId: no expense category named "No Such Category" in Vult' },
        { record: 'page 1, record 2', message: 'no "id" key' },
      ]);
    });

    it('takes the company a record names, which must agree with the endpoint; a companyId column gets the company', async () => {
      const tag = `named-${dialect}`;
      remote.handler = () => ({
        json: {
          items: [
            line(`${tag}-1`, 'Cloud Hosting', { entity: 'spark marketing' }),
            line(`${tag}-2`, 'Cloud Hosting', { entity: 'Nowhere Ltd' }),
            line(`${tag}-3`, 'Cloud Hosting', { entity: 'Vult' }),
          ],
        },
      });
      const src = await source('none');
      const named = await sync(await endpoint(src, { mappingConfig: expenseMapping({ company: 'entity' }) }));
      expect(named).toMatchObject({ status: 'partial', recordsCreated: 2, recordsSkipped: 1 });
      expect(named.syncData!.errors).toEqual([
        { record: `${tag}-2`, message: 'company: no company named "Nowhere Ltd"' },
      ]);
      expect((await filed(tag)).map((r) => r.company)).toEqual(['Spark Marketing', 'Vult']);

      const atlas = await companyId('Atlas Infrastructure');
      const disagree = await sync(
        await endpoint(src, { companyId: atlas, mappingConfig: expenseMapping({ company: 'entity' }) }),
      );
      expect(disagree.syncData!.errors.map((e) => e.message)).toEqual([
        'company: the record names Spark Marketing but this endpoint files into Atlas Infrastructure',
        'company: no company named "Nowhere Ltd"',
        'company: the record names Vult but this endpoint files into Atlas Infrastructure',
      ]);

      remote.handler = () => ({ json: { items: [{ id: `${tag}-cat`, name: `Category ${tag}` }] } });
      const categories = await sync(
        await endpoint(src, {
          targetTable: 'expense_categories',
          companyId: atlas,
          mappingConfig: JSON.stringify({ records: 'items', key: 'id', fields: { name: 'name' } }),
        }),
      );
      expect(categories).toMatchObject({ status: 'success', recordsCreated: 1 });
      expect(
        await db.selectFrom('expenseCategories').select('companyId').where('name', '=', `Category ${tag}`).execute(),
      ).toEqual([{ companyId: atlas }]);
    });
  });

  it('sends each auth type as it is declared', async () => {
    const seen: Record<string, RemoteRequest['headers']> = {};
    remote.handler = (request) => {
      seen[request.url.searchParams.get('auth') ?? ''] = request.headers;
      return { json: { items: [] } };
    };
    const cases: [string, Record<string, string>][] = [
      ['none', {}],
      ['api_key', { 'X-Api-Key': SECRET }],
      ['basic', { username: 'sync-user', password: SECRET }],
      ['oauth2', { access_token: SECRET }],
    ];
    for (const [authType, credentials] of cases) {
      const log = await sync(
        await endpoint(await source(authType, undefined, credentials), { endpoint: `/expenses?auth=${authType}` }),
      );
      expect(log.status, log.errorMessage ?? '').toBe('success');
    }
    expect(seen.none.authorization).toBeUndefined();
    expect(seen.api_key['x-api-key']).toBe(SECRET);
    expect(seen.basic.authorization).toBe(`Basic ${Buffer.from(`sync-user:${SECRET}`).toString('base64')}`);
    expect(seen.oauth2.authorization).toBe(`Bearer ${SECRET}`);
    // A declared auth type without its credential fails before any request.
    remote.requests.length = 0;
    const missing = await sync(await endpoint(await source('bearer')));
    expect(missing).toMatchObject({ status: 'failed', errorMessage: 'The source has no bearer token credential' });
    expect(remote.requests).toHaveLength(0);
    const notice = await db
      .selectFrom('notifications')
      .select(['title', 'category'])
      .where('relatedTable', '=', 'api_integration_sync_logs')
      .where('relatedRecordId', '=', missing.id)
      .executeTakeFirst();
    expect(notice).toEqual({ title: 'API sync failed', category: 'api' });
  });

  it('follows page and offset pagination until a short page', async () => {
    const tag = `paged-${dialect}`;
    remote.handler = (request) => {
      const page = Number(request.url.searchParams.get('page') ?? request.url.searchParams.get('offset'));
      const items = request.url.searchParams.has('page')
        ? page < 3
          ? [record(`${tag}-p${page}a`, 1), record(`${tag}-p${page}b`, 2)]
          : [record(`${tag}-p${page}`, 3)]
        : page < 4
          ? [record(`${tag}-o${page}a`, 1), record(`${tag}-o${page}b`, 2)]
          : [];
      return { json: { items } };
    };
    const src = await source('none');
    const byPage = await sync(
      await endpoint(src, {
        mappingConfig: expenseMapping({ pagination: { type: 'page', param: 'page', sizeParam: 'per_page', size: 2 } }),
      }),
    );
    expect(byPage).toMatchObject({ status: 'success', recordsCreated: 5, requests: 3 });
    expect(remote.requests.map((r) => r.url.search)).toEqual([
      '?page=1&per_page=2',
      '?page=2&per_page=2',
      '?page=3&per_page=2',
    ]);
    remote.requests.length = 0;
    const byOffset = await sync(
      await endpoint(src, {
        mappingConfig: expenseMapping({
          pagination: { type: 'offset', param: 'offset', limitParam: 'limit', size: 2 },
        }),
      }),
    );
    expect(byOffset).toMatchObject({ status: 'success', recordsCreated: 4, requests: 3 });
    expect(remote.requests.map((r) => r.url.search)).toEqual([
      '?offset=0&limit=2',
      '?offset=2&limit=2',
      '?offset=4&limit=2',
    ]);
  });

  it('retries a 500, gives up on a slow answer, refuses a redirect to another host and an answer too large', async () => {
    const src = await source('none');
    let calls = 0;
    remote.handler = () => (++calls <= 2 ? { status: 500, json: { error: 'busy' } } : { json: { items: [] } });
    expect(await sync(await endpoint(src))).toMatchObject({ status: 'success', requests: 3 });

    remote.handler = () => ({ json: { items: [] }, delayMs: 1500 });
    const slow = await sync(await endpoint(src));
    expect(slow).toMatchObject({
      status: 'failed',
      errorMessage: `127.0.0.1:${remote.port} did not answer within 400 ms`,
    });

    remote.handler = () => ({ status: 302, headers: { Location: `http://localhost:${remote.port}/v1/expenses` } });
    remote.requests.length = 0;
    expect(await sync(await endpoint(src))).toMatchObject({
      status: 'failed',
      errorMessage: `Redirect to http://localhost:${remote.port} refused: only the source's origin ${remote.origin} is allowed`,
    });
    expect(remote.requests).toHaveLength(1);

    remote.handler = () => ({ text: JSON.stringify({ items: [], padding: 'x'.repeat(5000) }) });
    expect(await sync(await endpoint(src), { maxResponseBytes: 2048 })).toMatchObject({
      status: 'failed',
      errorMessage: `The answer of 127.0.0.1:${remote.port} is larger than 2,048 bytes`,
    });
  });

  it('refuses loopback, private and link-local addresses before connecting unless private targets are allowed', async () => {
    remote.handler = () => ({ json: { items: [] } });
    for (const base of [
      `${remote.origin}/v1`,
      'http://10.20.30.40/v1',
      'http://169.254.169.254/latest',
      'http://[::1]:9/v1',
    ]) {
      const log = await sync(await endpoint(await source('none', base)), { allowPrivateTargets: false });
      expect(log.status).toBe('failed');
      expect(log.errorMessage).toMatch(/private|loopback|link-local|not a public/i);
    }
    expect(remote.requests).toHaveLength(0);
  });

  it('pushes the rows changed since the last successful run, in batches', async () => {
    const received: unknown[][] = [];
    remote.handler = (request) => {
      received.push((request.body as { records: unknown[] }).records);
      return { json: { ok: true } };
    };
    const id = await endpoint(await source('none'), {
      direction: 'outbound',
      method: 'POST',
      targetTable: 'expense_categories',
      endpoint: '/categories',
      mappingConfig: JSON.stringify({ batchSize: 10, fields: { title: 'name' } }),
    });
    const total = Number(
      (
        await db
          .selectFrom('expenseCategories')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const first = await sync(id);
    expect(first).toMatchObject({ status: 'success', recordsProcessed: total, requests: Math.ceil(total / 10) });
    expect(received.flat()).toContainEqual({ title: category });
    expect(remote.requests[0]).toMatchObject({ method: 'POST', body: { table: 'expenseCategories' } });
    received.length = 0;
    await new Promise((resolve) => setTimeout(resolve, 5));
    await db
      .updateTable('expenseCategories')
      .set({ description: 'changed', updatedAt: new Date().toISOString() })
      .where('name', '=', category)
      .execute();
    expect(await sync(id)).toMatchObject({ status: 'success', recordsProcessed: 1 });
    expect(received).toEqual([[{ title: category }]]);
  });

  it('never keeps a credential in clear: not in the table, the audit trail, the versions or the database file; rotation re-seals', async () => {
    const plain = `Plain-Credential-${dialect}-Zq9`;
    const sourceId = await source('bearer', undefined, { token: plain });
    const stored = await db
      .selectFrom('apiIntegrationCredentials')
      .selectAll()
      .where('sourceId', '=', sourceId)
      .executeTakeFirstOrThrow();
    expect(stored.credentialValue).not.toContain(plain);
    const trail = JSON.stringify([
      await db.selectFrom('auditLogs').selectAll().where('tableName', '=', 'api_integration_credentials').execute(),
      await db.selectFrom('dataVersions').selectAll().where('tableName', '=', 'api_integration_credentials').execute(),
    ]);
    expect(trail).not.toContain(plain);
    expect(trail).not.toContain(stored.credentialValue);
    if (dialect === 'sqlite') {
      await db.selectFrom('companies').select('id').execute();
      const files = fs.readdirSync(database.dataDir).filter((f) => /\.(db|sqlite)(-wal)?$/.test(f));
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) expect(fs.readFileSync(`${database.dataDir}/${file}`).includes(plain)).toBe(false);
    }
    // A backup carries the credential sealed, as stored.
    const backup = await createBackupNow(owner, backupSettingsFrom({ DATA_DIR: database.dataDir }), {
      tables: ['apiIntegrationSources'],
    });
    expect(backup.status).toBe('completed');
    const { fileName } = await db
      .selectFrom('backups')
      .select('fileName')
      .where('id', '=', backup.id)
      .executeTakeFirstOrThrow();
    const file = zlib.gunzipSync(fs.readFileSync(path.join(database.dataDir, 'backups', fileName!))).toString('utf8');
    expect(file).toContain(stored.credentialValue);
    expect(file).not.toContain(plain);
    // A new ENCRYPTION_KEY with the old one as PREVIOUS_ENCRYPTION_KEY: still opens; rotation re-seals.
    const next = { keys: ['d4'.repeat(32), KEY] };
    expect((await openCredentials(db, next, sourceId, remote.origin)).get('token')).toBe(plain);
    const { rotated } = await rotateCredentialKey(db, next);
    expect(rotated).toBeGreaterThanOrEqual(1);
    expect((await openCredentials(db, { keys: ['d4'.repeat(32)] }, sourceId, remote.origin)).get('token')).toBe(plain);
    await expect(openCredentials(db, { keys: [KEY] }, sourceId, remote.origin)).rejects.toThrow(
      /another encryption key/,
    );
    await rotateCredentialKey(db, { keys: [KEY, 'd4'.repeat(32)] });
  });

  it('never follows a page link to another origin: that origin gets no request and no credential', async () => {
    const tag = `next-${dialect}`;
    remote.handler = (request) =>
      request.headers.authorization === `Bearer ${SECRET}`
        ? { json: { items: [record(`${tag}-1`, 100)], links: { next: `${other.origin}/v1/expenses?cursor=2` } } }
        : { status: 401 };
    const id = await endpoint(await source('bearer', undefined, { token: SECRET }), {
      mappingConfig: expenseMapping({ pagination: { type: 'next', path: 'links.next' } }),
    });
    const log = await sync(id);
    expect(log).toMatchObject({
      status: 'failed',
      errorMessage: `Next page link to ${other.origin} refused: only the source's origin ${remote.origin} is allowed`,
      requests: 1,
    });
    expect(remote.requests).toHaveLength(1);
    expect(other.requests).toHaveLength(0);
    // The same origin's link is followed.
    remote.handler = (request) => ({
      json: {
        items: [],
        links: request.url.searchParams.has('cursor') ? {} : { next: `${remote.origin}/v1/expenses?cursor=2` },
      },
    });
    expect(await sync(id)).toMatchObject({ status: 'success', requests: 2 });
  });

  it('refuses a redirect from https to http on the same host and port: the credential never travels in clear', async () => {
    secure.handler = (request) => {
      if (!request.secure) return { json: { items: [] } };
      if (request.url.pathname === '/v1/moved')
        return { status: 302, headers: { Location: `${secure.origin}/v1/expenses` } };
      return request.url.pathname === '/v1/expenses'
        ? { json: { items: [] } }
        : { status: 302, headers: { Location: `${secure.plainOrigin}/v1/expenses` } };
    };
    const src = await source('bearer', `${secure.origin}/v1`, { token: SECRET });
    // https to https on the origin is followed, with the credential.
    expect(await sync(await endpoint(src, { endpoint: '/moved' }))).toMatchObject({ status: 'success' });
    expect(secure.requests.map((r) => [r.secure, r.url.pathname, r.headers.authorization])).toEqual([
      [true, '/v1/moved', `Bearer ${SECRET}`],
      [true, '/v1/expenses', `Bearer ${SECRET}`],
    ]);
    secure.requests.length = 0;
    const log = await sync(await endpoint(src, { endpoint: '/insecure' }));
    expect(log).toMatchObject({
      status: 'failed',
      errorMessage: `Redirect to ${secure.plainOrigin} refused: only the source's origin ${secure.origin} is allowed`,
    });
    expect(secure.requests.filter((r) => !r.secure)).toEqual([]);
  });

  it("refuses an endpoint that is not a path; one stored before runs only on the source's origin", async () => {
    const src = await source('bearer', undefined, { token: SECRET });
    for (const address of [
      `${other.origin}/v1/expenses`,
      `//127.0.0.1:${other.port}/x`,
      '\\\\evil.example/x',
      '/\\evil.example/x',
      ' HTTPS://evil.example/x',
      'mailto:someone@example.com',
      '\t//evil.example',
    ]) {
      await expect(endpoint(src, { endpoint: address }), address).rejects.toMatchObject({
        kind: 'invalid',
        errors: [
          {
            field: 'endpoint',
            message:
              "Endpoint must be a path on the source's base URL (such as /v1/expenses), not an address of its own",
          },
        ],
      });
    }
    const id = await endpoint(src);
    await expect(
      updateRecord(owner, apiIntegrationEndpoints, id, { endpoint: `${other.origin}/steal` }),
    ).rejects.toMatchObject({ kind: 'invalid' });
    // Written before endpoints were checked: the run fails before any request.
    await db
      .updateTable('apiIntegrationEndpoints')
      .set({ endpoint: `${other.origin}/v1/expenses` })
      .where('id', '=', id)
      .execute();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const log = await sync(id);
    expect(log).toMatchObject({ status: 'failed', requests: 0 });
    expect(log.errorMessage).toBe(
      `The endpoint ${other.origin}/v1/expenses is not on the source's origin ${remote.origin}: an endpoint is a path on the source's base URL (edit it); nothing was sent`,
    );
    expect(errors.mock.calls.map((c) => String(c[0]))).toContain(
      `[integrations] sync #${log.id} refused: ${log.errorMessage}`,
    );
    errors.mockRestore();
    expect(other.requests).toHaveLength(0);
    // An absolute address on the source's own origin still runs.
    remote.handler = () => ({ json: { items: [] } });
    await db
      .updateTable('apiIntegrationEndpoints')
      .set({ endpoint: `${remote.origin}/v1/expenses` })
      .where('id', '=', id)
      .execute();
    expect(await sync(id)).toMatchObject({ status: 'success' });
  });

  it('a source moved to another origin sends its old credentials nowhere', async () => {
    remote.handler = () => ({ json: { items: [] } });
    const src = await source('bearer', undefined, { token: SECRET });
    const id = await endpoint(src);
    expect(await sync(id)).toMatchObject({ status: 'success' });
    await updateRecord(owner, apiIntegrationSources, src, { baseUrl: `${other.origin}/v1` });
    const log = await sync(id);
    expect(log).toMatchObject({
      status: 'failed',
      errorMessage: `The source has no bearer token credential: its credentials were entered for another origin than ${other.origin}; enter them again`,
    });
    expect(other.requests).toHaveLength(0);
    // A row moved there in the database (origin and value's source) does not open either.
    await db
      .updateTable('apiIntegrationCredentials')
      .set({ origin: other.origin, isActive: true })
      .where('sourceId', '=', src)
      .execute();
    const tampered = await sync(id);
    expect(tampered.status).toBe('failed');
    expect(tampered.errorMessage).toMatch(
      new RegExp(
        `^The credential "token" \\(#\\d+\\) does not open for ${other.origin.replaceAll('.', '\\.')}: it was sealed for another origin or altered; enter it again$`,
      ),
    );
    expect(other.requests).toHaveLength(0);
  });

  it('reads inbound with GET unless the endpoint says POST; never with a method that changes data', async () => {
    remote.handler = () => ({ json: { items: [] } });
    const src = await source('none');
    for (const method of ['GET', 'DELETE', 'PUT', 'PATCH', 'POST'])
      expect(await sync(await endpoint(src, { method }))).toMatchObject({ status: 'success' });
    expect(remote.requests.map((r) => r.method)).toEqual(['GET', 'GET', 'GET', 'GET', 'POST']);
  });

  it('ends a request at the deadline even when the remote keeps sending a byte now and then', async () => {
    const body = JSON.stringify({ items: [] });
    remote.handler = () => ({ drip: { pieces: body.split(''), everyMs: 100 } });
    const started = Date.now();
    const log = await sync(await endpoint(await source('none')));
    expect(log).toMatchObject({
      status: 'failed',
      errorMessage: `127.0.0.1:${remote.port} did not send its whole answer within 400 ms`,
    });
    expect(Date.now() - started).toBeLessThan(body.length * 100);
    // An answer within the deadline is fine, however it is cut up.
    remote.handler = () => ({ drip: { pieces: [body.slice(0, 4), body.slice(4)], everyMs: 50 } });
    expect(await sync(await endpoint(await source('none')))).toMatchObject({ status: 'success' });
  });

  it('runs a log once when its job is delivered twice at once (another process on PostgreSQL), and one run of an endpoint at a time', async () => {
    const second = dialect === 'postgres' ? createDatabase({ url: database.url!, poolSize: 2 }) : null;
    const otherDb = second?.db ?? db;
    try {
      const tag = `twice-${dialect}`;
      remote.handler = () => ({ json: { items: [record(`${tag}-1`, 4200)] }, delayMs: 300 });
      const id = await endpoint(await source('none'));
      const log = await db
        .insertInto('apiIntegrationSyncLogs')
        .values({ endpointId: id, status: 'running', startedAt: new Date().toISOString() })
        .returning('id')
        .executeTakeFirstOrThrow();
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      const [one, two] = await Promise.all([
        runSync(systemContext(db), settings, log.id),
        runSync(systemContext(otherDb), settings, log.id),
      ]);
      expect(remote.requests).toHaveLength(1);
      expect([one.status, two.status].sort()).toEqual(['running', 'success']);
      expect(
        await db
          .selectFrom('apiIntegrationSyncLogs')
          .select(['status', 'recordsCreated', 'requests'])
          .where('id', '=', log.id)
          .executeTakeFirstOrThrow(),
      ).toEqual({ status: 'success', recordsCreated: 1, requests: 1 });
      expect(warn.mock.calls.map((c) => String(c[0]))).toContain(
        `[integrations] sync #${log.id} is already being run by another worker: left to it`,
      );
      // Two logs of one endpoint: the second fails cleanly, without a request.
      remote.requests.length = 0;
      const a = await db
        .insertInto('apiIntegrationSyncLogs')
        .values({ endpointId: id, status: 'running', startedAt: new Date().toISOString() })
        .returning('id')
        .executeTakeFirstOrThrow();
      const b = await db
        .insertInto('apiIntegrationSyncLogs')
        .values({ endpointId: id, status: 'running', startedAt: new Date().toISOString() })
        .returning('id')
        .executeTakeFirstOrThrow();
      const runs = await Promise.all([
        runSync(systemContext(db), settings, a.id),
        runSync(systemContext(otherDb), settings, b.id),
      ]);
      warn.mockRestore();
      expect(remote.requests).toHaveLength(1);
      const failed = runs.find((r) => r.status === 'failed')!;
      const done = runs.find((r) => r.status === 'success')!;
      expect(failed.errorMessage).toBe(
        `Another sync of this endpoint is running (#${done.id}); this one did not start`,
      );
      expect(
        await db
          .selectFrom('actualExpenses')
          .select('amountCents')
          .where('description', '=', `memo ${tag}-1`)
          .execute(),
      ).toEqual([{ amountCents: 4200 }]);
      // The lease is released: the next run goes ahead.
      remote.handler = () => ({ json: { items: [] } });
      expect(await sync(id)).toMatchObject({ status: 'success' });
    } finally {
      await second?.close();
    }
  });

  it('lists logs newest first; runs left running are failed at start', async () => {
    const id = await endpoint(await source('none'));
    const log = await db
      .insertInto('apiIntegrationSyncLogs')
      .values({ endpointId: id, status: 'running', startedAt: new Date().toISOString() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { rows, total } = await listSyncLogs(owner, { limit: '5', offset: '0' });
    expect(rows[0]).toMatchObject({
      id: log.id,
      status: 'running',
      completedAt: null,
      endpointName: expect.any(String),
      sourceName: expect.any(String),
    });
    expect(total).toBeGreaterThan(5);
    await expect(listSyncLogs(owner, { limit: '0' })).rejects.toMatchObject({ kind: 'invalid' });
    expect(await failInterruptedSyncs(db, INTERRUPTED)).toContain(log.id);
    expect(
      await db
        .selectFrom('apiIntegrationSyncLogs')
        .select(['status', 'errorMessage'])
        .where('id', '=', log.id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ status: 'failed', errorMessage: 'Interrupted by restart' });
  });
});

describe('sync schedule', () => {
  const at = (iso: string) => new Date(iso);
  it('is due by interval, by cron, never when manual', () => {
    const created = at('2026-11-01T00:00:00Z');
    expect(isDue('manual', null, created, at('2026-11-25T00:00:00Z'))).toBe(false);
    expect(isDue('hourly', null, created, at('2026-11-25T00:00:00Z'))).toBe(true);
    expect(isDue('hourly', at('2026-11-25T10:00:00Z'), created, at('2026-11-25T10:59:00Z'))).toBe(false);
    expect(isDue('hourly', at('2026-11-25T10:00:00Z'), created, at('2026-11-25T11:00:00Z'))).toBe(true);
    expect(isDue('daily', at('2026-11-24T10:00:00Z'), created, at('2026-11-25T09:00:00Z'))).toBe(false);
    expect(isDue('30 6 * * *', at('2026-11-25T06:30:00Z'), created, at('2026-11-26T06:29:00Z'))).toBe(false);
    expect(isDue('30 6 * * *', at('2026-11-25T06:30:00Z'), created, at('2026-11-26T06:31:00Z'))).toBe(true);
    expect(isDue('not a cron', null, created, at('2026-11-26T06:31:00Z'))).toBe(false);
  });
});
