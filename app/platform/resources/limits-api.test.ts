// Limits per user over HTTP, on every test dialect (docs/api.md): one analysis at a time per
// user on /api and on the AI Insights screen (429 with Retry-After, and the page says so), held
// by a lease every web process sees; one limiter for screens and /api (screen actions, analyses
// and downloads count with /api calls; plain page views do not); the limits of push.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { ANALYSIS_RUNNING } from '../../features/ai/analysis-limit.server.ts';
import { holdLease } from '../work-lease.server.ts';
import { waitFor } from '../../../worker/test-helpers.ts';
import { userContext } from '../../../test/context.ts';
import { TEST_DIALECTS } from '../../../test/database.ts';
import { useTestServer, type TestClient } from '../../../test/server.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../../../test/support/fake-openai.ts';
import { startPushService, type PushService } from '../../../test/support/push-service.ts';
import { browserKeys } from '../../../test/support/web-push-decrypt.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const text = async (response: Response) =>
  (await response.text())
    .replace(/<!-- -->/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'");
const form = (c: TestClient, url: string, fields: Record<string, string>) =>
  c.request(url, {
    method: 'POST',
    body: new URLSearchParams(fields),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });

/** Sends up to `tries` requests; the first 429 among them (the others' bodies read and dropped). */
async function firstRefused(tries: number, send: () => Promise<Response>): Promise<Response | undefined> {
  for (let i = 0; i < tries; i++) {
    const answer = await send();
    if (answer.status === 429) return answer;
    await answer.arrayBuffer();
  }
  return undefined;
}

/** Starts in a fresh minute when the current one is nearly over (the per-minute windows). */
async function notNearTheMinute(): Promise<void> {
  const second = new Date().getUTCSeconds();
  if (second >= 45) await sleep((61 - second) * 1000);
}

describe.each(TEST_DIALECTS)('one analysis at a time per user on %s', (dialect) => {
  const { db, signedIn } = useTestServer(dialect);
  const analyst = () => signedIn({ role: 'viewer', flags: { canAccessAnalytics: true } });
  let companyId: number;

  beforeAll(async () => {
    companyId = (await db().selectFrom('companies').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  });

  it('while an analysis of the user runs in another process, every other analysis answers 429 with Retry-After and says so', async () => {
    const { user, c } = await analyst();
    // The lease as another web process holds it: through the database only.
    const lease = await holdLease(await userContext(db(), user.id), 'analysis');
    const refused = async (response: Response) => {
      expect(response.status, response.url).toBe(429);
      expect(response.headers.get('Retry-After')).toBe('5');
      return response;
    };
    const api = [
      await c.post('/api/ai/predict-expenses', { months: 3 }),
      await c.get(`/api/ai/budget-analysis/${companyId}/2026`),
      await c.post('/api/ai/chat', { message: 'Total expenses?' }),
      await c.post('/api/ai/chat/stream', { message: 'Total expenses?' }),
    ];
    for (const response of api) expect(await (await refused(response)).json()).toEqual({ message: ANALYSIS_RUNNING });
    // Reading the stored insights or anomalies is no analysis (the anomalies are computed in the background).
    expect((await c.get('/api/ai/insights')).status).toBe(200);
    expect(
      await waitFor(
        async () => (await c.post('/api/ai/detect-anomalies', { lookbackDays: 30 })).status === 200,
        'the stored anomalies',
      ),
    ).toBe(true);
    expect((await c.get(`/ai-analytics?tab=anomalies&companyId=${companyId}&lookbackDays=30&run=1`)).status).toBe(200);

    // The screen: each tab that analyses, and Generate now and the chat, say it in words.
    for (const url of ['/ai-analytics?tab=predictions', `/ai-analytics?tab=budget&companyId=${companyId}`]) {
      const page = await text(await refused(await c.get(url)));
      expect(page, url).toContain(ANALYSIS_RUNNING);
      expect(page, url).toContain('AI Insights');
    }
    expect((await c.get('/ai-analytics?tab=insights')).status).toBe(200);
    expect(await text(await refused(await form(c, '/ai-analytics?tab=insights', { intent: 'generate' })))).toContain(
      ANALYSIS_RUNNING,
    );
    expect(
      await text(
        await refused(await form(c, '/ai-analytics?tab=chat', { intent: 'chat', message: 'Total expenses?' })),
      ),
    ).toContain(ANALYSIS_RUNNING);

    // Another analyst is not held up; the end of the first frees the user.
    const { c: other } = await analyst();
    expect((await other.post('/api/ai/predict-expenses', { months: 3 })).status).toBe(200);
    await lease.release();
    expect((await c.post('/api/ai/predict-expenses', { months: 3 })).status).toBe(200);
    expect((await c.get('/ai-analytics?tab=predictions')).status).toBe(200);
    expect((await form(c, '/ai-analytics?tab=insights', { intent: 'generate' })).status).toBe(302);
  });
});

describe.each(TEST_DIALECTS)('a slow analysis on %s', (dialect) => {
  let fake: FakeOpenAi;
  beforeAll(async () => {
    fake = await startFakeOpenAi();
  });
  afterAll(() => fake?.close());
  const { signedIn } = useTestServer(dialect, {
    env: () => ({ OPENAI_API_KEY: 'sk-limits-test', OPENAI_BASE_URL: fake.url, OPENAI_MODEL: 'fake-model' }),
  });

  it('a second analysis while the first one waits on the language model is a 429; the first ends normally, and the next may follow at once', async () => {
    const { c } = await signedIn({ role: 'viewer', flags: { canAccessAnalytics: true } });
    fake.script = () => ({ content: 'A slow answer.', delayMs: 1500 });
    const asked = fake.requests.length;
    const first = c.post('/api/ai/chat', { message: 'Take your time' });
    await waitFor(() => fake.requests.length > asked, 'the question to reach the model');
    const second = await c.post('/api/ai/predict-expenses', { months: 3 });
    expect(second.status).toBe(429);
    expect(second.headers.get('Retry-After')).toBe('5');
    expect(await second.json()).toEqual({ message: ANALYSIS_RUNNING });
    const page = await c.get('/ai-analytics?tab=predictions');
    expect(page.status).toBe(429);
    expect(await text(page)).toContain(ANALYSIS_RUNNING);
    const answered = await first;
    expect(answered.status).toBe(200);
    expect((await answered.json()).response).toBe('A slow answer.');
    expect((await c.post('/api/ai/predict-expenses', { months: 3 })).status).toBe(200);

    // A streamed answer holds the lease until its last event, and frees it before that event.
    fake.script = () => ({ content: 'Streamed slowly.', delayMs: 800 });
    const streamed = fake.requests.length;
    const stream = c.post('/api/ai/chat/stream', { message: 'Stream it' });
    await waitFor(() => fake.requests.length > streamed, 'the streamed question to reach the model');
    expect((await c.post('/api/ai/chat', { message: 'Meanwhile?' })).status).toBe(429);
    const events = (await (await stream).text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(events.at(-1)).toMatchObject({ done: true });
    fake.script = () => ({ content: 'Next.' });
    const next = await c.post('/api/ai/chat/stream', { message: 'Right after' });
    expect(next.status).toBe(200);
    expect(await next.text()).toContain('"done":true');
  });
});

describe.each(TEST_DIALECTS)('one limiter for screens and /api on %s', (dialect) => {
  // Six counted requests a minute per user: the default of 100, but quicker to reach.
  const { signedIn } = useTestServer(dialect, {
    env: { API_RATE_LIMIT_PER_MINUTE: '6', API_RATE_LIMIT_PER_HOUR: '1000' },
  });

  it('screen actions count with /api calls; over the limit a screen answers 429 with Retry-After and a page that says so', async () => {
    await notNearTheMinute();
    const { c } = await signedIn({ role: 'viewer' });
    for (let i = 0; i < 3; i++) expect((await c.get('/api/auth/me')).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await form(c, '/notifications', { intent: 'mark-all-read' })).status).toBe(302);
    const over = await form(c, '/notifications', { intent: 'mark-all-read' });
    expect(over.status).toBe(429);
    const retryAfter = Number(over.headers.get('Retry-After'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const page = await text(over);
    expect(page).toContain('429 Too Many Requests');
    expect(page).toMatch(
      /Too many requests\. You have sent more requests than allowed in a short time; try again in \d+ seconds?\./,
    );
    // The same counters refuse /api now, and another user is not affected.
    const api = await c.get('/api/auth/me');
    expect(api.status).toBe(429);
    expect(await api.json()).toEqual({ message: 'Too many requests' });
    const { c: other } = await signedIn({ role: 'viewer' });
    expect((await form(other, '/notifications', { intent: 'mark-all-read' })).status).toBe(302);
    // Signing out is never refused.
    expect((await c.request('/logout', { method: 'POST' })).status).toBe(302);
  });

  it("the 429 page after a screen action speaks the reader's language", async () => {
    await notNearTheMinute();
    const { c } = await signedIn({ role: 'viewer' });
    expect((await c.request('/api/user-settings', { method: 'PUT', json: { language: 'fr' } })).status).toBe(200);
    const over = await firstRefused(7, () => form(c, '/notifications', { intent: 'mark-all-read' }));
    expect(over?.status).toBe(429);
    expect(await text(over!)).toMatch(
      /Trop de requêtes\. Vous avez envoyé plus de requêtes qu’autorisé en peu de temps ; réessayez dans \d+ secondes?\./,
    );
  });

  it("the 429 of a download speaks the reader's language too", async () => {
    await notNearTheMinute();
    const { c } = await signedIn({ role: 'viewer' });
    expect((await c.request('/api/user-settings', { method: 'PUT', json: { language: 'de' } })).status).toBe(200);
    const over = await firstRefused(12, () => c.get('/export/budgets'));
    expect(over?.status).toBe(429);
    expect(await text(over!)).toMatch(/^Zu viele Anfragen\./);
  });

  it('plain page views never count; the analyses and downloads of screens do', async () => {
    await notNearTheMinute();
    const { c } = await signedIn({ role: 'viewer', flags: { canAccessAnalytics: true } });
    for (let i = 0; i < 12; i++) {
      for (const url of ['/budget-planning', '/ai-analytics', '/notifications'])
        expect((await c.get(url)).status, url).toBe(200);
    }
    // Reading the stored anomalies is a page view too.
    for (let i = 0; i < 3; i++)
      expect((await c.get('/ai-analytics?tab=anomalies&lookbackDays=7&run=1')).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await c.get('/ai-analytics?tab=budget&companyId=1&run=1')).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await c.get('/export/budgets')).status).toBe(200);
    const analysis = await c.get('/ai-analytics?tab=predictions');
    expect(analysis.status).toBe(429);
    expect(Number(analysis.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(await text(analysis)).toContain('Too many requests.');
    const download = await c.get('/export/budgets');
    expect(download.status).toBe(429);
    expect(Number(download.headers.get('Retry-After'))).toBeGreaterThan(0);
    // Reading pages still works.
    expect((await c.get('/budget-planning')).status).toBe(200);
  });
});

describe.each(TEST_DIALECTS)('push limits over HTTP on %s', (dialect) => {
  let service: PushService;
  beforeAll(async () => {
    service = await startPushService({ delayMs: 100 });
  });
  afterAll(() => service?.close());
  const vapid = webpush.generateVAPIDKeys();
  const { db, signedIn } = useTestServer(dialect, {
    env: {
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      VAPID_SUBJECT: 'mailto:limits@example.com',
      ALLOW_PRIVATE_TARGETS: '1',
    },
  });

  it('12 browsers subscribed: the 10 latest are kept; a test push reaches them with at most 4 in flight, and a second one meanwhile is a 429', async () => {
    const { user, c } = await signedIn({ role: 'viewer' });
    const endpoints: string[] = [];
    for (let i = 0; i < 12; i++) {
      endpoints.push(`${service.url}/${dialect}/limits-${user.id}-${i}`);
      expect(
        (await c.post('/api/notifications/subscribe', { endpoint: endpoints[i], keys: browserKeys().subscriptionKeys }))
          .status,
      ).toBe(201);
      await sleep(2);
    }
    const stored = await db()
      .selectFrom('pushSubscriptions')
      .select('endpoint')
      .where('userId', '=', user.id)
      .orderBy('id')
      .execute();
    expect(stored.map((row) => row.endpoint)).toEqual(endpoints.slice(2));

    await notNearTheMinute();
    const before = service.requests.length;
    const first = c.post('/api/notifications/test');
    await waitFor(() => (service.inFlight > 0 ? true : null), 'the test push to reach the push service');
    const second = await c.post('/api/notifications/test');
    expect(second.status).toBe(429);
    expect(second.headers.get('Retry-After')).toBe('5');
    expect(await second.json()).toEqual({
      message: 'A test notification is already being sent. Try again in a few seconds.',
    });
    expect(await (await first).json()).toEqual({ sent: 10, failed: 0, removed: 0 });
    expect(
      service.requests
        .slice(before)
        .map((r) => r.path)
        .sort(),
    ).toEqual(
      endpoints
        .slice(2)
        .map((e) => new URL(e).pathname)
        .sort(),
    );
    expect(service.maxInFlight).toBe(4);
  });
});
