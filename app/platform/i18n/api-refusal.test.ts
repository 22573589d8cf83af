// A screen script's /api refusal in the reader's words: a catalog message translated, a status
// that says enough in the reader's words, anything else as the /api wrote it.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogTranslator } from '../../features/shell/catalog-files.server.ts';
import { apiRefusal, refusalWords } from './api-refusal.ts';
import type { Locale } from './locales.ts';

const reader = (locale: Locale) => ({ t: catalogTranslator()(locale), locale });

describe('an /api refusal in the reader’s words', () => {
  let server: Server;
  let origin = '';
  beforeAll(async () => {
    server = createServer((request, response) => {
      const [status, body, headers] = (
        {
          '/limit': [429, { message: 'Too many requests: 20 a minute' }, { 'Retry-After': '12' }],
          '/known': [409, { message: 'No browser of yours is subscribed to push notifications' }, {}],
          '/field': [400, { message: 'Invalid data', errors: [{ field: 'x', message: 'x must be a day' }] }, {}],
          '/signed-out': [401, { message: 'Not authenticated' }, {}],
          '/broken': [500, null, {}],
        } as Record<string, [number, unknown, Record<string, string>]>
      )[request.url!]!;
      response.writeHead(status, { 'Content-Type': 'application/json', ...headers });
      response.end(body === null ? 'not json' : JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const refusal = async (path: string) => apiRefusal(await fetch(`${origin}${path}`));

  it('reads the status, the first field error and the Retry-After', async () => {
    expect(await refusal('/limit')).toMatchObject({
      status: 429,
      retryAfter: 12,
      message: 'Too many requests: 20 a minute',
    });
    expect(await refusal('/field')).toMatchObject({ status: 400, retryAfter: null, message: 'x must be a day' });
    expect(await refusal('/broken')).toMatchObject({ status: 500, message: '500: Internal Server Error' });
  });

  it('words it for a German reader; an English reader reads the /api as it is', async () => {
    const de = reader('de');
    expect(refusalWords(de, await refusal('/limit'))).toBe(de.t('Too many requests. Please try again in a moment.'));
    expect(refusalWords(de, await refusal('/signed-out'))).toBe(
      'Ihre Sitzung ist beendet. Bitte melden Sie sich erneut an.',
    );
    expect(refusalWords(de, await refusal('/broken'))).toBe(
      de.t('An unexpected error occurred. Please try again in a moment.'),
    );
    // Nothing better to say than the field's own English.
    expect(refusalWords(de, await refusal('/field'))).toBe('x must be a day');
    expect(refusalWords(de, new TypeError('Failed to fetch'))).toBe(
      'Der Server ist nicht erreichbar. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
    );
    expect(refusalWords(reader('en'), await refusal('/limit'))).toBe('Too many requests: 20 a minute');
  });

  it('translates a refusal whose English is a message of the catalogs, or one a screen rebuilds', async () => {
    const es = reader('es');
    expect(refusalWords(es, await refusal('/known'))).not.toBe(
      'No browser of yours is subscribed to push notifications',
    );
    expect(refusalWords(es, await refusal('/limit'), (r) => (r.retryAfter === 12 ? 'doce' : undefined))).toBe('doce');
  });
});
