// The browser's built files: served under ASSETS_URL (remix.config.js's publicPath) for a year,
// named so by every page, and not counted as the app's traffic.
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../../test/server.ts';
import { ASSETS_URL } from './assets.ts';
import { isMeasured } from './request-metrics.ts';

describe('the built files', () => {
  const { client } = useTestServer('sqlite');

  it('a page preloads its chunks from ASSETS_URL, which serves them cached for good', async () => {
    const c = client();
    const html = await (await c.get('/login')).text();
    const chunks = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]);
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) expect(chunk.startsWith(ASSETS_URL), chunk).toBe(true);
    const served = await c.get(chunks[0]);
    expect(served.status).toBe(200);
    expect(served.headers.get('cache-control')).toContain('immutable');
    expect(served.headers.get('content-type')).toMatch(/javascript/);
    expect(isMeasured(chunks[0])).toBe(false);
    expect(isMeasured('/actual-expenses')).toBe(true);
  });
});
