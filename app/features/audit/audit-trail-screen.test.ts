// The Audit Trail screen over HTTP, as a browser without JavaScript uses it
// (docs/writes.md, docs/screens.md): filters in the URL (searched in the database, over every
// page), the changes of an entry, the version history of one record, restoring a version
// (confirmation step first), the anomalies, the 403 for readers without the audit-logs
// permission and the company scope. The test databases hold reference data only: entries are made through the JSON API.
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ANOMALY_TEXT } from './anomalies.server.ts';
import { TEST_DIALECTS } from '../../../test/database.ts';
import { useTestServer, type TestClient } from '../../../test/server.ts';
import { createTestUser } from '../../../test/users.ts';
import { USER_CHOICES_MAX } from '../users/user-filter.server.ts';

const ONE_NETWORK = 1;
const VULT = 2;

describe.each(TEST_DIALECTS)('audit trail screen on %s', (dialect) => {
  const { db, signedIn } = useTestServer(dialect);
  const text = async (response: Response) => (await response.text()).replace(/<!-- -->/g, '');
  const tag = (prefix: string) => `${prefix}-${dialect}-${crypto.randomBytes(4).toString('hex')}`;

  async function createDepartment(c: TestClient, name: string, reason?: string): Promise<number> {
    const response = await c.request('/api/departments', {
      method: 'POST',
      json: { name },
      headers: reason ? { 'X-Change-Reason': reason } : {},
    });
    expect(response.status, await response.clone().text()).toBe(201);
    return (await response.json()).id;
  }
  async function put(c: TestClient, path: string, json: unknown) {
    const response = await c.request(path, { method: 'PUT', json });
    expect(response.status, await response.clone().text()).toBe(200);
  }
  async function versionsOf(tableName: string, recordId: number) {
    return db()
      .selectFrom('dataVersions')
      .select(['id', 'version', 'action', 'isActive'])
      .where('tableName', '=', tableName)
      .where('recordId', '=', recordId)
      .orderBy('version')
      .execute();
  }
  const versionsUrl = (tableName: string, recordId: number) =>
    `/audit-trail?tab=versions&tableName=${tableName}&recordId=${recordId}`;

  it('a viewer without the audit-logs permission gets 403; one with it reads the trail but may not restore a department', async () => {
    const { c } = await signedIn({ role: 'viewer' });
    expect((await c.get('/audit-trail')).status).toBe(403);
    expect((await c.postForm('/audit-trail', { intent: 'restore', versionId: '1', confirmed: '1' })).status).toBe(403);

    const admin = (await signedIn({ role: 'admin' })).c;
    const id = await createDepartment(admin, tag('Viewer'));
    await put(admin, `/api/departments/${id}`, { name: tag('Viewer renamed') });
    const reader = (await signedIn({ role: 'viewer', flags: { canAccessAuditLogs: true } })).c;
    const page = await reader.get(versionsUrl('departments', id));
    expect(page.status).toBe(200);
    const html = await text(page);
    expect(html).toContain('Version 1');
    expect(html).not.toContain('Restore this version');
  });

  it('lists the entries with their changes, filters by table, record and user, and searches over every page', async () => {
    const { c, user } = await signedIn({ role: 'admin' });
    const reason = tag('Reason');
    const name = tag('Audit');
    const id = await createDepartment(c, name, reason);
    await put(c, `/api/departments/${id}`, { name: `${name} renamed`, description: 'Now described' });

    const page = await c.get('/audit-trail');
    expect(page.status).toBe(200);
    const html = await text(page);
    expect(html).toContain('<h1 class="text-2xl font-semibold text-slate-900">Audit Trail</h1>');
    for (const label of ['Audit Logs', 'Data Versions', 'Anomalies', 'All tables', 'Apply', 'Clear'])
      expect(html).toContain(label);
    expect(html).toContain('max-h-[600px] overflow-y-auto');

    // Table and record ID: the create and the update of this department, newest first.
    const record = await text(await c.get(`/audit-trail?tableName=departments&recordId=${id}`));
    expect(record).toContain('Showing 1 to 2 of 2 results');
    expect(record).toContain(`Record #${id}</span>`);
    expect(record.indexOf('>update</span>')).toBeLessThan(record.indexOf('>create</span>'));
    expect(record).toContain(
      `Name</span>: <span class="break-words" translate="no">${name}</span> → <span class="break-words" translate="no">${name} renamed</span>`,
    );
    expect(record).toContain(
      'Description</span>: <span class="break-words" translate="no">—</span> → <span class="break-words" translate="no">Now described</span>',
    );
    expect(record).toContain(`Reason: ${reason}`);
    expect(record).toContain(`href="/departments?edit=${id}"`);
    expect(record).toContain(`href="/audit-trail?tab=versions&amp;tableName=departments&amp;recordId=${id}"`);

    // From/To take days as the reader types them (MM/dd/yyyy by default), ISO too.
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const typed = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;
    const within = (from: string, to: string) =>
      c.get(`/audit-trail?tableName=departments&recordId=${id}&from=${from}&to=${to}`).then(text);
    expect(await within(typed(today), typed(today))).toContain('Showing 1 to 2 of 2 results');
    expect(await within(today, today)).toContain('Showing 1 to 2 of 2 results');
    const later = await within(typed(tomorrow), '');
    expect(later).toContain('No audit logs found');
    expect(later).toContain(`value="${typed(tomorrow)}"`);
    // A day not in the reader's order is explained in the reader's format.
    expect(await within('31/12/2026', '')).toContain('From must be a valid date (MM/DD/YYYY)');

    // Search: the reason, over every page (the create is far beyond the first page by now).
    for (let i = 0; i < 26; i++) await createDepartment(c, tag('Filler'));
    const first = await text(await c.get('/audit-trail'));
    expect(first).not.toContain(reason);
    expect(first).toContain('>Next</a>');
    const searched = await text(await c.get(`/audit-trail?q=${reason}`));
    expect(searched).toContain('Showing 1 to 1 of 1 results');
    expect(searched).toContain(`Record #${id}</span>`);
    // The username, and the user filter: this admin's sign-in and 28 writes, over three pages.
    expect(await text(await c.get(`/audit-trail?q=${user.username}`))).toContain('Showing 1 to 10 of 29 results');
    const byUser = await text(await c.get(`/audit-trail?userId=${user.id}&page=3`));
    expect(byUser).toContain('Showing 21 to 29 of 29 results');
    expect(byUser).toContain('>login</span>');
    const other = await createTestUser(db(), { role: 'editor' });
    const none = await text(await c.get(`/audit-trail?userId=${other.id}`));
    expect(none).toContain(`<option value="${other.id}" translate="no" selected="">${other.username}</option>`);
    expect(none).toContain('No audit logs found');
    // A table filter keeps other tables out.
    expect(await text(await c.get(`/audit-trail?tableName=budgets&q=${reason}`))).toContain('No audit logs found');
    // A hand-edited filter is explained, not a crash.
    const bad = await c.get('/audit-trail?recordId=abc');
    expect(bad.status).toBe(200);
    expect(await text(bad)).toContain('recordId must be an integer');
  });

  it('shows changes and versions in the form’s words: labels, money, dates and referenced rows by name', async () => {
    const { c } = await signedIn({ role: 'admin' });
    const department = await db()
      .selectFrom('departments')
      .select(['id', 'name'])
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const category = async (name: string) => {
      const response = await c.post('/api/expense-categories', { companyId: VULT, departmentId: department.id, name });
      expect(response.status, await response.clone().text()).toBe(201);
      return (await response.json()).id as number;
    };
    const [hosting, media] = [tag('Hosting'), tag('Media')];
    const [hostingId, mediaId] = [await category(hosting), await category(media)];
    const created = await c.post('/api/actual-expenses', {
      departmentId: department.id,
      categoryId: hostingId,
      amount: 1234.5,
      expenseDate: '2026-03-04',
      description: 'Servers',
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const id = (await created.json()).id as number;
    await put(c, `/api/actual-expenses/${id}`, { categoryId: mediaId, amount: 999.99, expenseDate: '2026-03-05' });

    const html = await text(await c.get(`/audit-trail?tableName=actual_expenses&recordId=${id}`));
    const change = (label: string, old: string, now: string) =>
      `${label}</span>: <span class="break-words" translate="no">${old}</span> → <span class="break-words" translate="no">${now}</span>`;
    expect(html).toContain(change('Amount', '$1,234.50', '$999.99'));
    expect(html).toContain(change('Category', hosting, media));
    expect(html).toContain(change('Expense Date', '03/04/2026', '03/05/2026'));
    expect(html).toContain(change('Department', '—', department.name));
    expect(html.slice(0, html.indexOf('<script'))).not.toMatch(/amountCents|categoryId|123450/);

    // The API keeps the stored values and adds the readable ones.
    const [update, create] = await (await c.get(`/api/audit-logs?tableName=actual_expenses&recordId=${id}`)).json();
    expect(update.changes.amountCents).toEqual({ old: 123450, new: 99999 });
    expect(update.readableChanges).toContainEqual({
      field: 'amountCents',
      label: 'Amount',
      old: '$1,234.50',
      new: '$999.99',
    });
    expect(create.readableChanges).toContainEqual({ field: 'companyId', label: 'Company', old: '—', new: 'Vult' });

    const versions = await text(await c.get(versionsUrl('actual_expenses', id)));
    expect(versions).toMatch(
      /<dt[^>]*>Amount<\/dt><dd[^>]*><span class="break-words" translate="no">\$999\.99<\/span>/,
    );
    expect(versions).toMatch(
      /<dt[^>]*>Category<\/dt><dd[^>]*><span class="break-words" translate="no">[^<]*Media[^<]*<\/span>/,
    );
    // Version 1 against the current one: labelled and formatted.
    expect(versions).toMatch(
      /<th scope="row"[^>]*>Amount<\/th><td[^>]*><span class="break-words" translate="no">\$1,234\.50<\/span><\/td><td[^>]*><span class="break-words" translate="no">\$999\.99<\/span>/,
    );
  });

  it('Recent Activity on the dashboard names tables as their screens are titled', async () => {
    const { c } = await signedIn({ role: 'admin' });
    const category = await db()
      .selectFrom('expenseCategories')
      .select(['id', 'departmentId'])
      .where('companyId', '=', VULT)
      .where('departmentId', 'is not', null)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const created = await c.post('/api/actual-expenses', {
      departmentId: category.departmentId,
      categoryId: category.id,
      amount: 12,
      expenseDate: '2026-03-04',
      description: 'Recent',
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const [newest] = (await (await c.get('/api/dashboard')).json()).recentActivity;
    expect(newest).toMatchObject({ action: 'create', tableName: 'actual_expenses', tableLabel: 'Actual Expenses' });
    const html = await text(await c.get('/'));
    const list = html.slice(html.indexOf('data-testid="recent-activity"'));
    expect(list).toMatch(/^[^]*?<span class="font-medium">Actual Expenses<\/span>/);
    expect(list.slice(0, list.indexOf('</ul>'))).not.toContain('actual_expenses');
  });

  it('the first edit of a seeded record keeps its seeded state as a baseline version, which restores it', async () => {
    const { c } = await signedIn({ role: 'admin' });
    const seeded = await db()
      .selectFrom('departments')
      .select(['id', 'name', 'description'])
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('dataVersions')
              .select('id')
              .where('tableName', '=', 'departments')
              .whereRef('recordId', '=', 'departments.id'),
          ),
        ),
      )
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    await put(c, `/api/departments/${seeded.id}`, { description: 'Edited once' });
    expect((await versionsOf('departments', seeded.id)).map((v) => [v.version, v.action, Boolean(v.isActive)])).toEqual(
      [
        [1, 'baseline', false],
        [2, 'update', true],
      ],
    );
    const url = versionsUrl('departments', seeded.id);
    const html = await text(await c.get(url));
    expect(html).toContain('Baseline: the record as it was before its first recorded change');
    expect(html).toContain('by system');
    expect(html.match(/Restore this version/g)).toHaveLength(1);

    const [baseline] = await versionsOf('departments', seeded.id);
    const done = await c.postForm(url, { intent: 'restore', versionId: String(baseline.id), confirmed: '1' });
    expect(done.status).toBe(302);
    const row = await db()
      .selectFrom('departments')
      .select(['name', 'description'])
      .where('id', '=', seeded.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ name: seeded.name, description: seeded.description });
  });

  it('a page shows 10 entries and each its first 5 changes, long values cut short, so it stays small whatever the entries hold', async () => {
    const { c, user } = await signedIn({ role: 'admin' });
    const recordId = 900_000 + Math.floor(Math.random() * 1000);
    const wide = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`field${i}`, { old: null, new: `${'x'.repeat(300)} ${i}` }]),
    );
    await db()
      .insertInto('auditLogs')
      .values(
        Array.from({ length: 30 }, (_, i) => ({
          tableName: 'budgets',
          recordId,
          action: 'create',
          userId: user.id,
          timestamp: new Date(Date.now() - i * 1000).toISOString(),
          companyId: null,
          oldData: null,
          newData: null,
          changes: JSON.stringify(wide) as never,
          ipAddress: null,
          userAgent: null,
          reason: null,
          sessionId: null,
          actorLabel: null,
        })),
      )
      .execute();
    const html = await text(await c.get(`/audit-trail?tableName=budgets&recordId=${recordId}`));
    expect(html).toContain('Showing 1 to 10 of 30 results');
    expect((html.match(/data-testid="audit-entry"/g) ?? []).length).toBe(10);
    expect((html.match(/data-testid="change"/g) ?? []).length).toBe(50);
    expect(html).toContain('and 15 more changes (in the record’s history)');
    expect(html).toContain(`${'x'.repeat(80)}… (302 characters)`);
    expect(html.length).toBeLessThan(60_000);
  });

  it('the versions tab: a prompt, an empty record, and the versions with the current one marked', async () => {
    const { c } = await signedIn({ role: 'admin' });
    expect(await text(await c.get('/audit-trail?tab=versions'))).toContain(
      'Select a table and record ID to view version history',
    );
    expect(await text(await c.get('/audit-trail?tab=versions&tableName=departments'))).toContain(
      'Select a table and record ID to view version history',
    );
    expect(await text(await c.get(versionsUrl('departments', 999_999)))).toContain(
      'No version history found for this record',
    );
    const name = tag('Versions');
    const id = await createDepartment(c, name);
    await put(c, `/api/departments/${id}`, { name: `${name} v2` });
    const html = await text(await c.get(versionsUrl('departments', id)));
    expect(html).toContain('Version 2');
    expect(html).toContain('Version 1');
    expect(html.indexOf('Version 2')).toBeLessThan(html.indexOf('Version 1'));
    // Each version shows the id `finhub audit restore` takes.
    const versionIds = (await (await c.get(`/api/data-versions?tableName=departments&recordId=${id}`)).json()) as {
      id: number;
      version: number;
    }[];
    for (const v of versionIds)
      expect(html).toMatch(new RegExp(`Version ${v.version}</span>.{0,200}>id ${v.id}</span>`, 's'));
    expect(html.match(/>Current<\/span>/g)).toHaveLength(1);
    expect(html).toContain(`&quot;name&quot;: &quot;${name}&quot;`);
    // Version 1 against the current one, side by side; only the older version may be restored.
    expect(html).toContain('This version');
    expect(html.match(/Restore this version/g)).toHaveLength(1);
  });

  it('restores an older version after the confirmation step, with a toast', async () => {
    const { c } = await signedIn({ role: 'admin' });
    const name = tag('Restore');
    const id = await createDepartment(c, name);
    await put(c, `/api/departments/${id}`, { name: `${name} changed` });
    const [v1] = await versionsOf('departments', id);
    const url = versionsUrl('departments', id);

    const step = await c.postForm(url, { intent: 'restore', versionId: String(v1.id) });
    expect(step.status).toBe(200);
    const stepHtml = await text(step);
    expect(stepHtml).toContain('Restore version 1 of this record?');
    expect(stepHtml).toContain('data-testid="confirm-restore"');
    expect((await (await c.get(`/api/departments/${id}`)).json()).name).toBe(`${name} changed`);

    const done = await c.postForm(url, { intent: 'restore', versionId: String(v1.id), confirmed: '1' });
    expect(done.status).toBe(302);
    expect(done.headers.get('Location')).toBe(url);
    const after = await text(await c.get(url));
    expect(after).toContain('Version 1 restored');
    expect(after).toContain('Version 3');
    expect((await (await c.get(`/api/departments/${id}`)).json()).name).toBe(name);
    const versions = await versionsOf('departments', id);
    expect(versions.map((v) => [v.version, v.action, v.isActive])).toEqual([
      [1, 'create', false],
      [2, 'update', false],
      [3, 'update', true],
    ]);
    // The current version is not restored again.
    const again = await c.postForm(url, { intent: 'restore', versionId: String(versions[2].id), confirmed: '1' });
    expect(again.status).toBe(409);
    expect(await text(again)).toContain('This is already the current version');

    // The reason the restore wrote: English for the /api, the reader's language on the trail.
    const log = `/audit-trail?tableName=departments&recordId=${id}`;
    expect(await text(await c.get(log))).toContain('Reason: Restored version 1');
    expect((await c.request('/api/user-settings', { method: 'PUT', json: { language: 'es' } })).status).toBe(200);
    expect(await text(await c.get(log))).toContain('Motivo: Versión 1 restaurada');
  });

  it('restoring the last version of a deleted record brings it back with its id', async () => {
    const { c } = await signedIn({ role: 'admin' });
    const name = tag('Deleted');
    const id = await createDepartment(c, name);
    expect((await c.request(`/api/departments/${id}`, { method: 'DELETE' })).status).toBeLessThan(300);
    expect((await c.get(`/api/departments/${id}`)).status).toBe(404);
    const url = versionsUrl('departments', id);
    const html = await text(await c.get(url));
    // The delete is the current version, and it is the one offered (with the older create).
    expect(html.match(/Restore this version/g)).toHaveLength(2);
    const deleted = (await versionsOf('departments', id)).find((v) => v.action === 'delete')!;
    const done = await c.postForm(url, { intent: 'restore', versionId: String(deleted.id), confirmed: '1' });
    expect(done.status).toBe(302);
    expect(await text(await c.get(url))).toContain('Version 2 restored');
    const back = await c.get(`/api/departments/${id}`);
    expect(back.status).toBe(200);
    expect((await back.json()).name).toBe(name);
  });

  it("a restore that today's rules refuse (its department is gone) shows the reason and changes nothing", async () => {
    const { c } = await signedIn({ role: 'admin' });
    const gone = await createDepartment(c, tag('Gone'));
    const kept = await createDepartment(c, tag('Kept'));
    const created = await c.post('/api/expense-categories', {
      companyId: VULT,
      departmentId: gone,
      name: tag('Category'),
    });
    expect(created.status).toBe(201);
    const category = (await created.json()).id;
    await put(c, `/api/expense-categories/${category}`, {
      companyId: VULT,
      departmentId: kept,
      name: tag('Category moved'),
    });
    expect((await c.request(`/api/departments/${gone}`, { method: 'DELETE' })).status).toBeLessThan(300);
    const [v1] = await versionsOf('expense_categories', category);
    const refused = await c.postForm(versionsUrl('expense_categories', category), {
      intent: 'restore',
      versionId: String(v1.id),
      confirmed: '1',
    });
    expect(refused.status).toBe(400);
    const html = await text(refused);
    expect(html).toContain('data-testid="restore-error"');
    expect(html).toContain('Department not found');
    expect((await (await c.get(`/api/expense-categories/${category}`)).json()).departmentId).toBe(kept);
    expect(await versionsOf('expense_categories', category)).toHaveLength(2);
  });

  it("an admin limited to Vult sees Vult's entries and none of One Network's", async () => {
    const { c } = await signedIn({ role: 'admin' });
    const projection = (companyId: number) => ({
      companyId,
      source: tag('Source'),
      amount: 100,
      period: 'monthly',
      startDate: '2026-01-01',
      endDate: '2026-01-31',
    });
    const vult = (await (await c.post('/api/revenue-projections', projection(VULT))).json()).id;
    const oneNetwork = (await (await c.post('/api/revenue-projections', projection(ONE_NETWORK))).json()).id;
    const all = await text(await c.get('/audit-trail?tableName=revenue_projections'));
    expect(all).toContain(`Record #${vult}</span>`);
    expect(all).toContain(`Record #${oneNetwork}</span>`);

    const scoped = (await signedIn({ role: 'admin', companyId: VULT })).c;
    const html = await text(await scoped.get('/audit-trail?tableName=revenue_projections'));
    expect(html).toContain(`Record #${vult}</span>`);
    expect(html).not.toContain(`Record #${oneNetwork}</span>`);
    expect(await text(await scoped.get(versionsUrl('revenue_projections', oneNetwork)))).toContain(
      'No version history found for this record',
    );
  });

  it('the anomalies tab: the empty text, then a recorded anomaly with its user, count and window', async () => {
    const { c, user } = await signedIn({ role: 'admin' });
    const empty = await text(await c.get('/audit-trail?tab=anomalies'));
    expect(empty).toContain('Security Anomalies');
    expect(empty).toContain('No anomalies detected');
    await db()
      .insertInto('securityAnomalies')
      .values({
        userId: user.id,
        username: user.username,
        anomalyType: 'multiple_deletes',
        deleteCount: 7,
        windowStart: '2026-03-01T10:00:00.000Z',
        windowEnd: '2026-03-01T10:08:00.000Z',
        description: ANOMALY_TEXT,
        createdAt: '2026-03-01T10:15:00.000Z',
      })
      .execute();
    const html = await text(await c.get('/audit-trail?tab=anomalies'));
    expect(html).toContain(ANOMALY_TEXT);
    expect(html).toContain(user.username);
    expect(html).toContain('7 deletes');
    expect(html).toContain('03/01/2026, 10:00 AM UTC – 03/01/2026, 10:08 AM UTC');
    expect(html).toContain('Detected 03/01/2026, 10:15 AM UTC');
    expect(html).not.toContain('data-testid="anomaly-deleted"');

    // What the window's deletes removed, per table as its screen is titled.
    for (const [tableName, minute] of [
      ['actual_expenses', 1],
      ['actual_expenses', 2],
      ['expense_categories', 3],
    ] as const) {
      await db()
        .insertInto('auditLogs')
        .values({
          tableName,
          recordId: 1,
          action: 'delete',
          userId: user.id,
          timestamp: `2026-03-01T10:0${minute}:00.000Z`,
        })
        .execute();
    }
    expect(await text(await c.get('/audit-trail?tab=anomalies'))).toContain(
      'Deleted: Actual Expenses (2), Expense Categories (1)',
    );
    const [api] = await (await c.get('/api/audit-logs/anomalies')).json();
    expect(api.deleted).toEqual([
      { table: 'Actual Expenses', count: 2 },
      { table: 'Expense Categories', count: 1 },
    ]);
  });

  it('with more users than a list can hold, the user filter is a text box taking a username or e-mail', async () => {
    const { c, user } = await signedIn({ role: 'admin' });
    const id = await createDepartment(c, tag('ByName'));
    while ((await db().selectFrom('users').select('id').execute()).length <= USER_CHOICES_MAX)
      await createTestUser(db());
    const listed = await text(await c.get('/audit-trail'));
    expect(listed).toContain('id="audit-user" type="text" name="userId"');
    expect(listed).not.toContain('<option value="">All users</option>');
    for (const name of [user.username, user.email.toUpperCase(), String(user.id)]) {
      const html = await text(
        await c.get(`/audit-trail?userId=${encodeURIComponent(name)}&tableName=departments&recordId=${id}`),
      );
      expect(html, name).toContain('Showing 1 to 1 of 1 results');
      expect(html, name).toContain(`value="${user.username}"`);
    }
    const nobody = await text(await c.get('/audit-trail?userId=nobody-at-all'));
    expect(nobody).toContain('No user matches “nobody-at-all”');
  });
});
