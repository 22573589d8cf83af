// System Monitoring and System Settings over real HTTP on every test dialect: a genuine server
// fault (a table taken away under a running server) answered 500 and recorded once per
// fingerprint with its user, from an /api call and from a screen; the health call with the
// app's own traffic figures; Resolve through the API (400, 409) and through the screen's form
// (the spec's toast); the recovery actions; System Settings' real facts; admins only; the disk
// measured on a server started without its DATA_DIR.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { TEST_DIALECTS } from '../../../test/database.ts';
import { waitFor } from '../../../test/wait.ts';
import { expectAnswer } from '../../../test/assertions.ts';
import { RecoveryActionListAnswer } from './answers.ts';
import { useTestServer, type TestClient } from '../../../test/server.ts';

const form = (c: TestClient, path: string, fields: Record<string, string>) => c.postForm(path, fields);

describe.each(TEST_DIALECTS)('system monitoring over HTTP on %s', (dialect) => {
  const { db, signedIn } = useTestServer(dialect);

  /** Runs `during` while the notifications table is renamed away, so reading it fails for real. */
  async function withoutNotifications<T>(during: () => Promise<T>): Promise<T> {
    await sql`alter table notifications rename to notifications_away`.execute(db());
    try {
      return await during();
    } finally {
      await sql`alter table notifications_away rename to notifications`.execute(db());
    }
  }

  it('a server fault is a 500 without details, recorded once per fingerprint with the users it hit', async () => {
    const { c: admin } = await signedIn({ role: 'admin' });
    const { user: viewer, c: viewerClient } = await signedIn({ role: 'viewer' });
    const [a, b, page] = await withoutNotifications(async () => [
      await admin.get('/api/notifications/count'),
      await viewerClient.get('/api/notifications/count'),
      await viewerClient.get('/notifications'),
    ]);
    expect(a.status).toBe(500);
    expect(await a.json()).toEqual({ message: 'Internal server error' });
    expect(b.status).toBe(500);
    expect(page.status).toBe(500);

    // Faults are recorded after their 500 is sent: list once every one of them has landed (the
    // screen's, from each loader that failed, the API's twice), when the total and the rows agree.
    type Recorded = {
      id: number;
      endpoint: string;
      method: string;
      occurrenceCount: number;
      affectedUsers: number;
      stack: string | null;
    };
    const { list, errors } = await waitFor(
      async () => {
        const list = await admin.get('/api/system/errors?status=open');
        expect(list.status).toBe(200);
        const errors = (await list.json()) as Recorded[];
        const landed =
          errors.some((e) => e.endpoint === '/notifications') &&
          errors.find((e) => e.endpoint === '/api/notifications/count')?.occurrenceCount === 2;
        return landed && list.headers.get('X-Total-Count') === String(errors.length) ? { list, errors } : null;
      },
      { what: 'the recorded faults' },
    );
    const api = errors.find((e) => e.endpoint === '/api/notifications/count')!;
    expect(api).toMatchObject({ method: 'GET', occurrenceCount: 2, affectedUsers: 2 });
    expect(api.stack).toBeTruthy();
    const screen = errors.find((e) => e.endpoint === '/notifications');
    expect(screen).toMatchObject({ method: 'GET', affectedUsers: 1 });
    const row = await db()
      .selectFrom('systemErrors')
      .select('details')
      .where('id', '=', screen!.id)
      .executeTakeFirstOrThrow();
    expect((row.details as { affectedUserIds: number[] }).affectedUserIds).toEqual([viewer.id]);
    expect(list.headers.get('X-Total-Count')).toBe(String(errors.length));

    // The screen lists it with a Resolve link; the link opens the form; empty notes are refused.
    const html = await (await admin.get('/system-monitoring?tab=errors')).text();
    expect(html).toContain('/api/notifications/count');
    expect(html).toContain(`resolve=${api.id}`);
    const open = await (await admin.get(`/system-monitoring?tab=errors&resolve=${api.id}`)).text();
    expect(open).toContain('Resolution notes');
    expect(open).toContain('Mark as Resolved');
    const empty = await form(admin, `/system-monitoring?tab=errors&resolve=${api.id}`, {
      intent: 'resolve',
      id: String(api.id),
      resolution: ' ',
    });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain('Resolution notes are required');
    const done = await form(admin, `/system-monitoring?tab=errors&resolve=${api.id}`, {
      intent: 'resolve',
      id: String(api.id),
      resolution: 'Table restored',
    });
    expect(done.status).toBe(302);
    expect(done.headers.get('Location')).toBe('/system-monitoring?tab=errors');
    const after = await (await admin.get('/system-monitoring?tab=errors')).text();
    expect(after).toContain('Error marked as resolved');
    expect(after).toContain('Table restored');

    // The API: empty notes 400, a resolved error 409, the other one resolved.
    const bad = await admin.request(`/api/system/errors/${screen!.id}/resolve`, {
      method: 'POST',
      json: { resolution: '' },
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      message: 'Invalid data',
      errors: [{ field: 'resolution', message: 'Resolution notes are required' }],
    });
    expect(
      (await admin.request(`/api/system/errors/${screen!.id}/resolve`, { method: 'POST', json: { resolution: 'ok' } }))
        .status,
    ).toBe(200);
    const again = await admin.request(`/api/system/errors/${api.id}/resolve`, {
      method: 'POST',
      json: { resolution: 'ok' },
    });
    expect(again.status).toBe(409);
    expect(
      (await admin.request('/api/system/errors/999999/resolve', { method: 'POST', json: { resolution: 'ok' } })).status,
    ).toBe(404);
  });

  it('health: the spec’s shape, this server’s own traffic, and the tiles on the screen', async () => {
    const { c } = await signedIn({ role: 'owner' });
    for (let i = 0; i < 3; i++) await c.get('/api/auth/me');
    const response = await c.get('/api/system/health');
    expect(response.status).toBe(200);
    const health = await response.json();
    expect(health).toMatchObject({
      timestamp: expect.any(String),
      overall: expect.stringMatching(/^(healthy|warning|critical)$/),
      details: {
        cpu: { usage: expect.any(Number), loadAverage: expect.any(Array) },
        memory: { used: expect.any(Number), total: expect.any(Number), percentage: expect.any(Number) },
        database: { responseTime: expect.any(Number), dialect },
        api: { requests: expect.any(Number), errorRate: expect.any(Number), requestsPerMinute: expect.any(Number) },
      },
      history: expect.any(Array),
    });
    expect(health.details.api.requests).toBeGreaterThanOrEqual(3);
    const html = await (await c.get('/system-monitoring')).text();
    for (const text of [
      'Overall Health',
      'CPU',
      'Memory',
      'Database',
      'Error Tracking',
      'Recovery Actions',
      'System Metrics',
    ])
      expect(html, text).toContain(text);
    const metrics = await (await c.get('/system-monitoring?tab=metrics')).text();
    expect(metrics).toContain('Requests per minute');
    expect(metrics).toContain('API error rate');
  });

  it('recovery actions: the list, and the empty text', async () => {
    const { c } = await signedIn({ role: 'admin' });
    await db().deleteFrom('recoveryActions').execute();
    expect(await (await c.get('/system-monitoring?tab=recovery')).text()).toContain('No recovery actions found');
    const now = new Date().toISOString();
    await db()
      .insertInto('recoveryActions')
      .values({
        actionType: 'restart_cleanup',
        status: 'completed',
        description: 'Cleaned up',
        result: '1 interrupted backup(s) marked failed',
        createdAt: now,
        updatedAt: now,
        completedAt: now,
      })
      .execute();
    const list = await (await c.get('/api/system/recovery-actions')).json();
    expectAnswer(RecoveryActionListAnswer, list);
    expect(list[0]).toMatchObject({
      actionType: 'restart_cleanup',
      status: 'completed',
      result: '1 interrupted backup(s) marked failed',
      createdAt: expect.any(String),
    });
    expect(await (await c.get('/system-monitoring?tab=recovery')).text()).toContain(
      '1 interrupted backup(s) marked failed',
    );
  });

  it('System Settings: the real version, database and statuses, quick links; others get 403', async () => {
    const { c } = await signedIn({ role: 'admin' });
    const html = await (await c.get('/system-settings')).text();
    const pkg = JSON.parse(
      (await import('node:fs')).readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'),
    ) as { version: string };
    expect(html).toContain(pkg.version);
    expect(html).toContain(dialect === 'postgres' ? 'PostgreSQL' : 'SQLite');
    for (const text of [
      'System Status',
      'Database',
      'Job engine',
      'Backups',
      'Security',
      'Quick Links',
      'Navigation Guide',
      'User Management',
      'Audit Trail',
      'Backup &amp; Recovery',
      'API Documentation',
    ])
      expect(html, text).toContain(text);
    expect(html).not.toContain('2.1.0');
    const { c: viewer } = await signedIn({ role: 'viewer' });
    expect((await viewer.get('/system-settings')).status).toBe(403);
    expect((await viewer.get('/system-monitoring')).status).toBe(403);
    expect((await viewer.get('/api/system/health')).status).toBe(403);
  });

  it('an admin of one company: system monitoring, its errors and System Settings do not exist (404), the sidebar leaves them out, Resolve changes nothing', async () => {
    const vult = await db().selectFrom('companies').select('id').where('name', '=', 'Vult').executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    const fault = await db()
      .insertInto('systemErrors')
      .values({
        errorType: 'ScopeError',
        message: 'installation-wide',
        endpoint: '/scope',
        method: 'GET',
        stack: 'Error: installation-wide\n    at secret (/srv/app.js:1:1)',
        fingerprint: `scope-${now}`,
        firstOccurrence: now,
        lastOccurrence: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { c: scoped } = await signedIn({ role: 'admin', companyId: vult.id });
    for (const path of [
      '/api/system/health',
      '/api/system/errors',
      '/api/system/errors?status=open',
      '/api/system/recovery-actions',
    ]) {
      const response = await scoped.get(path);
      expect(response.status, path).toBe(404);
      expect(await response.json(), path).toEqual({ message: 'Resource not found' });
    }
    const resolve = await scoped.request(`/api/system/errors/${fault.id}/resolve`, {
      method: 'POST',
      json: { resolution: 'not mine' },
    });
    expect(resolve.status).toBe(404);
    for (const path of ['/system-monitoring', '/system-monitoring?tab=errors', '/system-settings'])
      expect((await scoped.get(path)).status, path).toBe(404);
    const screenResolve = await form(scoped, `/system-monitoring?tab=errors&resolve=${fault.id}`, {
      intent: 'resolve',
      id: String(fault.id),
      resolution: 'not mine',
    });
    expect(screenResolve.status).toBe(404);
    expect(
      await db()
        .selectFrom('systemErrors')
        .select(['isResolved', 'resolution'])
        .where('id', '=', fault.id)
        .executeTakeFirstOrThrow(),
    ).toMatchObject({ resolution: null });
    const home = await (await scoped.get('/')).text();
    expect(home).not.toContain('href="/system-monitoring"');
    expect(home).not.toContain('href="/system-settings"');
    // An admin of every company still has them.
    const { c: admin } = await signedIn({ role: 'admin' });
    expect((await admin.get('/api/system/errors')).status).toBe(200);
    expect(await (await admin.get('/')).text()).toContain('href="/system-monitoring"');
  });
});

// A fresh installation on PostgreSQL with every secret given: nothing in the configuration writes
// to DATA_DIR, and the first backup would be the first to make it. The server makes it at start
// (private), so the health call measures the disk the data lives on from the first call.
describe.each(TEST_DIALECTS)('health on %s when DATA_DIR did not exist at start', (dialect) => {
  let base = '';
  let dataDir = '';
  beforeAll(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'finhub-no-data-'));
    dataDir = path.join(base, 'fresh', 'data');
  });
  afterAll(() => fs.rmSync(base, { recursive: true, force: true }));
  const vapid = webpush.generateVAPIDKeys();
  const { signedIn } = useTestServer(dialect, {
    env: () => {
      expect(fs.existsSync(path.join(base, 'fresh'))).toBe(false);
      return { DATA_DIR: dataDir, VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_PRIVATE_KEY: vapid.privateKey };
    },
  });

  it('the server made DATA_DIR 0700 and the health call answers a disk object', async () => {
    const modeOf = (dir: string) => fs.statSync(dir).mode & 0o777;
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(path.dirname(dataDir))).toBe(0o700);
    const { c } = await signedIn({ role: 'owner' });
    const health = await (await c.get('/api/system/health')).json();
    expect(health.details.disk).toEqual({
      used: expect.any(Number),
      total: expect.any(Number),
      percentage: expect.any(Number),
    });
    const disk = fs.statfsSync(dataDir);
    expect(health.details.disk.total).toBe(disk.blocks * disk.bsize);
  });
});
