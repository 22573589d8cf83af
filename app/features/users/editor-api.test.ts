// The editor calls and screens over real HTTP on every test dialect: an editor's own metrics and
// activities after real writes through the API, PATCH through an activity (the row changes, a
// stranger's activity is a 404), Editor Statistics for admins only, and both screens rendered,
// the editors a page at a time.
import { describe, expect, it } from 'vitest';
import { EDITORS_PAGE_SIZE } from './editor-stats-screen.tsx';
import { TEST_DIALECTS } from '../../../test/database.ts';
import { useTestServer } from '../../../test/server.ts';
import { createTestUser } from '../../../test/users.ts';

describe.each(TEST_DIALECTS)('editor calls on %s', (dialect) => {
  const { db, signedIn } = useTestServer(dialect);

  it('an editor’s writes show in their metrics and feed; PATCH edits the row behind an activity', async () => {
    const company = await db().selectFrom('companies').select(['id', 'name']).orderBy('id').executeTakeFirstOrThrow();
    const { user, c } = await signedIn({ role: 'editor', companyId: company.id });
    // A category and its own department (a category of another department is refused).
    const category = await db()
      .selectFrom('expenseCategories')
      .select(['id', 'departmentId'])
      .where('companyId', '=', company.id)
      .where('departmentId', 'is not', null)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const created = await c.request('/api/actual-expenses', {
      method: 'POST',
      json: {
        departmentId: category.departmentId,
        categoryId: category.id,
        amount: 42.5,
        expenseDate: '2026-11-02',
        description: 'Taxi',
      },
    });
    expect(created.status).toBe(201);
    const row = await created.json();

    const metrics = await (await c.get('/api/editor/metrics')).json();
    expect(metrics).toMatchObject({
      totalEntries: 1,
      totalEdits: 0,
      week: { entries: 1 },
      companyAccess: [company.name],
      goals: { entries: { target: 50, actual: 1 } },
    });
    const activities = await (await c.get('/api/editor/activities')).json();
    expect(activities[0]).toMatchObject({
      action: 'create',
      tableName: 'actual_expenses',
      recordId: row.id,
      amount: 42.5,
      company: company.name,
      editUrl: `/actual-expenses?edit=${row.id}`,
      userId: user.id,
    });
    expect((await c.get('/api/editor/activities?limit=0')).status).toBe(400);

    const patched = await c.request(`/api/editor/activities/${activities[0].id}`, {
      method: 'PATCH',
      json: { description: 'Taxi to the airport' },
    });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ id: row.id, description: 'Taxi to the airport' });
    const bad = await c.request(`/api/editor/activities/${activities[0].id}`, {
      method: 'PATCH',
      json: { amount: 'lots' },
    });
    expect(bad.status).toBe(400);
    const { c: other } = await signedIn({ role: 'editor', companyId: company.id });
    expect(
      (
        await other.request(`/api/editor/activities/${activities[0].id}`, {
          method: 'PATCH',
          json: { description: 'x' },
        })
      ).status,
    ).toBe(404);

    const html = await (await c.get('/editor-dashboard')).text();
    for (const text of [
      'My Dashboard',
      'Total Entries',
      'Total Edits',
      'Weekly Hours',
      'Avg Session',
      'Activity Feed',
      'Taxi to the airport',
      `href="/actual-expenses?edit=${row.id}"`,
    ])
      expect(html, text).toContain(text);
    const goals = await (await c.get('/editor-dashboard?tab=goals')).text();
    expect(goals).toContain('1 of 50');
    expect(goals).not.toContain('94.2');
    const insights = await (await c.get('/editor-dashboard?tab=insights')).text();
    expect(insights).toContain('Department performance');
  });

  it('Editor Statistics: admins get the ranking and the feed; editors and viewers are refused', async () => {
    const { c: editor } = await signedIn({ role: 'editor' });
    expect((await editor.get('/api/admin/editor-stats')).status).toBe(403);
    const refused = await editor.get('/editor-stats');
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain(
      'Unable to load editor statistics. Please check your permissions or contact support.',
    );
    expect((await editor.request('/api/user-settings', { method: 'PUT', json: { language: 'fr' } })).status).toBe(200);
    expect(await (await editor.get('/editor-stats')).text()).toContain(
      'Impossible de charger les statistiques des éditeurs. Vérifiez vos autorisations ou contactez l’assistance.',
    );
    const { c } = await signedIn({ role: 'admin' });
    const stats = await (await c.get('/api/admin/editor-stats')).json();
    const editors = await db().selectFrom('users').select('id').where('role', '=', 'editor').execute();
    expect(stats.summary.totalEditors).toBe(editors.length);
    expect(stats.editors).toHaveLength(editors.length);
    expect(stats.distribution.map((d: { level: string }) => d.level)).toEqual(['high', 'medium', 'low', 'inactive']);
    expect(Array.isArray(await (await c.get('/api/admin/editor-activity-history')).json())).toBe(true);
    for (const [tab, text] of [
      ['overview', 'Top Performers'],
      ['performance', 'Activity distribution'],
      ['activity', 'Recent editor activity'],
      ['analytics', 'Edit ratio'],
    ]) {
      const html = await (await c.get(`/editor-stats?tab=${tab}`)).text();
      expect(html, tab).toContain('Editor Statistics');
      expect(html, tab).toContain(text);
      // Entries and edits are the activity-window job's counts, and the page says when they were made.
      expect(html.replace(/<!-- -->/g, ''), tab).toMatch(
        new RegExp(
          `data-testid="editor-stats-computed">Entries and edits, computed <time dateTime="${stats.computedAt}">`,
        ),
      );
    }
  });

  it('Editor Statistics lists the editors a page at a time, with page links', async () => {
    while (
      (await db().selectFrom('users').select('id').where('role', '=', 'editor').execute()).length <=
      EDITORS_PAGE_SIZE.overview
    )
      await createTestUser(db(), { role: 'editor' });
    const total = (await db().selectFrom('users').select('id').where('role', '=', 'editor').execute()).length;
    const { c } = await signedIn({ role: 'admin' });
    const page = async (query: string) =>
      (await (await c.get(`/editor-stats?${query}`)).text()).replace(/<!-- -->/g, '');
    const first = await page('tab=overview');
    const rows = (html: string) =>
      (html.match(/data-testid="editor-ranking"[\s\S]*?<\/ol>/)?.[0].match(/<li /g) ?? []).length;
    expect(rows(first)).toBe(EDITORS_PAGE_SIZE.overview);
    expect(first).toContain(`of ${total} results`);
    expect(first).toContain('page=2');
    const second = await page('tab=overview&page=2');
    expect(rows(second)).toBe(total - EDITORS_PAGE_SIZE.overview);
    expect(second).toContain(`>${EDITORS_PAGE_SIZE.overview + 1}<`);
    const cards = await page('tab=performance');
    expect((cards.match(/role="progressbar"/g) ?? []).length).toBe(EDITORS_PAGE_SIZE.performance);
    // A tab without the list carries none of it (the top performers aside).
    const ranked = (await (await c.get('/api/admin/editor-stats')).json()).editors as { email: string }[];
    const analytics = await page('tab=analytics');
    expect(analytics).toContain('Edit ratio');
    expect(analytics).not.toContain(ranked[ranked.length - 1].email);
  });
});
