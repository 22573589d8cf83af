import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from './database.ts';
import { startTestServer, TestClient, type TestServer } from './server.ts';
import { OWNER_PASSWORD } from './database.ts';

describe.each(TEST_DIALECTS)('test server on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server?.close());

  it('serves readiness and signs the owner in', async () => {
    const client = new TestClient(server.baseUrl);
    expect((await (await client.get('/readyz')).json()).database).toBe(dialect);
    const body = await client.login('owner@example.com', OWNER_PASSWORD);
    expect(body.user.role).toBe('owner');
  });
});
