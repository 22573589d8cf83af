// The generic resource screens over HTTP, as a browser without JavaScript uses them: list
// state in the URL, the form post and its errors, company scope, role gates and the metrics
// screens' fixed company type.
import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/database.ts';
import { useTestServer } from '../../../test/server.ts';
import { createTestUser, TEST_PASSWORD } from '../../../test/users.ts';

const VULT = 2;
const ATLAS = 3;

/** A Vult metric as the fintech metrics form posts it, with `fields` in place of the defaults. */
const fintechMetric = (fields: Record<string, string> = {}) => ({
  intent: 'create',
  companyId: String(VULT),
  metricName: 'new_users',
  metricValue: '3',
  period: 'monthly',
  recordDate: '2026-10-30',
  ...fields,
});

describe.each(TEST_DIALECTS)('resource screens on %s', (dialect) => {
  const { db, client } = useTestServer(dialect);
  async function signedIn(options: Parameters<typeof createTestUser>[1] = {}) {
    const user = await createTestUser(db(), options);
    const c = client();
    await c.login(user.email, TEST_PASSWORD);
    return c;
  }
  const text = async (response: Response) => (await response.text()).replace(/<!-- -->/g, '');

  it('a page number that is not a number shows page 1; one beyond the end shows the last page', async () => {
    const c = await signedIn({ role: 'admin' });
    const first = await text(await c.get('/departments?page=abc'));
    expect(first).toContain('Showing 1 to 10 of 16 results');
    const beyond = await text(await c.get('/departments?page=99'));
    expect(beyond).toContain('Showing 11 to 16 of 16 results');
    const searched = await text(await c.get('/departments?q=operations'));
    expect(searched).toContain('Showing 1 to 2 of 2 results');
    // One page: no Previous/Next or page buttons.
    expect(first).toContain('>Next</a>');
    expect(searched).not.toContain('>Next<');
    expect(searched).not.toContain('>Previous<');
  });

  it('the fintech metrics screen is named after Vult, takes only fintech metric names, and saves with a toast', async () => {
    const c = await signedIn({ role: 'editor' });
    const page = await text(await c.get('/fintech-metrics?new=1'));
    expect(page).toContain('Vult Metrics');
    expect(page).toContain('value="new_users"');
    expect(page).not.toContain('value="arpu"');
    const fields = fintechMetric({
      metricName: 'arpu',
      metricValue: '12.5',
      recordDate: '2026-10-31',
      description: '',
    });
    const wrong = await c.postForm('/fintech-metrics?new=1', fields);
    expect(wrong.status).toBe(400);
    const wrongPage = await text(wrong);
    expect(wrongPage).toContain('Metric name must be one of: new_users');
    // The failure is worded after the screen's kind of metric.
    expect(wrongPage).toContain('Failed to create fintech metric');
    const mobile = await c.postForm('/mobile-metrics?new=1', { ...fields, companyId: '1', metricName: 'new_users' });
    expect(await text(mobile)).toContain('Failed to create mobile metric');
    // The screen fixes the company type even if the form says otherwise.
    const ok = await c.postForm('/fintech-metrics?new=1', {
      ...fields,
      metricName: 'new_users',
      companyType: 'mobile',
      description: 'Screen test',
    });
    expect(ok.status).toBe(302);
    expect(ok.headers.get('Location')).toBe('/fintech-metrics');
    expect(await text(await c.get('/fintech-metrics'))).toContain('Fintech metric created successfully');
    const row = await db()
      .selectFrom('subscriberMetrics')
      .selectAll()
      .where('description', '=', 'Screen test')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ companyId: VULT, companyType: 'fintech', metricValueHundredths: 1250 });
  });

  it("titles a saved record's toast in the reader's language", async () => {
    const c = await signedIn({ role: 'editor' });
    expect((await c.request('/api/user-settings', { method: 'PUT', json: { language: 'es' } })).status).toBe(200);
    const saved = await c.postForm('/fintech-metrics?new=1', fintechMetric({ description: 'Toast in Spanish' }));
    expect(saved.status, await saved.clone().text()).toBe(302);
    const page = await text(await c.get('/fintech-metrics'));
    expect(page).toContain('>Éxito</p>');
    expect(page).not.toContain('>Success</p>');
    // A declaration's own check, with its values, in Spanish too.
    const wrong = await c.postForm('/fintech-metrics?new=1', fintechMetric({ metricName: 'arpu' }));
    expect(wrong.status).toBe(400);
    expect(await text(wrong)).toContain('El nombre de la métrica debe ser uno de: new_users');
  });

  it('a user limited to another company gets 404 for its rows and for the metrics screen of another type', async () => {
    const admin = await signedIn({ role: 'admin' });
    const other = await admin.post('/api/revenue-projections', {
      companyId: VULT,
      source: 'Card Interchange',
      amount: 100,
      period: 'monthly',
      startDate: '2026-01-01',
      endDate: '2026-01-31',
    });
    const { id } = await other.json();
    const scoped = await signedIn({ role: 'editor', companyId: ATLAS });
    expect((await scoped.get(`/revenue-projections?edit=${id}`)).status).toBe(404);
    expect((await scoped.get('/fintech-metrics')).status).toBe(404);
    const list = await text(await scoped.get('/revenue-projections'));
    expect(list).not.toContain('Card Interchange');
    // The company picker offers only the user's company.
    const form = await text(await scoped.get('/revenue-projections?new=1'));
    expect(form).toContain('Atlas Infrastructure');
    expect(form).not.toContain('>Vult<');
    const post = await scoped.postForm('/revenue-projections?new=1', {
      intent: 'create',
      companyId: String(VULT),
      source: 'X',
      amount: '5',
      period: 'monthly',
      startDate: '2026-01-01',
      endDate: '2026-01-31',
    });
    expect(post.status).toBe(400);
    expect(await text(post)).toContain('Company not found');
  });

  it('a viewer sees no add, edit or delete controls, and a posted form is refused', async () => {
    const c = await signedIn({ role: 'viewer' });
    const page = await text(await c.get('/budget-planning'));
    expect(page).toContain('Export Data');
    expect(page).not.toContain('Add Budget Entry');
    const before = await db()
      .selectFrom('auditLogs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const post = await c.postForm('/budget-planning', {
      intent: 'create',
      departmentId: '1',
      categoryId: '1',
      amount: '5',
      period: 'monthly',
      startDate: '2026-01-01',
      endDate: '2026-01-31',
    });
    expect(post.status).toBe(403);
    const after = await db()
      .selectFrom('auditLogs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('a viewer posting an invalid form is refused with 403 before any validation', async () => {
    const c = await signedIn({ role: 'viewer' });
    const posts: Record<string, string>[] = [
      { intent: 'create' },
      { intent: 'create', amount: 'lots', startDate: 'yesterday' },
      { intent: 'update', id: 'x' },
      { intent: 'delete', id: '1e3' },
    ];
    for (const fields of posts) {
      const post = await c.postForm('/budget-planning', fields);
      expect(post.status, JSON.stringify(fields)).toBe(403);
    }
  });

  it('form ids and ?edit= take plain digits only: 1e3, 0x3e9, " 1001 ", 01001 name no row', async () => {
    const c = await signedIn({ role: 'admin' });
    const created = await c.post('/api/departments', { name: `Ids ${dialect}` });
    const { id } = await created.json();
    const disguised = [
      `${id}.0`,
      ` ${id} `,
      `0${id}`,
      `+${id}`,
      `0x${id.toString(16)}`,
      ...(id % 10 === 0 ? [`${id / 10}e1`] : []),
      `${id}e0`,
    ];
    for (const spelled of disguised) {
      const del = await c.postForm('/departments', { intent: 'delete', id: spelled, confirmed: '1' });
      expect(del.status, spelled).toBe(404);
      const upd = await c.postForm('/departments', { intent: 'update', id: spelled, name: `Renamed ${dialect}` });
      expect(upd.status, spelled).toBe(404);
      const edit = await text(await c.get(`/departments?edit=${encodeURIComponent(spelled)}`));
      expect(edit, spelled).not.toContain(`Renamed ${dialect}`);
      expect(edit, spelled).not.toContain('Edit Department');
    }
    expect((await c.get(`/api/departments/${id}`)).status).toBe(200);
    expect((await (await c.get(`/api/departments/${id}`)).json()).name).toBe(`Ids ${dialect}`);
    // The plain spelling still works.
    expect(await text(await c.get(`/departments?edit=${id}`))).toContain('Edit Department');
    expect((await c.postForm('/departments', { intent: 'delete', id: String(id), confirmed: '1' })).status).toBe(302);
  });

  it('without JavaScript a delete answers the confirmation first and deletes only when confirmed', async () => {
    const c = await signedIn({ role: 'admin' });
    const created = await c.post('/api/departments', { name: `Temp ${dialect}` });
    const { id } = await created.json();
    const first = await c.postForm('/departments', { intent: 'delete', id: String(id), confirmed: '' });
    expect(first.status).toBe(200);
    const asked = await text(first);
    expect(asked).toContain('Are you sure you want to delete this department?');
    // The step stands alone on the page: it says which row (the declaration's option text).
    expect(asked).toContain(
      `<p class="mt-1 font-medium" data-testid="confirm-subject">Department #${id}: Temp ${dialect}</p>`,
    );
    expect((await c.get(`/api/departments/${id}`)).status).toBe(200);
    const confirmed = await c.postForm('/departments', { intent: 'delete', id: String(id), confirmed: '1' });
    expect(confirmed.status).toBe(302);
    expect((await c.get(`/api/departments/${id}`)).status).toBe(404);
  });

  it('a row without a name is named by its first list columns in the no-JS delete confirmation', async () => {
    const c = await signedIn({ role: 'admin' });
    const category = await db()
      .selectFrom('expenseCategories as cat')
      .innerJoin('departments as d', 'd.id', 'cat.departmentId')
      .select(['cat.id', 'cat.name', 'cat.departmentId', 'd.name as departmentName'])
      .orderBy('cat.id')
      .executeTakeFirstOrThrow();
    const created = await c.post('/api/budgets', {
      departmentId: category.departmentId,
      categoryId: category.id,
      amount: 1234.5,
      period: 'quarterly',
      startDate: '2031-01-01',
      endDate: '2031-03-31',
    });
    expect(created.status).toBe(201);
    const { id } = await created.json();
    const first = await c.postForm('/budget-planning', { intent: 'delete', id: String(id) });
    expect(first.status).toBe(200);
    const asked = await text(first);
    expect(asked).toContain('Are you sure you want to delete this budget entry?');
    const html = (t: string) => t.replace(/&/g, '&amp;').replace(/'/g, '&#x27;');
    const subject = asked.match(/data-testid="confirm-subject">([^<]*)<\/p>/)?.[1] ?? '';
    expect(subject.startsWith(`Budget Entry #${id}: `)).toBe(true);
    expect(subject).toContain(`${html(category.departmentName)} · ${html(category.name)} · $1,234.50`);
    expect((await c.get(`/api/budgets/${id}`)).status).toBe(200);
  });

  it('Export Data streams the filtered list as CSV, and needs the area permission', async () => {
    const c = await signedIn({ role: 'admin' });
    const response = await c.get('/export/departments?q=operations');
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toContain('text/csv');
    expect(response.headers.get('Content-Disposition')).toMatch(
      /attachment; filename="departments-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const lines = (await response.text()).trim().split('\r\n');
    expect(lines[0]).toBe('ID,Name,Description,Created At,Updated At');
    expect(lines.slice(1).map((l) => l.split(',')[1])).toEqual(['Network Operations', 'Operations']);
    expect((await client().get('/export/departments')).status).toBe(302);
    expect((await c.get('/export/nothing')).status).toBe(404);
  });
});
