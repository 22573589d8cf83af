// Request bodies above MAX_BODY_BYTES (1 MB; docs/security.md) answer 413 before they are read, over
// real HTTP, whether the size is declared (Content-Length) or not (chunked).
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { OWNER_PASSWORD, TEST_DIALECTS } from '../../../test/database.ts';
import { useTestServer } from '../../../test/server.ts';

const MB = 1024 * 1024;

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * Sends `body` with node:http: with Content-Length, or chunked (no Content-Length) in 64 KB
 * pieces. The server may answer and close before the whole body is sent: write errors after
 * the response has come are expected and ignored.
 */
function send(
  baseUrl: string,
  path: string,
  body: string,
  options: { chunked: boolean; contentType?: string; cookie?: string },
): Promise<RawResponse> {
  const url = new URL(path, baseUrl);
  const data = Buffer.from(body);
  return new Promise((resolve, reject) => {
    let answered = false;
    const headers: http.OutgoingHttpHeaders = {
      'Content-Type': options.contentType ?? 'application/json',
      Origin: url.origin,
    };
    if (options.cookie) headers.Cookie = options.cookie;
    if (options.chunked) headers['Transfer-Encoding'] = 'chunked';
    else headers['Content-Length'] = data.byteLength;
    const request = http.request(url, { method: 'POST', headers }, (response) => {
      answered = true;
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (c) => (text += c));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: text }));
      response.on('error', reject);
    });
    request.on('error', (error) => {
      if (!answered) reject(error);
    });
    const piece = 64 * 1024;
    let offset = 0;
    const pump = () => {
      while (offset < data.byteLength) {
        const chunk = data.subarray(offset, offset + piece);
        offset += piece;
        if (request.destroyed) return;
        if (!request.write(chunk)) return void request.once('drain', pump);
      }
      if (!request.destroyed) request.end();
    };
    pump();
  });
}

/** Valid JSON creating a company, padded with whitespace to `size` bytes. */
function paddedCompany(name: string, size: number): string {
  const head = JSON.stringify({ name, type: 'marketing' });
  return head.slice(0, -1) + ' '.repeat(Math.max(0, size - head.length)) + '}';
}

describe.each(TEST_DIALECTS)('request body limit on %s', (dialect) => {
  const { server, db, client } = useTestServer(dialect);

  const counts = async () => ({
    companies: Number(
      (
        await db()
          .selectFrom('companies')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
    audit: Number(
      (
        await db()
          .selectFrom('auditLogs')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
    attempts: Number(
      (
        await db()
          .selectFrom('loginAttempts')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
  });

  async function ownerCookie(): Promise<string> {
    const c = client();
    await c.login('owner@example.com', OWNER_PASSWORD);
    return [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  it('an anonymous 2 MB login body is a 413 JSON answer, declared or chunked, and nothing is recorded', async () => {
    const before = await counts();
    const body = JSON.stringify({ email: 'owner@example.com', password: 'x'.repeat(2 * MB) });
    for (const chunked of [false, true]) {
      const response = await send(server().baseUrl, '/api/auth/login', body, { chunked });
      expect(response.status, `chunked: ${chunked}`).toBe(413);
      expect(response.headers['content-type']).toContain('application/json');
      expect(JSON.parse(response.body)).toEqual({ message: 'Payload too large' });
    }
    expect(await counts()).toEqual(before);
  });

  it('a 2 MB create that would be valid is refused with 413 (declared and chunked); the database is unchanged', async () => {
    const cookie = await ownerCookie();
    const before = await counts();
    for (const chunked of [false, true]) {
      const response = await send(server().baseUrl, '/api/companies', paddedCompany(`Too Big ${chunked}`, 2 * MB), {
        chunked,
        cookie,
      });
      expect(response.status, `chunked: ${chunked}`).toBe(413);
      expect(JSON.parse(response.body)).toEqual({ message: 'Payload too large' });
    }
    expect(await counts()).toEqual(before);
    // The server still answers.
    expect((await client().get('/healthz')).status).toBe(200);
  });

  it('a 900 KB body goes through (declared and chunked)', async () => {
    const cookie = await ownerCookie();
    const before = await counts();
    for (const chunked of [false, true]) {
      const response = await send(
        server().baseUrl,
        '/api/companies',
        paddedCompany(`Big Enough ${chunked}`, 900 * 1024),
        { chunked, cookie },
      );
      expect(response.status, `chunked: ${chunked} ${response.body}`).toBe(201);
    }
    expect((await counts()).companies).toBe(before.companies + 2);
  });

  it('a form page answers 413 in plain text', async () => {
    const body = new URLSearchParams({ email: 'owner@example.com', password: 'x'.repeat(2 * MB) }).toString();
    for (const chunked of [false, true]) {
      const response = await send(server().baseUrl, '/login', body, {
        chunked,
        contentType: 'application/x-www-form-urlencoded',
      });
      expect(response.status, `chunked: ${chunked}`).toBe(413);
      expect(response.headers['content-type']).toContain('text/plain');
      expect(response.body).toBe('Payload too large');
    }
  });
});
