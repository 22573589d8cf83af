// The dashboard over real HTTP on every test dialect: GET /api/dashboard (sign-in needed; the
// figures an admin and a scoped viewer may see), the server-rendered screen (tiles, lists,
// charts as SVG with their numbers) and the landing page's stats row from the data.
import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/database.ts';
import { useTestServer } from '../../../test/server.ts';

describe.each(TEST_DIALECTS)('dashboard over HTTP on %s', (dialect) => {
  const { db, client, signedIn } = useTestServer(dialect);

  it('GET /api/dashboard needs a session', async () => {
    const response = await client().get('/api/dashboard');
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: 'Not authenticated' });
  });

  it('an admin gets userAccess and every figure; a scoped viewer only theirs', async () => {
    const { c } = await signedIn({ role: 'admin' });
    const body = await (await c.get('/api/dashboard')).json();
    expect(body.userAccess).toMatchObject({
      companyName: 'All Companies',
      companyType: 'all',
      role: 'admin',
      accessLevel: 'Full Access',
      permissions: { canManageUsers: true },
    });
    const users = await db().selectFrom('users').select('isActive').execute();
    expect(body.userStats).toEqual({ activeUsers: users.filter((u) => u.isActive).length, totalUsers: users.length });
    expect(body.systemHealth.overall).toMatch(/^(healthy|warning|critical)$/);
    expect(body.lastBackup).toEqual({ backup: null });
    expect(body.recentActivity.length).toBeGreaterThan(0);
    expect(body.recentActivity.length).toBeLessThanOrEqual(8);
    expect(body.apiActivity).toEqual([]);
    expect(body.charts.months).toHaveLength(12);

    const company = await db().selectFrom('companies').select(['id', 'name']).orderBy('id').executeTakeFirstOrThrow();
    const { c: viewer } = await signedIn({ role: 'viewer', companyId: company.id });
    const mine = await (await viewer.get('/api/dashboard')).json();
    expect(mine.userAccess).toMatchObject({
      companyName: company.name,
      role: 'viewer',
      accessLevel: 'Read Only',
      availableCompanies: [expect.objectContaining({ id: company.id })],
    });
    expect(mine).toMatchObject({
      userStats: null,
      api: null,
      systemHealth: null,
      lastBackup: null,
      recentActivity: null,
      apiActivity: null,
      alerts: null,
    });
    expect(mine.charts.companyId).toBe(company.id);
  });

  it('System Health is System Monitoring’s verdict: the same sample gives the same answer on both /api calls and both screens', async () => {
    const { c } = await signedIn({ role: 'admin' });
    // The web process samples every 10 s: read both until they judge the same sample.
    let dashboard: { timestamp: string; overall: string; reasons: string[] } | null = null;
    let monitoring: { timestamp: string; overall: string; reasons: string[] } | null = null;
    for (let i = 0; i < 5 && (!dashboard || dashboard.timestamp !== monitoring?.timestamp); i++) {
      dashboard = (await (await c.get('/api/dashboard')).json()).systemHealth;
      const health = await (await c.get('/api/system/health')).json();
      monitoring = { timestamp: health.timestamp, overall: health.overall, reasons: health.reasons };
    }
    expect(dashboard).toEqual(monitoring);

    /** A tile's verdict and the line under it, as text. */
    const tile = (html: string, testId: string) => {
      const rest = html.slice(html.indexOf(`data-testid="${testId}"`));
      const [, value, detail] = rest.match(
        /<p class="mt-2 text-2xl[^"]*">(.*?)<\/p><p class="mt-1 text-xs[^"]*">(.*?)<\/p>/,
      )!;
      return `${value} · ${detail}`.replace(/<!-- -->/g, '');
    };
    let home = '';
    let screen = '';
    for (let i = 0; i < 5 && (!home || home !== screen); i++) {
      home = tile(await (await c.get('/')).text(), 'tile-system-health');
      screen = tile(await (await c.get('/system-monitoring')).text(), 'tile-overall');
    }
    expect(home).toBe(screen);
    expect(home).toMatch(/^(Healthy|Warning|Critical) · /);
    expect(home).not.toMatch(/Issues|anomal/);
    expect((await (await c.get('/')).text()).match(/<a[^>]*data-testid="tile-system-health"[^>]*>/)![0]).toContain(
      'href="/system-monitoring"',
    );
  });

  it('the screen: the tiles and lists the user may see, and the charts as SVG with a table', async () => {
    const { c } = await signedIn({ role: 'admin' });
    const html = await (await c.get('/')).text();
    for (const text of [
      'Last updated:',
      'Your Access Level',
      'Active Users',
      'API Success Rate',
      'System Health',
      'Last Backup',
      'Recent Activity',
      'API Integration Activity',
      'No API activity',
      'Budget vs actual expenses',
      'Projected vs actual revenue',
    ]) {
      expect(html, text).toContain(text);
    }
    expect(html).toContain('href="/user-management"');
    expect(html).toContain('href="/backup-recovery"');
    expect(html).toMatch(/<svg[^>]*role="img"[^>]*aria-labelledby="budget-chart-title"/);
    expect(html).not.toContain('System Alerts');

    const { c: viewer } = await signedIn({ role: 'viewer' });
    const plain = await (await viewer.get('/')).text();
    expect(plain).toContain('Your Access Level');
    for (const text of ['Active Users', 'API Success Rate', 'Recent Activity', 'API Integration Activity'])
      expect(plain, text).not.toContain(text);
    expect(plain).toContain('Budget vs actual expenses');
  });

  it('the landing page states the counts from the tables, and no uptime before it is measured', async () => {
    const html = await (await client().get('/')).text();
    const companies = (await db().selectFrom('companies').select('id').execute()).length;
    const departments = (await db().selectFrom('departments').select('id').execute()).length;
    const stats = html.slice(
      html.indexOf('data-testid="landing-stats"'),
      html.indexOf('</dl>', html.indexOf('data-testid="landing-stats"')),
    );
    expect(stats).toContain(`>${companies}<`);
    expect(stats).toContain(`>${departments}<`);
    expect(stats).toContain('Data points');
    expect(stats).not.toContain('Uptime');
    expect(stats).not.toContain('99.9%');
  });
});
