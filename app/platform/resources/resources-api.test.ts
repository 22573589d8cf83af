// The finance and reference-data /api routes (docs/api.md, docs/data-model.md) over
// real HTTP on every test dialect: shapes, filters, paging headers, sorts, roles, company scope,
// validation (with the database left unchanged), 409 on referenced deletes, and the audit and
// version rows every write leaves.
//
// Not testable through the API: the canAccessFinancialData / canAccessSubscriberData gates.
// Every role's baseline includes both flags (ROLE_BASELINE) and flags only add to the baseline,
// so no user can lack them; the gates are covered by can() in the permission unit tests.
import type { Kysely } from 'kysely';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/database.ts';
import { type TestClient, useTestServer } from '../../../test/server.ts';
import { createTestUser, TEST_PASSWORD } from '../../../test/users.ts';
import { RESOURCE_LIST } from '../../features/resources.ts';
import { apiPathsOf } from '../api/resource-api.server.ts';
import type { FieldDef } from './define.ts';

type Row = Record<string, any> & { id: number };

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;
const snake = (table: string) => table.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The status, with the body in the failure message. */
async function expectStatus(response: Response, status: number) {
  if (response.status !== status) {
    expect(response.status, `${response.url}: ${await response.clone().text()}`).toBe(status);
  }
}

async function expectInvalid(response: Response, errors: { field: string; message: string | RegExp }[]) {
  await expectStatus(response, 400);
  expect(response.headers.get('Content-Type')).toContain('application/json');
  const body = await response.json();
  expect(body.message).toBe('Invalid data');
  expect(body.errors).toEqual(
    errors.map((e) => ({
      field: e.field,
      message: typeof e.message === 'string' ? e.message : expect.stringMatching(e.message),
    })),
  );
}

async function expectError(response: Response, status: number, message: string | RegExp) {
  await expectStatus(response, status);
  const body = await response.json();
  if (typeof message === 'string') expect(body).toEqual({ message });
  else expect(body.message).toMatch(message);
}

