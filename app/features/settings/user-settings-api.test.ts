// GET/PUT /api/user-settings over real HTTP, on every test dialect.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../platform/session/user-settings-row.ts';
import { TEST_DIALECTS } from '../../../test/database.ts';
import { useTestServer, type TestClient } from '../../../test/server.ts';
import { createTestUser, TEST_PASSWORD } from '../../../test/users.ts';
import { catalogs } from '../shell/catalogs.server.ts';

const put = (c: TestClient, body: unknown) => c.request('/api/user-settings', { method: 'PUT', json: body });

describe.each(TEST_DIALECTS)('/api/user-settings on %s', (dialect) => {
  const { db, client } = useTestServer(dialect);

  async function signedIn() {
    const user = await createTestUser(db());
    const c = client();
    await c.login(user.email, TEST_PASSWORD);
    return { user, c };
  }
  const stored = (userId: number) =>
    db().selectFrom('userSettings').selectAll().where('userId', '=', userId).executeTakeFirst();

  it('GET creates the record with the stored defaults on first read, once', async () => {
    const { user, c } = await signedIn();
    expect(await stored(user.id)).toBeUndefined();
    const response = await c.get('/api/user-settings');
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ ...DEFAULT_SETTINGS, userId: user.id });
    expect(body.theme).toBe('light');
    expect(body.sessionTimeout).toBe(30);
    expect(body.autoLogout).toBe(480);
    expect(body.dashboardLayout).toEqual({
      cards: ['stats', 'activity', 'health'],
      autoRefresh: true,
      refreshInterval: 30,
    });
    expect(body.notificationTypes).toEqual({ system: true, financial: true, api: true, user: true, security: true });
    expect(await stored(user.id)).toBeDefined();

    const again = await (await c.get('/api/user-settings')).json();
    expect(again.id).toBe(body.id);
    const rows = await db().selectFrom('userSettings').select('id').where('userId', '=', user.id).execute();
    expect(rows).toHaveLength(1);
    // The creation is audited.
    const audit = await db()
      .selectFrom('auditLogs')
      .selectAll()
      .where('tableName', '=', 'user_settings')
      .where('recordId', '=', body.id)
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['create']);
  });

  it('PUT one field changes only that field and is audited', async () => {
    const { user, c } = await signedIn();
    const response = await put(c, { theme: 'dark' });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ ...DEFAULT_SETTINGS, theme: 'dark' });
    expect((await stored(user.id))!.theme).toBe('dark');
    expect((await (await c.get('/api/user-settings')).json()).theme).toBe('dark');

    const updates = await db()
      .selectFrom('auditLogs')
      .selectAll()
      .where('tableName', '=', 'user_settings')
      .where('action', '=', 'update')
      .where('recordId', '=', body.id)
      .execute();
    expect(updates).toHaveLength(1);
    expect(updates[0].userId).toBe(user.id);
    const changes = typeof updates[0].changes === 'string' ? JSON.parse(updates[0].changes) : updates[0].changes;
    expect(changes).toEqual({ theme: { old: 'light', new: 'dark' } });
  });

  it('PUT several fields at once; the settings page\'s "auto" theme is stored as "system"', async () => {
    const { c } = await signedIn();
    const body = await (
      await put(c, {
        theme: 'auto',
        language: 'de',
        sessionTimeout: 0,
        autoLogout: 1440,
        defaultCurrency: 'EUR',
        compactSidebar: true,
      })
    ).json();
    expect(body).toMatchObject({
      theme: 'system',
      language: 'de',
      sessionTimeout: 0,
      autoLogout: 1440,
      defaultCurrency: 'EUR',
      compactSidebar: true,
    });
  });

  it('accepts notificationTypes and dashboardLayout as objects or as JSON text (partial objects merge)', async () => {
    const { c } = await signedIn();
    let body = await (
      await put(c, { notificationTypes: { system: false, financial: true, api: true, user: true, security: false } })
    ).json();
    expect(body.notificationTypes).toEqual({ system: false, financial: true, api: true, user: true, security: false });

    body = await (await put(c, { notificationTypes: JSON.stringify({ system: true, api: false }) })).json();
    expect(body.notificationTypes).toEqual({ system: true, financial: true, api: false, user: true, security: false });

    body = await (await put(c, { dashboardLayout: { autoRefresh: false, refreshInterval: 300 } })).json();
    expect(body.dashboardLayout).toEqual({
      cards: ['stats', 'activity', 'health'],
      autoRefresh: false,
      refreshInterval: 300,
    });

    const response = await put(c, {
      dashboardLayout: JSON.stringify({ cards: ['stats'], autoRefresh: true, refreshInterval: 15 }),
    });
    expect(response.status).toBe(200);
    expect((await response.json()).dashboardLayout).toEqual({
      cards: ['stats'],
      autoRefresh: true,
      refreshInterval: 15,
    });
  });

  it('an unknown field is a 400 with a field error and changes nothing', async () => {
    const { user, c } = await signedIn();
    await c.get('/api/user-settings');
    const before = await stored(user.id);
    const response = await put(c, { theme: 'dark', favouriteColour: 'green' });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.message).toBe('Invalid data');
    expect(body.errors).toEqual([{ field: 'favouriteColour', message: expect.stringContaining('Unknown setting') }]);
    expect(await stored(user.id)).toEqual(before);
  });

  it('values outside the lists are 400 with field errors and the database is unchanged', async () => {
    const { user, c } = await signedIn();
    await put(c, { language: 'fr' });
    const before = await stored(user.id);
    const auditBefore = await db()
      .selectFrom('auditLogs')
      .select('id')
      .where('tableName', '=', 'user_settings')
      .execute();

    for (const [payload, field] of [
      [{ theme: 'purple' }, 'theme'],
      [{ language: 'it' }, 'language'],
      [{ timezone: 'Asia/Tokyo' }, 'timezone'],
      [{ dateFormat: 'dd.MM.yyyy' }, 'dateFormat'],
      [{ timeFormat: '36h' }, 'timeFormat'],
      [{ sessionTimeout: 45 }, 'sessionTimeout'],
      [{ autoLogout: '480' }, 'autoLogout'],
      [{ defaultCurrency: 'JPY' }, 'defaultCurrency'],
      [{ emailNotifications: 'yes' }, 'emailNotifications'],
      [{ dashboardLayout: { refreshInterval: 10 } }, 'dashboardLayout.refreshInterval'],
      [{ dashboardLayout: { colour: 'red' } }, 'dashboardLayout.colour'],
      [{ notificationTypes: { marketing: true } }, 'notificationTypes.marketing'],
      [{ notificationTypes: '{not json' }, 'notificationTypes'],
      // One bad field spoils the whole update.
      [{ theme: 'dark', language: 'xx' }, 'language'],
    ] as const) {
      const response = await put(c, payload);
      expect(response.status, JSON.stringify(payload)).toBe(400);
      const body = await response.json();
      expect(body.message).toBe('Invalid data');
      expect(
        body.errors.map((e: { field: string }) => e.field),
        JSON.stringify(payload),
      ).toContain(field);
    }
    expect(await stored(user.id)).toEqual(before);
    const auditAfter = await db()
      .selectFrom('auditLogs')
      .select('id')
      .where('tableName', '=', 'user_settings')
      .execute();
    expect(auditAfter).toHaveLength(auditBefore.length);
  });

  it('malformed JSON and a non-object body are 400, never 500', async () => {
    const { c } = await signedIn();
    const bad = await c.request('/api/user-settings', {
      method: 'PUT',
      body: '{"theme":',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    const array = await put(c, ['theme', 'dark']);
    expect(array.status).toBe(400);
  });

  it('signed out: 401 Not authenticated for GET and PUT', async () => {
    const c = client();
    const get = await c.get('/api/user-settings');
    expect(get.status).toBe(401);
    expect(await get.json()).toEqual({ message: 'Not authenticated' });
    const response = await put(c, { theme: 'dark' });
    expect(response.status).toBe(401);
  });

  it('other methods are 405', async () => {
    const { c } = await signedIn();
    const response = await c.post('/api/user-settings', { theme: 'dark' });
    expect(response.status).toBe(405);
  });

  it('the session timeout setting is the idle timeout; 0 means never', async () => {
    const { user, c } = await signedIn();
    expect((await put(c, { sessionTimeout: 0 })).status).toBe(200);
    // Make the session look idle for a day.
    await db()
      .updateTable('userSessions')
      .set({ lastSeenAt: new Date(Date.now() - 86_400_000).toISOString() })
      .where('userId', '=', user.id)
      .execute();
    expect((await c.get('/api/auth/me')).status).toBe(200);
    expect((await put(c, { sessionTimeout: 15 })).status).toBe(200);
    await db()
      .updateTable('userSessions')
      .set({ lastSeenAt: new Date(Date.now() - 16 * 60_000).toISOString() })
      .where('userId', '=', user.id)
      .execute();
    expect((await c.get('/api/auth/me')).status).toBe(401);
  });

  describe('the screens behind it (forms without JavaScript)', () => {
    it('the theme is applied to <html> in the server render', async () => {
      const { c } = await signedIn();
      expect(await (await c.get('/')).text()).toMatch(/<html lang="en" class="h-full">/);
      await put(c, { theme: 'dark', compactSidebar: true, animations: false });
      expect(await (await c.get('/')).text()).toMatch(
        /<html lang="en" class="h-full dark compact-sidebar reduce-motion">/,
      );
      await put(c, { theme: 'system' });
      expect(await (await c.get('/profile')).text()).toMatch(
        /<html lang="en" class="h-full theme-system compact-sidebar reduce-motion">/,
      );
    });

    it('a settings form saves its tab and redirects with the toast; a crafted bad value is a 400 and changes nothing', async () => {
      const { user, c } = await signedIn();
      const saved = await c.postForm('/settings?tab=security', {
        intent: 'security',
        securityAlerts: 'on',
        sessionTimeout: '1440',
        autoLogout: '60',
      });
      expect(saved.status).toBe(302);
      expect(saved.headers.get('Location')).toBe('/settings?tab=security');
      expect(await stored(user.id)).toMatchObject({ securityAlerts: true, sessionTimeout: 1440, autoLogout: 60 });

      const before = await stored(user.id);
      const bad = await c.postForm('/settings?tab=preferences', {
        intent: 'preferences',
        language: 'xx',
        timezone: 'UTC',
        dateFormat: 'MM/dd/yyyy',
        timeFormat: '12h',
        defaultCurrency: 'USD',
        refreshInterval: '30',
      });
      expect(bad.status).toBe(400);
      const html = await bad.text();
      expect(html).toContain('Error updating settings');
      expect(html).toContain('Language must be one of');
      expect(await stored(user.id)).toEqual(before);
    });

    it('a new language applies to the page the save leads to, its toast included (docs/languages.md)', async () => {
      const { c } = await signedIn();
      const saved = await c.postForm('/settings?tab=preferences', {
        intent: 'preferences',
        language: 'de',
        timezone: 'Europe/Berlin',
        dateFormat: 'dd/MM/yyyy',
        timeFormat: '24h',
        defaultCurrency: 'EUR',
        refreshInterval: '30',
      });
      expect(saved.status).toBe(302);
      const html = await (await c.get(saved.headers.get('Location')!)).text();
      const t = catalogs.translator('de');
      expect(html).toMatch(/<html lang="de"/);
      expect(html).toContain(t('Settings updated'));
      expect(html).toContain(t('Germany (Europe/Berlin)'));
      expect(html).toContain(t('Amounts are kept and shown in US dollars, the books’ currency; nothing is converted.'));
    });

    it('Download report is a JSON attachment; Clear cache answers Clear-Site-Data', async () => {
      const { user, c } = await signedIn();
      const report = await c.get('/settings-report');
      expect(report.status).toBe(200);
      expect(report.headers.get('Content-Disposition')).toMatch(
        /^attachment; filename="finhub-report-\d{4}-\d{2}-\d{2}\.json"$/,
      );
      const body = await report.json();
      expect(body).toMatchObject({
        app: { version: expect.any(String) },
        database: { dialect, reachable: true },
        user: { id: user.id },
      });
      expect(JSON.stringify(body)).not.toMatch(/passwordHash|token/i);

      const cleared = await c.postForm('/settings?tab=system', { intent: 'clear-cache' });
      expect(cleared.status).toBe(302);
      expect(cleared.headers.get('Clear-Site-Data')).toBe('"cache"');

      expect((await client().get('/settings-report')).status).toBe(302);
    });
  });
});