describe.each(TEST_DIALECTS)('resource API on %s', (dialect) => {
  // Hundreds of calls per user in a few seconds: far above the burst limit of 100 a minute.
  const { db, client } = useTestServer(dialect, {
    env: { API_RATE_LIMIT_PER_MINUTE: '100000', API_RATE_LIMIT_PER_HOUR: '1000000' },
  });
  const anyDb = () => db() as unknown as Kysely<any>;

  let owner: TestClient;
  let ownerId: number;
  let admin: TestClient;
  let editor: TestClient;
  let viewer: TestClient;
  /** Editor and admin limited to Vult (company scope). */
  let scopedEditor: TestClient;
  let scopedAdmin: TestClient;

  const seed = {} as {
    oneNetwork: number;
    vult: number;
    atlas: number;
    spark: number;
    finance: number;
    marketing: number;
    hr: number;
    it: number;
    /** A category of Vult and one of Spark Marketing (with their departments). */
    vultCategory: number;
    vultCategoryDept: number;
    sparkCategory: number;
    sparkCategoryDept: number;
  };

  let serial = 0;
  const tag = Math.random().toString(36).slice(2, 7);
  const unique = (prefix: string) => `${prefix} ${tag}-${++serial}`;

  async function signedIn(options: Parameters<typeof createTestUser>[1]) {
    const user = await createTestUser(db(), options);
    const c = client();
    await c.login(user.email, TEST_PASSWORD);
    return { c, id: user.id };
  }

  const idOf = async (table: 'companies' | 'departments', name: string) =>
    (await db().selectFrom(table).select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;

  async function count(table: string, ...where: [string, unknown][]): Promise<number> {
    let q = anyDb().selectFrom(table);
    for (const [column, value] of where) q = q.where(column, '=', value);
    const row = (await q.select((eb: any) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()) as { n: unknown };
    return Number(row.n);
  }

  /** Rows of a table and every audit/version row: a failed write changes none of them. */
  async function snapshot(table: string) {
    return {
      rows: await count(table),
      audit: await count('auditLogs'),
      versions: await count('dataVersions'),
      tableAudit: await count('auditLogs', ['tableName', snake(table)]),
    };
  }

  const auditFor = (table: string, id: number) =>
    db()
      .selectFrom('auditLogs')
      .selectAll()
      .where('tableName', '=', snake(table))
      .where('recordId', '=', id)
      .orderBy('id')
      .execute();
  const versionsFor = (table: string, id: number) =>
    db()
      .selectFrom('dataVersions')
      .selectAll()
      .where('tableName', '=', snake(table))
      .where('recordId', '=', id)
      .orderBy('version')
      .execute();

  async function created(c: TestClient, path: string, body: unknown): Promise<Row> {
    const response = await c.post(path, body);
    await expectStatus(response, 201);
    return response.json();
  }

  const put = (c: TestClient, path: string, body: unknown) => c.request(path, { method: 'PUT', json: body });
  const del = (c: TestClient, path: string) => c.request(path, { method: 'DELETE' });

  // Valid bodies per resource (functions: seeded ids are known only after beforeAll).
  const bodies = {
    companies: () => ({ name: unique('Company'), type: 'marketing', description: 'A test company' }),
    departments: () => ({ name: unique('Department'), description: 'A test department' }),
    'expense-categories': () => ({
      companyId: seed.spark,
      departmentId: seed.it,
      name: unique('Category'),
      description: 'Test category',
    }),
    budgets: () => ({
      departmentId: seed.sparkCategoryDept,
      categoryId: seed.sparkCategory,
      amount: 1234.56,
      period: 'monthly',
      startDate: '2026-01-01',
      endDate: '2026-01-31',
      description: unique('Budget'),
    }),
    'actual-expenses': () => ({
      departmentId: seed.sparkCategoryDept,
      categoryId: seed.sparkCategory,
      amount: 45.5,
      expenseDate: '2026-02-03',
      description: unique('Taxi'),
      vendor: 'City Cabs',
      receiptNumber: 'R-001',
    }),
    'revenue-projections': () => ({
      companyId: seed.spark,
      source: 'Retainers',
      amount: 50000,
      period: 'quarterly',
      startDate: '2026-01-01',
      endDate: '2026-03-31',
      status: 'pending',
      description: unique('Projection'),
    }),
    'actual-revenues': () => ({
      companyId: seed.spark,
      source: 'Campaign Fees',
      amount: 999.99,
      revenueDate: '2026-03-15',
      description: unique('Revenue'),
      customerReference: 'CUST-9',
    }),
    'subscriber-metrics': () => ({
      companyId: seed.oneNetwork,
      companyType: 'mobile',
      metricName: 'arpu',
      metricValue: 4.25,
      period: 'monthly',
      recordDate: '2026-01-31',
      description: unique('Metric'),
    }),
  } satisfies Record<string, () => Record<string, unknown>>;
  type Key = keyof typeof bodies;

  beforeAll(async () => {
    const o = await signedIn({ role: 'owner' });
    owner = o.c;
    ownerId = o.id;
    admin = (await signedIn({ role: 'admin' })).c;
    editor = (await signedIn({ role: 'editor' })).c;
    viewer = (await signedIn({ role: 'viewer' })).c;
    seed.oneNetwork = await idOf('companies', 'One Network');
    seed.vult = await idOf('companies', 'Vult');
    seed.atlas = await idOf('companies', 'Atlas Infrastructure');
    seed.spark = await idOf('companies', 'Spark Marketing');
    seed.finance = await idOf('departments', 'Finance');
    seed.marketing = await idOf('departments', 'Marketing');
    seed.hr = await idOf('departments', 'Human Resources');
    seed.it = await idOf('departments', 'IT');
    const category = async (companyId: number) =>
      db()
        .selectFrom('expenseCategories')
        .select(['id', 'departmentId'])
        .where('companyId', '=', companyId)
        .where('name', '=', 'Salaries & Wages')
        .executeTakeFirstOrThrow();
    const v = await category(seed.vult);
    const s = await category(seed.spark);
    Object.assign(seed, {
      vultCategory: v.id,
      vultCategoryDept: v.departmentId,
      sparkCategory: s.id,
      sparkCategoryDept: s.departmentId,
    });
    scopedEditor = (await signedIn({ role: 'editor', companyId: seed.vult })).c;
    scopedAdmin = (await signedIn({ role: 'admin', companyId: seed.vult })).c;
  });

  // Builds without configurable limits count in rate_limit_counters: start each test afresh.
  beforeEach(async () => {
    await db().deleteFrom('rateLimitCounters').execute();
  });

  describe('routing and authentication', () => {
    it('unauthenticated calls are 401 { message: "Not authenticated" } on every route', async () => {
      const anonymous = client();
      for (const key of Object.keys(bodies)) {
        for (const [method, path] of [
          ['GET', `/api/${key}`],
          ['POST', `/api/${key}`],
          ['GET', `/api/${key}/1`],
          ['PUT', `/api/${key}/1`],
          ['DELETE', `/api/${key}/1`],
        ]) {
          const response = await anonymous.request(path, { method, ...(method === 'GET' ? {} : { json: {} }) });
          expect(response.status, `${method} ${path}`).toBe(401);
          expect(await response.json()).toEqual({ message: 'Not authenticated' });
        }
      }
    });

    it('an unknown resource is a 404 JSON, signed in or not', async () => {
      for (const c of [client(), owner]) {
        for (const [method, path] of [
          ['GET', '/api/nope'],
          ['POST', '/api/nope'],
          ['GET', '/api/nope/1'],
          ['PUT', '/api/nope/1'],
          ['DELETE', '/api/nope/1'],
        ]) {
          const response = await c.request(path, { method, ...(method === 'GET' ? {} : { json: {} }) });
          expect(response.status, `${method} ${path}`).toBe(404);
          expect(response.headers.get('Content-Type')).toContain('application/json');
          expect(await response.json()).toEqual({ message: 'Resource not found' });
        }
      }
    });

    it('ids that are not positive integers, and missing rows, are 404', async () => {
      for (const path of [
        '/api/budgets/abc',
        '/api/budgets/0',
        '/api/budgets/-1',
        '/api/budgets/1.5',
        '/api/budgets/99999999',
        '/api/companies/99999999',
      ]) {
        await expectError(await owner.get(path), 404, 'Resource not found');
      }
      await expectError(await put(owner, '/api/departments/99999999', { name: 'x' }), 404, 'Resource not found');
      await expectError(await del(owner, '/api/departments/99999999'), 404, 'Resource not found');
    });

    it('a method a route does not have is a 405 naming the allowed ones', async () => {
      const collection = await owner.request('/api/budgets', { method: 'PUT', json: {} });
      expect(collection.status).toBe(405);
      expect(collection.headers.get('Allow')).toBe('GET, POST');
      const item = await owner.request('/api/budgets/1', { method: 'PATCH', json: {} });
      expect(item.status).toBe(405);
      expect(item.headers.get('Allow')).toBe('GET, PUT, DELETE');
    });
  });

  describe('contract of every route', () => {
    const cases: { key: Key; table: string; patch: Record<string, unknown>; changed: string[]; keys: string[] }[] = [
      {
        key: 'companies',
        table: 'companies',
        patch: { description: 'Changed' },
        changed: ['description'],
        keys: ['id', 'name', 'type', 'description', 'createdAt', 'updatedAt'],
      },
      {
        key: 'departments',
        table: 'departments',
        patch: { description: 'Changed' },
        changed: ['description'],
        keys: ['id', 'name', 'description', 'createdAt', 'updatedAt'],
      },
      {
        key: 'expense-categories',
        table: 'expenseCategories',
        patch: { description: 'Changed' },
        changed: ['description'],
        keys: [
          'id',
          'companyId',
          'departmentId',
          'name',
          'description',
          'departmentName',
          'companyName',
          'createdAt',
          'updatedAt',
        ],
      },
      {
        key: 'budgets',
        table: 'budgets',
        patch: { amount: 99.99 },
        changed: ['amountCents'],
        keys: [
          'id',
          'companyId',
          'departmentId',
          'categoryId',
          'amount',
          'period',
          'startDate',
          'endDate',
          'status',
          'description',
          'departmentName',
          'categoryName',
          'companyName',
          'companyType',
          'createdBy',
          'createdAt',
          'updatedAt',
        ],
      },
      {
        key: 'actual-expenses',
        table: 'actualExpenses',
        patch: { vendor: null, amount: 50 },
        changed: ['vendor', 'amountCents'],
        keys: [
          'id',
          'companyId',
          'departmentId',
          'categoryId',
          'amount',
          'expenseDate',
          'description',
          'vendor',
          'receiptNumber',
          'departmentName',
          'categoryName',
          'companyName',
          'companyType',
          'createdBy',
          'createdAt',
          'updatedAt',
        ],
      },
      {
        key: 'revenue-projections',
        table: 'revenueProjections',
        patch: { status: 'expired' },
        changed: ['status'],
        keys: [
          'id',
          'companyId',
          'source',
          'amount',
          'period',
          'startDate',
          'endDate',
          'status',
          'description',
          'companyName',
          'companyType',
          'createdBy',
          'createdAt',
          'updatedAt',
        ],
      },
      {
        key: 'actual-revenues',
        table: 'actualRevenue',
        patch: { customerReference: 'CUST-10' },
        changed: ['customerReference'],
        keys: [
          'id',
          'companyId',
          'source',
          'amount',
          'revenueDate',
          'description',
          'customerReference',
          'companyName',
          'companyType',
          'createdBy',
          'createdAt',
          'updatedAt',
        ],
      },
      {
        key: 'subscriber-metrics',
        table: 'subscriberMetrics',
        patch: { metricValue: 5.5 },
        changed: ['metricValueHundredths'],
        keys: [
          'id',
          'companyId',
          'companyType',
          'metricName',
          'metricValue',
          'period',
          'recordDate',
          'description',
          'companyName',
          'createdBy',
          'createdAt',
          'updatedAt',
        ],
      },
    ];

    it.each(cases)(
      '$key: POST 201 → GET → list → PUT (partial) → DELETE 204 → 404, each with audit and version rows',
      async ({ key, table, patch, changed, keys }) => {
        const path = `/api/${key}`;
        const before = await snapshot(table);
        const input = bodies[key]();

        // POST
        const response = await owner.post(path, input, { headers: { 'X-Change-Reason': 'contract test' } });
        await expectStatus(response, 201);
        expect(response.headers.get('Content-Type')).toContain('application/json');
        const row: Row = await response.json();
        expect(Object.keys(row).sort()).toEqual([...keys].sort());
        expect(row).toMatchObject(input);
        expect(row.id).toEqual(expect.any(Number));
        expect(row.createdAt).toMatch(ISO_INSTANT);
        expect(row.updatedAt).toMatch(ISO_INSTANT);
        if ('createdBy' in row) expect(row.createdBy).toBe(ownerId);
        expect(await snapshot(table)).toEqual({
          rows: before.rows + 1,
          audit: before.audit + 1,
          versions: before.versions + 1,
          tableAudit: before.tableAudit + 1,
        });
        let audit = await auditFor(table, row.id);
        expect(audit).toHaveLength(1);
        expect(audit[0]).toMatchObject({ action: 'create', userId: ownerId, reason: 'contract test', oldData: null });
        expect(audit[0].newData).toMatchObject({ id: row.id });
        expect(audit[0].userAgent).toBeTruthy();

        // GET one, and in the list
        const one = await owner.get(`${path}/${row.id}`);
        await expectStatus(one, 200);
        expect(await one.json()).toEqual(row);
        const list = await owner.get(path);
        await expectStatus(list, 200);
        const rows: Row[] = await list.json();
        expect(Array.isArray(rows)).toBe(true);
        expect(rows.find((r) => r.id === row.id)).toEqual(row);
        expect(Number(list.headers.get('X-Total-Count'))).toBe(before.rows + 1);
        expect(list.headers.get('Link')).toBeNull();

        // PUT with part of the record: the rest is kept
        const updated = await put(owner, `${path}/${row.id}`, patch);
        await expectStatus(updated, 200);
        const after: Row = await updated.json();
        expect(after).toEqual({ ...row, ...patch, updatedAt: after.updatedAt });
        expect(after.updatedAt >= row.updatedAt).toBe(true);
        audit = await auditFor(table, row.id);
        expect(audit.map((a) => a.action)).toEqual(['create', 'update']);
        expect(Object.keys(audit[1].changes ?? {}).sort()).toEqual([...changed].sort());
        expect(audit[1].oldData).toMatchObject({ id: row.id });
        expect(audit[1].newData).toMatchObject({ id: row.id });
        let versions = await versionsFor(table, row.id);
        expect(versions.map((v) => [v.version, v.action, v.isActive])).toEqual([
          [1, 'create', false],
          [2, 'update', true],
        ]);

        // DELETE
        const deleted = await del(owner, `${path}/${row.id}`);
        await expectStatus(deleted, 204);
        expect(await deleted.text()).toBe('');
        audit = await auditFor(table, row.id);
        expect(audit.map((a) => a.action)).toEqual(['create', 'update', 'delete']);
        expect(audit[2].oldData).toMatchObject({ id: row.id });
        expect(audit[2].newData).toBeNull();
        versions = await versionsFor(table, row.id);
        expect(versions.map((v) => v.version)).toEqual([1, 2, 3]);
        expect(versions.filter((v) => v.isActive)).toHaveLength(1);
        expect(versions[2]).toMatchObject({ action: 'delete', isActive: true });

        for (const gone of [
          await owner.get(`${path}/${row.id}`),
          await put(owner, `${path}/${row.id}`, patch),
          await del(owner, `${path}/${row.id}`),
        ]) {
          await expectError(gone, 404, 'Resource not found');
        }
        expect(await snapshot(table)).toEqual({
          rows: before.rows,
          audit: before.audit + 3,
          versions: before.versions + 3,
          tableAudit: before.tableAudit + 3,
        });
      },
    );

    it('finance rows join department, category and company names; money and metric values are decimals stored as integers', async () => {
      const budget = await created(owner, '/api/budgets', { ...bodies.budgets(), amount: 1234.56 });
      expect(budget).toMatchObject({
        amount: 1234.56,
        companyId: seed.spark,
        companyName: 'Spark Marketing',
        companyType: 'marketing',
        categoryName: 'Salaries & Wages',
        departmentName: 'Human Resources',
        status: 'active',
      });
      expect(budget).not.toHaveProperty('amountCents');
      const stored = await db()
        .selectFrom('budgets')
        .select(['amountCents', 'companyId'])
        .where('id', '=', budget.id)
        .executeTakeFirstOrThrow();
      expect(Number(stored.amountCents)).toBe(123456);
      expect(stored.companyId).toBe(seed.spark); // the category's company

      const metric = await created(owner, '/api/subscriber-metrics', {
        ...bodies['subscriber-metrics'](),
        metricValue: 1234567.89,
      });
      expect(metric).toMatchObject({ metricValue: 1234567.89, companyName: 'One Network' });
      const m = await db()
        .selectFrom('subscriberMetrics')
        .select('metricValueHundredths')
        .where('id', '=', metric.id)
        .executeTakeFirstOrThrow();
      expect(Number(m.metricValueHundredths)).toBe(123456789);

      const largest = await created(owner, '/api/actual-revenues', {
        ...bodies['actual-revenues'](),
        amount: 9999999999.99,
      });
      expect(largest.amount).toBe(9999999999.99);
      const smallest = await created(owner, '/api/actual-revenues', { ...bodies['actual-revenues'](), amount: 0.01 });
      expect(smallest.amount).toBe(0.01);

      const expense = await created(owner, '/api/actual-expenses', {
        ...bodies['actual-expenses'](),
        vendor: '',
        receiptNumber: undefined,
      });
      expect(expense).toMatchObject({
        vendor: null,
        receiptNumber: null,
        departmentName: 'Human Resources',
        categoryName: 'Salaries & Wages',
      });
    });

    // n × 100 is not whole in floating point for many 12-digit amounts (1234567890.12).
    it('a valid two-decimal amount near the 12-digit limit is accepted', async () => {
      await created(owner, '/api/actual-revenues', { ...bodies['actual-revenues'](), amount: 1234567890.12 });
    });
  });

  describe('roles', () => {
    const keys = Object.keys(bodies) as Key[];
    const reference = new Set<Key>(['companies', 'departments']);

    it.each(keys)('%s: viewers read; every write is 403 Forbidden and changes nothing', async (key) => {
      const row = await created(owner, `/api/${key}`, bodies[key]());
      const table = {
        companies: 'companies',
        departments: 'departments',
        'expense-categories': 'expenseCategories',
        budgets: 'budgets',
        'actual-expenses': 'actualExpenses',
        'revenue-projections': 'revenueProjections',
        'actual-revenues': 'actualRevenue',
        'subscriber-metrics': 'subscriberMetrics',
      }[key];
      await expectStatus(await viewer.get(`/api/${key}`), 200);
      await expectStatus(await viewer.get(`/api/${key}/${row.id}`), 200);
      const before = await snapshot(table);
      await expectError(await viewer.post(`/api/${key}`, bodies[key]()), 403, 'Forbidden');
      await expectError(await put(viewer, `/api/${key}/${row.id}`, { description: 'viewer' }), 403, 'Forbidden');
      await expectError(await del(viewer, `/api/${key}/${row.id}`), 403, 'Forbidden');
      // Editors: finance writes but no deletes; reference data is owner/admin only.
      if (reference.has(key)) {
        await expectError(await editor.post(`/api/${key}`, bodies[key]()), 403, 'Forbidden');
        await expectError(await put(editor, `/api/${key}/${row.id}`, { description: 'editor' }), 403, 'Forbidden');
      }
      await expectError(await del(editor, `/api/${key}/${row.id}`), 403, 'Forbidden');
      expect(await snapshot(table)).toEqual(before);
      if (!reference.has(key)) {
        const mine = await created(editor, `/api/${key}`, bodies[key]());
        await expectStatus(await put(editor, `/api/${key}/${mine.id}`, { description: 'edited by an editor' }), 200);
        await expectStatus(await put(editor, `/api/${key}/${row.id}`, { description: 'edited by an editor' }), 200);
        await expectError(await del(editor, `/api/${key}/${mine.id}`), 403, 'Forbidden');
        await expectStatus(await del(admin, `/api/${key}/${mine.id}`), 204);
      }
      // Admins: everything.
      const adminRow = await created(admin, `/api/${key}`, bodies[key]());
      await expectStatus(await put(admin, `/api/${key}/${adminRow.id}`, { description: 'edited by an admin' }), 200);
      await expectStatus(await del(admin, `/api/${key}/${adminRow.id}`), 204);
      await expectStatus(await del(owner, `/api/${key}/${row.id}`), 204);
    });
  });

  describe('filters, paging and sorting', () => {
    it('X-Total-Count matches the database for each documented filter', async () => {
      const total = async (path: string) => {
        const response = await owner.get(path);
        await expectStatus(response, 200);
        const rows: Row[] = await response.json();
        const n = Number(response.headers.get('X-Total-Count'));
        expect(rows).toHaveLength(n);
        return { rows, n };
      };
      // companies: type / companyType / company / companyId
      const mobile = await total('/api/companies?type=mobile');
      expect(mobile.n).toBe(await count('companies', ['type', 'mobile']));
      expect(mobile.rows.every((r) => r.type === 'mobile')).toBe(true);
      expect((await total('/api/companies?companyType=fintech')).rows.every((r) => r.type === 'fintech')).toBe(true);
      expect((await total('/api/companies?company=Vult')).rows.map((r) => r.id)).toEqual([seed.vult]);
      expect((await total(`/api/companies?companyId=${seed.atlas}`)).rows.map((r) => r.name)).toEqual([
        'Atlas Infrastructure',
      ]);

      // expense categories: companyId, company, departmentId
      const vult = await total(`/api/expense-categories?companyId=${seed.vult}`);
      expect(vult.n).toBe(await count('expenseCategories', ['companyId', seed.vult]));
      expect(vult.rows.every((r) => r.companyName === 'Vult')).toBe(true);
      expect((await total('/api/expense-categories?company=Vult')).n).toBe(vult.n);
      const compliance = await idOf('departments', 'Compliance');
      const byDept = await total(`/api/expense-categories?companyId=${seed.vult}&departmentId=${compliance}`);
      expect(byDept.n).toBe(await count('expenseCategories', ['companyId', seed.vult], ['departmentId', compliance]));
      expect(byDept.n).toBeGreaterThan(0);
      expect(byDept.rows.every((r) => r.departmentName === 'Compliance')).toBe(true);
      expect((await total('/api/expense-categories?departmentId=x')).n).toBe(0);

      // departments are shared: the company filters do not apply to them
      const departments = await total('/api/departments');
      expect(departments.n).toBe(await count('departments'));
      expect((await total('/api/departments?q=network%20oper')).rows.map((r) => r.name)).toEqual([
        'Network Operations',
      ]);
    });

    it('departments ignore company filters instead of failing', async () => {
      // companyId on a table without company_id (departments are shared reference data).
      for (const query of [`companyId=${seed.vult}`, 'company=Vult', 'companyType=fintech', 'source=Roaming']) {
        const response = await owner.get(`/api/departments?${query}`);
        await expectStatus(response, 200);
        expect(Number(response.headers.get('X-Total-Count')), query).toBe(await count('departments'));
      }
    });

    describe('finance lists', () => {
      let company: number;
      let companyName: string;
      let category: number;
      let categoryDept: number;
      let hrCategory: number;
      const budgetIds: number[] = [];

      beforeAll(async () => {
        companyName = unique('Filter Co');
        company = (await created(owner, '/api/companies', { name: companyName, type: 'infrastructure' })).id;
        categoryDept = seed.finance;
        category = (
          await created(owner, '/api/expense-categories', {
            companyId: company,
            departmentId: categoryDept,
            name: 'Power',
          })
        ).id;
        const other = (
          await created(owner, '/api/expense-categories', { companyId: company, departmentId: seed.hr, name: 'People' })
        ).id;
        hrCategory = other;
        for (const [i, amount] of [300, 100, 200, 100, 300].entries()) {
          budgetIds.push(
            (
              await created(owner, '/api/budgets', {
                departmentId: i === 4 ? seed.hr : categoryDept,
                categoryId: i === 4 ? other : category,
                amount,
                period: 'annual',
                startDate: `2026-0${i + 1}-01`,
                endDate: '2026-12-31',
                description: i === 2 ? 'Grid upgrade 50%' : null,
              })
            ).id,
          );
        }
        for (const [i, source] of [
          'Tower Leasing',
          'Fibre Leasing',
          'Tower Leasing',
          'Colocation',
          'Tower Leasing',
        ].entries()) {
          await created(owner, '/api/actual-revenues', {
            companyId: company,
            source,
            amount: 10 * (i + 1),
            revenueDate: `2026-01-0${i + 1}`,
          });
          await created(owner, '/api/revenue-projections', {
            companyId: company,
            source,
            amount: 10 * (i + 1),
            period: 'monthly',
            startDate: `2026-01-0${i + 1}`,
            endDate: '2026-01-31',
          });
        }
      });

      const get = async (path: string) => {
        const response = await owner.get(path);
        await expectStatus(response, 200);
        return {
          rows: (await response.json()) as Row[],
          total: Number(response.headers.get('X-Total-Count')),
          link: response.headers.get('Link'),
        };
      };

      it('budgets filter by companyId, company name, companyType, departmentId and q', async () => {
        const all = await get(`/api/budgets?companyId=${company}`);
        expect(all.total).toBe(5);
        expect(all.rows.map((r) => r.id).sort((a, b) => a - b)).toEqual([...budgetIds].sort((a, b) => a - b));
        expect((await get(`/api/budgets?company=${encodeURIComponent(companyName)}`)).total).toBe(5);
        expect((await get(`/api/budgets?company=${encodeURIComponent(companyName.toUpperCase())}`)).total).toBe(0); // exact name
        const infrastructure = await get('/api/budgets?companyType=infrastructure');
        expect(infrastructure.rows.every((r) => r.companyType === 'infrastructure')).toBe(true);
        expect(infrastructure.total).toBeGreaterThanOrEqual(5);
        expect((await get(`/api/budgets?companyId=${company}&companyType=mobile`)).total).toBe(0);
        const byDept = await get(`/api/budgets?companyId=${company}&departmentId=${seed.hr}`);
        expect(byDept.rows.map((r) => r.id)).toEqual([budgetIds[4]]);
        expect(byDept.rows[0]).toMatchObject({
          departmentName: 'Human Resources',
          categoryName: 'People',
          companyName,
        });
        expect((await get(`/api/budgets?companyId=${company}&q=PEOPLE`)).total).toBe(1); // category name
        expect((await get(`/api/budgets?companyId=${company}&q=50%25`)).rows.map((r) => r.id)).toEqual([budgetIds[2]]);
        expect((await get(`/api/budgets?companyId=${company}&search=grid`)).total).toBe(1);
        expect((await get(`/api/budgets?q=${encodeURIComponent(companyName)}`)).total).toBe(5); // company name
      });

      it('revenue lists filter by source; expenses by department', async () => {
        for (const key of ['actual-revenues', 'revenue-projections']) {
          const tower = await get(`/api/${key}?companyId=${company}&source=Tower%20Leasing`);
          expect(tower.total, key).toBe(3);
          expect(tower.rows.every((r) => r.source === 'Tower Leasing' && r.companyName === companyName)).toBe(true);
          expect((await get(`/api/${key}?companyId=${company}&source=tower%20leasing`)).total).toBe(0);
          expect((await get(`/api/${key}?company=${encodeURIComponent(companyName)}&q=fibre`)).total).toBe(1);
        }
        const expense = await created(owner, '/api/actual-expenses', {
          departmentId: seed.hr,
          categoryId: hrCategory,
          amount: 12,
          expenseDate: '2026-01-10',
          description: 'Filtered expense',
        });
        expect(expense).toMatchObject({
          companyId: company,
          departmentName: 'Human Resources',
          categoryName: 'People',
        });
        expect(
          (await get(`/api/actual-expenses?companyId=${company}&departmentId=${seed.hr}`)).rows.map((r) => r.id),
        ).toEqual([expense.id]);
        expect((await get(`/api/actual-expenses?companyId=${company}&departmentId=${seed.finance}`)).total).toBe(0);
      });

      it('subscriber metrics filter by companyType and metricName', async () => {
        const mobile = await created(owner, '/api/subscriber-metrics', {
          ...bodies['subscriber-metrics'](),
          metricName: 'sms_count',
          metricValue: 77,
        });
        const fintech = await created(owner, '/api/subscriber-metrics', {
          companyId: seed.vult,
          companyType: 'fintech',
          metricName: 'aum',
          metricValue: 1e6,
          period: 'annual',
          recordDate: '2026-12-31',
        });
        const mobiles = await get('/api/subscriber-metrics?companyType=mobile');
        expect(mobiles.rows.every((r) => r.companyType === 'mobile')).toBe(true);
        expect(mobiles.rows.map((r) => r.id)).toContain(mobile.id);
        expect(mobiles.rows.map((r) => r.id)).not.toContain(fintech.id);
        expect(mobiles.total).toBe(await count('subscriberMetrics', ['companyType', 'mobile']));
        const aum = await get('/api/subscriber-metrics?companyType=fintech&metricName=aum');
        expect(aum.rows.map((r) => r.id)).toContain(fintech.id);
        expect(aum.rows.every((r) => r.metricName === 'aum')).toBe(true);
        expect((await get('/api/subscriber-metrics?companyType=mobile&metricName=aum')).total).toBe(0);
      });

      it('limit/offset page through with X-Total-Count and Link rel="next" until the end', async () => {
        const full = await get(`/api/actual-revenues?companyId=${company}`);
        expect(full.total).toBe(5);
        expect(full.link).toBeNull();
        const pages: Row[] = [];
        let path: string | null = `/api/actual-revenues?companyId=${company}&limit=2`;
        const links: (string | null)[] = [];
        while (path) {
          const page = await get(path);
          expect(page.total).toBe(5);
          expect(page.rows.length).toBeLessThanOrEqual(2);
          pages.push(...page.rows);
          links.push(page.link);
          path = page.link ? /^<([^>]+)>; rel="next"$/.exec(page.link)![1] : null;
        }
        expect(links).toEqual([
          `</api/actual-revenues?companyId=${company}&limit=2&offset=2>; rel="next"`,
          `</api/actual-revenues?companyId=${company}&limit=2&offset=4>; rel="next"`,
          null,
        ]);
        expect(pages.map((r) => r.id)).toEqual(full.rows.map((r) => r.id));
        // At and beyond the end: [] with the total, no Link.
        for (const offset of [5, 6, 1000]) {
          const beyond = await get(`/api/actual-revenues?companyId=${company}&offset=${offset}`);
          expect(beyond).toEqual({ rows: [], total: 5, link: null });
        }
        const last = await get(`/api/actual-revenues?companyId=${company}&offset=4&limit=1000`);
        expect(last.rows).toHaveLength(1);
        expect(last.link).toBeNull();
        const exact = await get(`/api/actual-revenues?companyId=${company}&limit=5`);
        expect(exact.rows).toHaveLength(5);
        expect(exact.link).toBeNull();
      });

      it('invalid list parameters are 400 with field errors', async () => {
        for (const [query, field] of [
          ['limit=0', 'limit'],
          ['limit=1001', 'limit'],
          ['limit=abc', 'limit'],
          ['offset=-1', 'offset'],
          ['offset=x', 'offset'],
          ['sortOrder=up', 'sortOrder'],
          ['sortBy=unknown', 'sortBy'],
          ['sortBy=amountCents', 'sortBy'],
          ['companyId=abc', 'companyId'],
        ]) {
          const response = await owner.get(`/api/actual-revenues?${query}`);
          await expectInvalid(response, [{ field, message: new RegExp(`^${field} must be`) }]);
        }
        await expectInvalid(await owner.get('/api/departments?sortBy=amount'), [
          { field: 'sortBy', message: 'sortBy must be one of: name, createdAt' },
        ]);
      });

      it("sortBy/sortOrder sort with the id as tie-break; the default is the declaration's", async () => {
        const order = async (query: string) =>
          (await get(`/api/budgets?companyId=${company}&${query}`)).rows.map((r) => [r.amount, r.id]);
        const byAmount = [...(await get(`/api/budgets?companyId=${company}`)).rows].map(
          (r) => [r.amount, r.id] as [number, number],
        );
        const asc = [...byAmount].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
        expect(await order('sortBy=amount&sortOrder=asc')).toEqual(asc);
        expect(await order('sortBy=amount')).toEqual(asc);
        expect(await order('sortBy=amount&sortOrder=desc')).toEqual([...asc].reverse());
        // Paged sort keeps the same order.
        const paged = [
          ...(await order('sortBy=amount&sortOrder=desc&limit=2')),
          ...(await order('sortBy=amount&sortOrder=desc&limit=2&offset=2')),
          ...(await order('sortBy=amount&sortOrder=desc&limit=2&offset=4')),
        ];
        expect(paged).toEqual([...asc].reverse());
        // Default: start date, newest first.
        const starts = (await get(`/api/budgets?companyId=${company}`)).rows.map((r) => r.startDate);
        expect(starts).toEqual([...starts].sort().reverse());
        expect(
          (await get(`/api/budgets?companyId=${company}&sortBy=startDate&sortOrder=asc`)).rows.map((r) => r.startDate),
        ).toEqual([...starts].sort());
      });
    });
  });

  describe('validation: 400 with field errors and nothing written', () => {
    async function rejects(
      path: string,
      body: unknown,
      errors: { field: string; message: string | RegExp }[],
      table: string,
      method = 'POST',
    ) {
      const before = await snapshot(table);
      const response = method === 'POST' ? await owner.post(path, body) : await put(owner, path, body);
      await expectInvalid(response, errors);
      expect(await snapshot(table), `${method} ${path} ${JSON.stringify(body)}`).toEqual(before);
    }

    it('malformed JSON and non-object bodies', async () => {
      for (const [path, table] of [
        ['/api/budgets', 'budgets'],
        ['/api/departments', 'departments'],
      ]) {
        const before = await snapshot(table);
        for (const text of ['nope{', '{"amount": 1,}', '{', "{'a':1}"]) {
          const response = await owner.request(path, {
            method: 'POST',
            body: text,
            headers: { 'Content-Type': 'application/json' },
          });
          await expectInvalid(response, [{ field: 'body', message: 'Malformed JSON' }]);
        }
        for (const body of [[], 'text', 5, null])
          await rejects(path, body, [{ field: 'body', message: 'Expected a JSON object' }], table);
        expect(await snapshot(table)).toEqual(before);
      }
      const budget = await created(owner, '/api/budgets', bodies.budgets());
      const response = await owner.request(`/api/budgets/${budget.id}`, {
        method: 'PUT',
        body: '{oops',
        headers: { 'Content-Type': 'application/json' },
      });
      await expectInvalid(response, [{ field: 'body', message: 'Malformed JSON' }]);
      await rejects(
        `/api/budgets/${budget.id}`,
        [1],
        [{ field: 'body', message: 'Expected a JSON object' }],
        'budgets',
        'PUT',
      );
    });

    it('budgets: the documented messages and the whole-record rules', async () => {
      const base = bodies.budgets();
      const path = '/api/budgets';
      const cases: [Record<string, unknown>, { field: string; message: string }[]][] = [
        [{ departmentId: undefined }, [{ field: 'departmentId', message: 'Department is required' }]],
        [{ categoryId: undefined }, [{ field: 'categoryId', message: 'Category is required' }]],
        [{ departmentId: 'x' }, [{ field: 'departmentId', message: 'Department is required' }]],
        [{ categoryId: '' }, [{ field: 'categoryId', message: 'Category is required' }]],
        [{ departmentId: 0 }, [{ field: 'departmentId', message: 'Department is required' }]],
        [{ categoryId: 1.5 }, [{ field: 'categoryId', message: 'Category is required' }]],
        [{ departmentId: 99999999 }, [{ field: 'departmentId', message: 'Department not found' }]],
        [{ categoryId: 99999999 }, [{ field: 'categoryId', message: 'Category not found' }]],
        [{ amount: 'abc' }, [{ field: 'amount', message: 'Amount must be a positive number' }]],
        [{ amount: '12.50' }, [{ field: 'amount', message: 'Amount must be a positive number' }]],
        [{ amount: undefined }, [{ field: 'amount', message: 'Amount is required' }]],
        [{ amount: null }, [{ field: 'amount', message: 'Amount is required' }]],
        [{ amount: -5 }, [{ field: 'amount', message: 'Amount must be a positive number' }]],
        [{ amount: 0 }, [{ field: 'amount', message: 'Amount must be a positive number' }]],
        [{ amount: 1.234 }, [{ field: 'amount', message: 'Amount can have at most 2 decimals' }]],
        [{ amount: 10000000000 }, [{ field: 'amount', message: 'Amount must have at most 12 digits' }]],
        [{ amount: 1234567890123 }, [{ field: 'amount', message: 'Amount must have at most 12 digits' }]],
        [
          { startDate: '2025-02-30' },
          [{ field: 'startDate', message: 'Start Date must be a valid date (YYYY-MM-DD)' }],
        ],
        [
          { startDate: '2026-1-5', endDate: '2026-13-01' },
          [
            { field: 'startDate', message: 'Start Date must be a valid date (YYYY-MM-DD)' },
            { field: 'endDate', message: 'End Date must be a valid date (YYYY-MM-DD)' },
          ],
        ],
        [{ startDate: undefined }, [{ field: 'startDate', message: 'Start Date is required' }]],
        [
          { startDate: '2026-02-01', endDate: '2026-01-31' },
          [{ field: 'endDate', message: 'End date must be on or after the start date' }],
        ],
        [{ period: 'weekly' }, [{ field: 'period', message: 'Period must be one of: monthly, quarterly, annual' }]],
        [{ status: 'done' }, [{ field: 'status', message: 'Status must be one of: active, pending, expired' }]],
        [
          { description: 'x'.repeat(1001) },
          [{ field: 'description', message: 'Description must be at most 1000 characters' }],
        ],
        [{ description: 42 }, [{ field: 'description', message: 'Description must be text' }]],
      ];
      for (const [change, errors] of cases) await rejects(path, { ...base, ...change }, errors, 'budgets');
      // The same date on both ends is fine; a missing status defaults to active.
      const ok = await created(owner, path, {
        ...base,
        startDate: '2026-02-28',
        endDate: '2026-02-28',
        status: undefined,
      });
      expect(ok.status).toBe('active');
    });

    it('an empty body lists every missing required field', async () => {
      const response = await owner.post('/api/budgets', {});
      await expectStatus(response, 400);
      const { errors } = await response.json();
      expect(errors).toEqual(
        expect.arrayContaining([
          { field: 'departmentId', message: 'Department is required' },
          { field: 'categoryId', message: 'Category is required' },
          { field: 'amount', message: 'Amount is required' },
          { field: 'startDate', message: 'Start Date is required' },
          { field: 'endDate', message: 'End Date is required' },
        ]),
      );
    });

    it('every resource: a create leaving out a required field (or sending it null or empty) answers that it is required', async () => {
      // Read from the declarations alone: a field a create must carry is one with no default
      // and not declared optional (optional texts and amounts, nullable references, flags).
      const mustBeSent = (field: FieldDef) => {
        switch (field.kind) {
          case 'text':
          case 'textarea':
            return field.required === true;
          case 'money':
            return field.required !== false;
          case 'enum':
            return field.required !== false && field.defaultValue === undefined;
          case 'boolean':
            return false;
          case 'reference':
            return !field.nullable;
          default:
            return true;
        }
      };
      for (const def of RESOURCE_LIST.filter((d) => !d.readOnly)) {
        const path = `/api/${apiPathsOf(def).find((p) => !p.latest)!.path}`;
        const required = def.fields.filter(mustBeSent);
        expect(required.length, def.key).toBeGreaterThan(0);
        const errors = required.map((f) => ({ field: f.name, message: f.requiredMessage ?? `${f.label} is required` }));
        for (const missing of [undefined, null, '']) {
          const body = Object.fromEntries(required.map((f) => [f.name, missing]));
          await rejects(path, body, errors, def.table);
        }
      }
      // The fields the specification names, in its words.
      const endpoint = await owner.post('/api/api-integration-endpoints', { name: null });
      expect((await endpoint.json()).errors).toEqual(
        expect.arrayContaining([
          { field: 'name', message: 'Name is required' },
          { field: 'endpoint', message: 'Endpoint is required' },
          { field: 'targetTable', message: 'Target table is required' },
        ]),
      );
    });

    it('PUT merges with the stored row and re-runs the whole-record rules', async () => {
      const budget = await created(owner, '/api/budgets', bodies.budgets()); // 2026-01-01 … 2026-01-31
      const path = `/api/budgets/${budget.id}`;
      await rejects(
        path,
        { endDate: '2025-12-31' },
        [{ field: 'endDate', message: 'End date must be on or after the start date' }],
        'budgets',
        'PUT',
      );
      await rejects(
        path,
        { startDate: '2026-02-01' },
        [{ field: 'endDate', message: 'End date must be on or after the start date' }],
        'budgets',
        'PUT',
      );
      await rejects(
        path,
        { amount: 'abc' },
        [{ field: 'amount', message: 'Amount must be a positive number' }],
        'budgets',
        'PUT',
      );
      await rejects(
        path,
        { departmentId: null },
        [{ field: 'departmentId', message: 'Department is required' }],
        'budgets',
        'PUT',
      );
      await rejects(
        path,
        { categoryId: 99999999 },
        [{ field: 'categoryId', message: 'Category not found' }],
        'budgets',
        'PUT',
      );
      await rejects(
        path,
        { startDate: '2026-02-30' },
        [{ field: 'startDate', message: 'Start Date must be a valid date (YYYY-MM-DD)' }],
        'budgets',
        'PUT',
      );
      expect(await (await owner.get(path)).json()).toEqual(budget);
      // Both dates together pass; an empty body changes nothing but is still a valid update.
      const moved = await put(owner, path, { startDate: '2026-02-01', endDate: '2026-02-28' });
      await expectStatus(moved, 200);
      expect(await moved.json()).toMatchObject({
        ...budget,
        startDate: '2026-02-01',
        endDate: '2026-02-28',
        updatedAt: expect.any(String),
      });
      await expectStatus(await put(owner, path, {}), 200);
      // Moving to another company's category moves the row to that company.
      const vultMove = await put(owner, path, { categoryId: seed.vultCategory, departmentId: seed.vultCategoryDept });
      await expectStatus(vultMove, 200);
      expect(await vultMove.json()).toMatchObject({ companyId: seed.vult, companyName: 'Vult' });
    });

    it('other resources: required fields, enums, texts and the metric rules', async () => {
      await rejects(
        '/api/actual-expenses',
        { ...bodies['actual-expenses'](), description: '  ' },
        [{ field: 'description', message: 'Description is required' }],
        'actualExpenses',
      );
      await rejects(
        '/api/actual-expenses',
        { ...bodies['actual-expenses'](), description: undefined },
        [{ field: 'description', message: 'Description is required' }],
        'actualExpenses',
      );
      await rejects(
        '/api/actual-expenses',
        { ...bodies['actual-expenses'](), expenseDate: '2026-02-29' },
        [{ field: 'expenseDate', message: 'Expense Date must be a valid date (YYYY-MM-DD)' }],
        'actualExpenses',
      );
      await rejects(
        '/api/actual-expenses',
        { ...bodies['actual-expenses'](), receiptNumber: 'R'.repeat(101) },
        [{ field: 'receiptNumber', message: 'Receipt Number must be at most 100 characters' }],
        'actualExpenses',
      );
      await rejects(
        '/api/revenue-projections',
        { ...bodies['revenue-projections'](), companyId: undefined },
        [{ field: 'companyId', message: 'Company is required' }],
        'revenueProjections',
      );
      await rejects(
        '/api/revenue-projections',
        { ...bodies['revenue-projections'](), companyId: 99999999 },
        [{ field: 'companyId', message: 'Company not found' }],
        'revenueProjections',
      );
      await rejects(
        '/api/revenue-projections',
        { ...bodies['revenue-projections'](), endDate: '2025-12-31' },
        [{ field: 'endDate', message: 'End date must be on or after the start date' }],
        'revenueProjections',
      );
      await rejects(
        '/api/actual-revenues',
        { ...bodies['actual-revenues'](), source: '' },
        [{ field: 'source', message: 'Source is required' }],
        'actualRevenue',
      );
      await rejects(
        '/api/actual-revenues',
        { ...bodies['actual-revenues'](), amount: 12.345 },
        [{ field: 'amount', message: 'Amount can have at most 2 decimals' }],
        'actualRevenue',
      );
      await rejects(
        '/api/companies',
        { name: unique('Bank'), type: 'bank' },
        [{ field: 'type', message: 'Type must be one of: mobile, infrastructure, fintech, marketing' }],
        'companies',
      );
      await rejects(
        '/api/companies',
        { name: '', type: 'mobile' },
        [{ field: 'name', message: 'Name is required' }],
        'companies',
      );
      await rejects(
        '/api/departments',
        { name: 'x'.repeat(256) },
        [{ field: 'name', message: 'Name must be at most 255 characters' }],
        'departments',
      );
      await rejects(
        '/api/expense-categories',
        { name: unique('Cat') },
        [{ field: 'companyId', message: 'Company is required' }],
        'expenseCategories',
      );
      await rejects(
        '/api/expense-categories',
        { companyId: seed.spark, departmentId: 99999999, name: unique('Cat') },
        [{ field: 'departmentId', message: 'Department not found' }],
        'expenseCategories',
      );

      const metric = bodies['subscriber-metrics']();
      const metricPath = '/api/subscriber-metrics';
      await rejects(
        metricPath,
        { ...metric, metricName: 'new_users' },
        [{ field: 'metricName', message: /^Metric name must be one of: new_subscribers, active_subscribers/ }],
        'subscriberMetrics',
      );
      await rejects(
        metricPath,
        { ...metric, companyType: 'fintech', metricName: 'aum' },
        [{ field: 'companyId', message: 'This company is not a fintech company' }],
        'subscriberMetrics',
      );
      await rejects(
        metricPath,
        { ...metric, companyId: seed.atlas },
        [{ field: 'companyId', message: 'This company is not a mobile company' }],
        'subscriberMetrics',
      );
      await rejects(
        metricPath,
        { ...metric, companyType: 'infrastructure' },
        [{ field: 'companyType', message: 'Company Type must be one of: mobile, fintech' }],
        'subscriberMetrics',
      );
      await rejects(
        metricPath,
        { ...metric, metricName: 'likes' },
        [{ field: 'metricName', message: /^Metric Name must be one of: / }],
        'subscriberMetrics',
      );
      await rejects(
        metricPath,
        { ...metric, metricValue: -1 },
        [{ field: 'metricValue', message: 'Metric Value must be zero or more' }],
        'subscriberMetrics',
      );
      await rejects(
        metricPath,
        { ...metric, metricValue: 'x' },
        [{ field: 'metricValue', message: 'Metric Value must be a number' }],
        'subscriberMetrics',
      );
      await rejects(
        metricPath,
        { ...metric, period: 'hourly' },
        [{ field: 'period', message: 'Period must be one of: daily, weekly, monthly, quarterly, annual' }],
        'subscriberMetrics',
      );
      // The type rule re-runs on a partial update.
      const stored = await created(owner, metricPath, metric);
      await rejects(
        `${metricPath}/${stored.id}`,
        { metricName: 'aum' },
        [{ field: 'metricName', message: /^Metric name must be one of: / }],
        'subscriberMetrics',
        'PUT',
      );
      await rejects(
        `${metricPath}/${stored.id}`,
        { companyId: seed.vult },
        [{ field: 'companyId', message: 'This company is not a mobile company' }],
        'subscriberMetrics',
        'PUT',
      );
      const zero = await put(owner, `${metricPath}/${stored.id}`, {
        metricValue: 0,
        metricName: 'churned_subscribers',
      });
      await expectStatus(zero, 200);
      expect(await zero.json()).toMatchObject({ metricValue: 0, metricName: 'churned_subscribers' });
    });
  });

  describe('reference data: uniqueness, inline remap and referenced deletes', () => {
    it('a duplicate department name is a 400 on create and rename, with no audit or version row', async () => {
      const first = await created(owner, '/api/departments', { name: unique('Dept') });
      const second = await created(owner, '/api/departments', { name: unique('Dept') });
      const before = await snapshot('departments');
      await expectInvalid(await owner.post('/api/departments', { name: first.name }), [
        { field: 'name', message: 'A department with this name already exists' },
      ]);
      await expectInvalid(await owner.post('/api/departments', { name: 'Finance' }), [
        { field: 'name', message: 'A department with this name already exists' },
      ]);
      await expectInvalid(await put(owner, `/api/departments/${second.id}`, { name: first.name }), [
        { field: 'name', message: 'A department with this name already exists' },
      ]);
      expect(await snapshot('departments')).toEqual(before);
      // Keeping one's own name is not a duplicate.
      await expectStatus(
        await put(owner, `/api/departments/${first.id}`, { name: first.name, description: 'same name' }),
        200,
      );
      await expectInvalid(await owner.post('/api/companies', { name: 'Vult', type: 'fintech' }), [
        { field: 'name', message: 'A company with this name already exists' },
      ]);
    });

    it('expense categories: unique per company, inline department remap to none and back', async () => {
      const name = unique('Remap');
      const category = await created(owner, '/api/expense-categories', {
        companyId: seed.spark,
        departmentId: seed.finance,
        name,
        description: 'Keep me',
      });
      expect(category).toMatchObject({
        companyName: 'Spark Marketing',
        departmentName: 'Finance',
        departmentId: seed.finance,
      });
      await expectInvalid(await owner.post('/api/expense-categories', { companyId: seed.spark, name }), [
        { field: 'name', message: 'This company already has a category with this name' },
      ]);
      const elsewhere = await created(owner, '/api/expense-categories', { companyId: seed.atlas, name }); // same name, other company
      expect(elsewhere.departmentId).toBeNull();

      const path = `/api/expense-categories/${category.id}`;
      const cleared = await put(owner, path, { departmentId: null });
      await expectStatus(cleared, 200);
      expect(await cleared.json()).toMatchObject({
        ...category,
        departmentId: null,
        departmentName: null,
        updatedAt: expect.any(String),
      });
      const remapped = await put(owner, path, { departmentId: seed.marketing });
      await expectStatus(remapped, 200);
      expect(await remapped.json()).toMatchObject({
        name,
        description: 'Keep me',
        companyId: seed.spark,
        departmentId: seed.marketing,
        departmentName: 'Marketing',
      });
      await expectInvalid(await put(owner, path, { departmentId: 99999999 }), [
        { field: 'departmentId', message: 'Department not found' },
      ]);
      await expectInvalid(await put(owner, path, { departmentId: 'none' }), [
        { field: 'departmentId', message: 'Department is required' },
      ]);

      const audit = await auditFor('expenseCategories', category.id);
      expect(audit.map((a) => a.action)).toEqual(['create', 'update', 'update']);
      expect(audit[1].changes).toEqual({ departmentId: { old: seed.finance, new: null } });
      expect(audit[2].changes).toEqual({ departmentId: { old: null, new: seed.marketing } });
      const versions = await versionsFor('expenseCategories', category.id);
      expect(versions.map((v) => [v.version, v.isActive])).toEqual([
        [1, false],
        [2, false],
        [3, true],
      ]);
      expect(versions[2].data).toMatchObject({ departmentId: seed.marketing, name });

      // An editor may remap too (finance area), but not delete.
      await expectStatus(await put(editor, path, { departmentId: null }), 200);
    });

    it('deleting referenced rows is a 409 naming the users, with nothing written', async () => {
      const department = await created(owner, '/api/departments', { name: unique('Used Dept') });
      const company = await created(owner, '/api/companies', { name: unique('Used Co'), type: 'marketing' });
      const category = await created(owner, '/api/expense-categories', {
        companyId: company.id,
        departmentId: department.id,
        name: 'Used',
      });
      await created(owner, '/api/budgets', {
        ...bodies.budgets(),
        categoryId: category.id,
        departmentId: department.id,
      });
      await created(owner, '/api/actual-revenues', { ...bodies['actual-revenues'](), companyId: company.id });

      for (const [path, table, message] of [
        [
          `/api/departments/${department.id}`,
          'departments',
          /^Cannot delete this department: it is still used by 1 expense category and 1 budget entry$/,
        ],
        [
          `/api/expense-categories/${category.id}`,
          'expenseCategories',
          /^Cannot delete this expense category: it is still used by 1 budget entry$/,
        ],
        [
          `/api/companies/${company.id}`,
          'companies',
          /^Cannot delete this company: it is still used by 1 expense category, 1 budget entry and 1 revenue entry$/,
        ],
        [
          `/api/departments/${seed.finance}`,
          'departments',
          /^Cannot delete this department: it is still used by \d+ expense categories/,
        ],
        [
          `/api/companies/${seed.vult}`,
          'companies',
          /^Cannot delete this company: it is still used by .*expense categories.*users$/,
        ],
      ] as const) {
        const before = await snapshot(table);
        await expectError(await del(owner, path), 409, message);
        expect(await snapshot(table), path).toEqual(before);
      }
    });
  });

  describe('company scope (users limited to Vult)', () => {
    let vultBudget: Row;
    let sparkBudget: Row;
    let sparkRevenue: Row;
    let vultRevenue: Row;

    beforeAll(async () => {
      await db().deleteFrom('rateLimitCounters').execute();
      vultBudget = await created(owner, '/api/budgets', {
        ...bodies.budgets(),
        categoryId: seed.vultCategory,
        departmentId: seed.vultCategoryDept,
      });
      sparkBudget = await created(owner, '/api/budgets', bodies.budgets());
      sparkRevenue = await created(owner, '/api/actual-revenues', bodies['actual-revenues']());
      vultRevenue = await created(owner, '/api/actual-revenues', {
        ...bodies['actual-revenues'](),
        companyId: seed.vult,
        source: 'Card Interchange',
      });
    });

    it("lists show only the user's company; shared departments show in full", async () => {
      for (const [key, table] of [
        ['budgets', 'budgets'],
        ['actual-revenues', 'actualRevenue'],
        ['expense-categories', 'expenseCategories'],
      ] as const) {
        const response = await scopedEditor.get(`/api/${key}`);
        await expectStatus(response, 200);
        const rows: Row[] = await response.json();
        expect(rows.length, key).toBeGreaterThan(0);
        expect(
          rows.every((r) => r.companyId === seed.vult),
          key,
        ).toBe(true);
        expect(Number(response.headers.get('X-Total-Count')), key).toBe(await count(table, ['companyId', seed.vult]));
        // Asking for another company finds nothing rather than the other company's rows.
        const other = await scopedEditor.get(`/api/${key}?companyId=${seed.spark}`);
        expect(await other.json()).toEqual([]);
        expect(other.headers.get('X-Total-Count')).toBe('0');
      }
      const budgets: Row[] = await (await scopedEditor.get('/api/budgets')).json();
      expect(budgets.map((r) => r.id)).toContain(vultBudget.id);
      expect(budgets.map((r) => r.id)).not.toContain(sparkBudget.id);
      const companies: Row[] = await (await scopedEditor.get('/api/companies')).json();
      expect(companies.map((c) => c.id)).toEqual([seed.vult]);
      const departments = await scopedEditor.get('/api/departments');
      expect(Number(departments.headers.get('X-Total-Count'))).toBe(await count('departments'));
    });

    it("another company's row is a 404 on GET, PUT and DELETE (never 403), and nothing changes", async () => {
      const before = await snapshot('budgets');
      for (const c of [scopedEditor, scopedAdmin]) {
        await expectError(await c.get(`/api/budgets/${sparkBudget.id}`), 404, 'Resource not found');
        await expectError(await put(c, `/api/budgets/${sparkBudget.id}`, { amount: 1 }), 404, 'Resource not found');
        await expectError(await c.get(`/api/companies/${seed.spark}`), 404, 'Resource not found');
      }
      await expectError(await del(scopedAdmin, `/api/budgets/${sparkBudget.id}`), 404, 'Resource not found');
      await expectError(await del(scopedAdmin, `/api/actual-revenues/${sparkRevenue.id}`), 404, 'Resource not found');
      // Company-scoped users never write companies: refused before any row is read,
      // so the answer is the same whether the id exists or not.
      await expectError(await put(scopedAdmin, `/api/companies/${seed.spark}`, { description: 'x' }), 403, 'Forbidden');
      await expectError(await del(scopedEditor, `/api/budgets/${sparkBudget.id}`), 403, 'Forbidden'); // editors never delete
      expect(await snapshot('budgets')).toEqual(before);
      expect(await (await owner.get(`/api/budgets/${sparkBudget.id}`)).json()).toEqual(sparkBudget);
    });

    it('their own rows work as usual', async () => {
      await expectStatus(await scopedEditor.get(`/api/budgets/${vultBudget.id}`), 200);
      const edited = await put(scopedEditor, `/api/actual-revenues/${vultRevenue.id}`, { amount: 12.5 });
      await expectStatus(edited, 200);
      expect(await edited.json()).toMatchObject({ amount: 12.5, companyId: seed.vult });
      const own = await created(scopedEditor, '/api/budgets', {
        ...bodies.budgets(),
        categoryId: seed.vultCategory,
        departmentId: seed.vultCategoryDept,
      });
      expect(own.companyId).toBe(seed.vult);
      await expectStatus(await del(scopedAdmin, `/api/budgets/${own.id}`), 204);
      // A scoped admin may not edit, add or remove companies: group-wide reference data.
      await expectError(
        await put(scopedAdmin, `/api/companies/${seed.vult}`, { description: 'Edited by its admin' }),
        403,
        'Forbidden',
      );
      await expectError(await scopedAdmin.post('/api/companies', bodies.companies()), 403, 'Forbidden');
      await expectError(await del(scopedAdmin, `/api/companies/${seed.vult}`), 403, 'Forbidden');
    });

    it("a new row without companyId is the scoped user's company; a group-wide user must name it", async () => {
      const withoutCompany = (key: 'revenue-projections' | 'actual-revenues' | 'subscriber-metrics') => {
        const { companyId: _omitted, ...rest } = bodies[key]();
        return key === 'subscriber-metrics' ? { ...rest, companyType: 'fintech', metricName: 'active_users' } : rest;
      };
      for (const [key, table] of [
        ['revenue-projections', 'revenueProjections'],
        ['actual-revenues', 'actualRevenue'],
        ['subscriber-metrics', 'subscriberMetrics'],
      ] as const) {
        const own = await created(scopedEditor, `/api/${key}`, withoutCompany(key));
        expect(own.companyId, key).toBe(seed.vult);
        const rows = await count(table);
        await expectInvalid(await owner.post(`/api/${key}`, withoutCompany(key)), [
          { field: 'companyId', message: 'Company is required' },
        ]);
        expect(await count(table), key).toBe(rows);
      }
    });

    it('rows cannot be created for, or moved to, another company', async () => {
      const check = async (
        c: TestClient,
        method: 'POST' | 'PUT',
        path: string,
        body: unknown,
        errors: { field: string; message: string }[],
        table: string,
      ) => {
        const before = await snapshot(table);
        await expectInvalid(method === 'POST' ? await c.post(path, body) : await put(c, path, body), errors);
        expect(await snapshot(table)).toEqual(before);
      };
      await check(
        scopedEditor,
        'POST',
        '/api/budgets',
        bodies.budgets(),
        [{ field: 'categoryId', message: 'Category not found' }],
        'budgets',
      );
      await check(
        scopedEditor,
        'POST',
        '/api/actual-expenses',
        bodies['actual-expenses'](),
        [{ field: 'categoryId', message: 'Category not found' }],
        'actualExpenses',
      );
      await check(
        scopedEditor,
        'POST',
        '/api/actual-revenues',
        bodies['actual-revenues'](),
        [{ field: 'companyId', message: 'Company not found' }],
        'actualRevenue',
      );
      await check(
        scopedEditor,
        'POST',
        '/api/revenue-projections',
        bodies['revenue-projections'](),
        [{ field: 'companyId', message: 'Company not found' }],
        'revenueProjections',
      );
      await check(
        scopedEditor,
        'POST',
        '/api/expense-categories',
        bodies['expense-categories'](),
        [{ field: 'companyId', message: 'Company not found' }],
        'expenseCategories',
      );
      await check(
        scopedEditor,
        'POST',
        '/api/subscriber-metrics',
        bodies['subscriber-metrics'](),
        [{ field: 'companyId', message: 'Company not found' }],
        'subscriberMetrics',
      );
      await check(
        scopedEditor,
        'PUT',
        `/api/actual-revenues/${vultRevenue.id}`,
        { companyId: seed.spark },
        [{ field: 'companyId', message: 'Company not found' }],
        'actualRevenue',
      );
      await check(
        scopedEditor,
        'PUT',
        `/api/budgets/${vultBudget.id}`,
        { categoryId: seed.sparkCategory },
        [{ field: 'categoryId', message: 'Category not found' }],
        'budgets',
      );
    });
  });
});
