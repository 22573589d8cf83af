// CSV imports over real HTTP on every test dialect: POST /api/imports with a text/csv body or a
// multipart form (a check, an import, a file imported twice, a file big enough to run as a job
// with its notification), GET /api/imports/{id}, the size limits, permissions and bad input;
// and the /imports screen as a browser without JavaScript drives it (upload, columns chosen
// again, Import valid rows, the refused rows download).
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/database.ts';
import { type TestClient, useTestServer } from '../../../test/server.ts';
import { waitFor } from '../../../test/wait.ts';

type Row = Record<string, any>;

async function status(response: Response, expected: number) {
  if (response.status !== expected)
    expect(response.status, `${response.url}: ${await response.clone().text()}`).toBe(expected);
}

const csv = (rows: (string | number)[][]) => rows.map((r) => r.join(',')).join('\r\n') + '\r\n';

describe.each(TEST_DIALECTS)('imports over HTTP on %s', (dialect) => {
  const { db, signedIn } = useTestServer(dialect, {
    env: {
      API_RATE_LIMIT_PER_MINUTE: '100000',
      API_RATE_LIMIT_PER_HOUR: '1000000',
      // Files above 400 bytes run as a job; none above 20 KB is taken.
      IMPORT_INLINE_BYTES: '400',
      IMPORT_MAX_BYTES: '20000',
    },
  });
  let owner: TestClient;
  let ownerId: number;
  let viewer: TestClient;
  let companyName: string;
  const tag = Math.random().toString(36).slice(2, 7);

  const json = async (response: Response, expected = 200) => {
    await status(response, expected);
    return response.json() as Promise<Row>;
  };
  const revenue = (source: string, rows: number, from = 1) =>
    csv([
      ['Company', 'Source', 'Amount', 'Revenue Date'],
      ...Array.from({ length: rows }, (_, i) => [companyName, source, `${from + i}.25`, '2026-03-01']),
    ]);
  const postCsv = (c: TestClient, query: string, body: string) =>
    c.request(`/api/imports?${query}`, { method: 'POST', body, headers: { 'Content-Type': 'text/csv' } });
  const countRevenue = async (source: string) =>
    Number(
      (
        await db()
          .selectFrom('actualRevenue')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('source', '=', source)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const finished = async (c: TestClient, id: number): Promise<Row> => {
    let row: Row = {};
    await waitFor(
      async () => {
        row = await json(await c.get(`/api/imports/${id}`));
        return row.status !== 'queued' && row.status !== 'running';
      },
      { timeout: 30_000 },
    );
    return row;
  };

  beforeAll(async () => {
    const signedOwner = await signedIn({ role: 'owner' });
    owner = signedOwner.c;
    ownerId = signedOwner.user.id;
    viewer = (await signedIn({ role: 'viewer' })).c;
    companyName = (await db().selectFrom('companies').select('name').orderBy('id').executeTakeFirstOrThrow()).name;
  });

  it('checks a text/csv body without writing, then imports it; the same file again needs allowDuplicate', async () => {
    const source = `Api ${tag}`;
    const body = revenue(source, 2);
    const checked = await json(await postCsv(owner, 'table=actual-revenues&dryRun=true', body), 202);
    expect(checked).toMatchObject({ status: 'checked', phase: 'check', rows: 2, valid: 2, invalid: 0, errors: [] });
    expect(checked.columns).toMatchObject({ companyId: 'Company', amount: 'Amount', revenueDate: 'Revenue Date' });
    expect(await countRevenue(source)).toBe(0);

    const done = await json(await postCsv(owner, 'table=actual-revenues', body), 202);
    expect(done).toMatchObject({ status: 'completed', created: 2, mode: 'all' });
    expect(await countRevenue(source)).toBe(2);
    expect(await json(await owner.get(`/api/imports/${done.id}`))).toMatchObject({ id: done.id, status: 'completed' });
    // Another user knows nothing of it.
    await status(await viewer.get(`/api/imports/${done.id}`), 404);

    const again = await json(await postCsv(owner, 'table=actual-revenues', body), 409);
    expect(again.message).toMatch(
      /^This file was already imported into Actual Revenue on \d{4}-\d\d-\d\d \d\d:\d\d UTC/,
    );
    expect(await countRevenue(source)).toBe(2);
    const forced = await json(await postCsv(owner, 'table=actual-revenues&allowDuplicate=true', body), 202);
    expect(forced).toMatchObject({ status: 'completed', created: 2 });
    expect(await countRevenue(source)).toBe(4);
  });

  it('mode all writes nothing when a row is invalid; mode valid writes the rest (multipart)', async () => {
    const source = `Mixed ${tag}`;
    const body = csv([
      ['Company', 'Source', 'Amount', 'Revenue Date'],
      [companyName, source, '5', '2026-01-01'],
      [companyName, source, 'lots', '2026-01-01'],
    ]);
    const form = (mode: string) => {
      const data = new FormData();
      data.set('table', 'actual-revenues');
      data.set('mode', mode);
      data.set('file', new Blob([body], { type: 'text/csv' }), 'mixed.csv');
      return data;
    };
    const all = await json(await owner.request('/api/imports', { method: 'POST', body: form('all') }), 202);
    expect(all).toMatchObject({ status: 'failed', invalid: 1, created: 0, fileName: 'mixed.csv' });
    expect(all.errors).toEqual([{ line: 3, field: 'amount', message: 'Amount must be a positive number' }]);
    expect(all.error).toBe('Nothing was imported: 1 of 2 rows are invalid');
    // Kept beside the English for the screen's readers of other languages (the /api answers English).
    const kept = await db()
      .selectFrom('imports')
      .select(['errorTexts', 'outcome'])
      .where('id', '=', all.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(kept.errorTexts!)).toMatchObject({ es: 'No se importó nada: 1 de 2 filas no son válidas' });
    expect(JSON.parse(kept.outcome!).errors[0].words).toMatchObject({
      es: 'El campo «Importe» debe ser un número positivo',
    });
    expect(await countRevenue(source)).toBe(0);
    const valid = await json(await owner.request('/api/imports', { method: 'POST', body: form('valid') }), 202);
    expect(valid).toMatchObject({ status: 'completed', created: 1, invalid: 1 });
    expect(await countRevenue(source)).toBe(1);
  });

  it('runs a bigger file as a job, with progress and a notification at the end', async () => {
    const source = `Job ${tag}`;
    const queued = await json(await postCsv(owner, 'table=actual-revenues', revenue(source, 40)), 202);
    expect(['queued', 'running', 'completed']).toContain(queued.status);
    const done = await finished(owner, queued.id);
    expect(done).toMatchObject({ status: 'completed', created: 40, rowsRead: 40 });
    expect(await countRevenue(source)).toBe(40);
    const note = await db()
      .selectFrom('notifications')
      .select(['title', 'targetUserId', 'actionUrl'])
      .where('relatedTable', '=', 'imports')
      .where('relatedRecordId', '=', queued.id)
      .executeTakeFirst();
    expect(note).toEqual({ title: 'Import completed', targetUserId: ownerId, actionUrl: `/imports?id=${queued.id}` });
  });

  it('refuses what it cannot take: no permission, no table, no file, too big, not CSV', async () => {
    const body = revenue(`Refused ${tag}`, 1);
    await status(await postCsv(viewer, 'table=actual-revenues', body), 403);
    const noTable = await json(await postCsv(owner, '', body), 400);
    expect(noTable.errors).toEqual([{ field: 'table', message: 'Table is required' }]);
    const logs = await json(await postCsv(owner, 'table=audit-logs', body), 400);
    expect(logs.errors).toEqual([{ field: 'table', message: 'Choose a table that can be imported into' }]);
    const tooBig = await json(await postCsv(owner, 'table=actual-revenues', 'x'.repeat(30_000)), 400);
    expect(tooBig.errors[0].message).toMatch(/larger than/);
    // Beyond the body limit the server answers 413 and closes the connection without reading on.
    const huge = await postCsv(owner, 'table=actual-revenues', 'x'.repeat(200_000)).catch(() => null);
    if (huge) await status(huge, 413);
    await status(await owner.post('/api/imports?table=actual-revenues', {}), 400);
    const empty = await json(await postCsv(owner, 'table=actual-revenues', ''), 400);
    expect(empty.errors[0]).toMatchObject({ field: 'file' });
    const unknownColumns = await json(await postCsv(owner, 'table=actual-revenues', 'a,b\r\n1,2\r\n'), 202);
    expect(unknownColumns).toMatchObject({ status: 'failed' });
    expect(unknownColumns.error).toMatch(/No column of the file matches a field of Actual Revenue/);
  });

  it('the screen without JavaScript: upload, choose a column, import the valid rows, download the refused ones', async () => {
    const source = `Screen ${tag}`;
    const page = await owner.get('/imports?table=actual-revenues');
    await status(page, 200);
    expect(await page.text()).toContain('Import into Actual Revenue');
    const form = new FormData();
    form.set('intent', 'upload');
    form.set('table', 'actual-revenues');
    form.set(
      'file',
      new Blob(
        [
          csv([
            ['Company', 'Where from', 'Amount', 'Revenue Date'],
            [companyName, source, '7', '2026-02-01'],
            [companyName, source, '-1', '2026-02-01'],
          ]),
        ],
        { type: 'text/csv' },
      ),
      'screen.csv',
    );
    const uploaded = await owner.request('/imports', { method: 'POST', body: form });
    await status(uploaded, 302);
    const location = uploaded.headers.get('Location')!;
    const id = Number(new URL(location, 'http://x').searchParams.get('id'));
    let html = await (await owner.get(location)).text();
    expect(html).toContain('Source is required');
    // 'Where from' is the source.
    await status(await owner.postForm('/imports', { intent: 'columns', id: String(id), 'column.source': '1' }), 302);
    html = await (await owner.get(location)).text();
    expect(html).not.toContain('Source is required');
    expect(html).toContain('Amount must be a positive number');
    expect(html).toContain('Import valid rows');
    await status(await owner.postForm('/imports', { intent: 'import', id: String(id), mode: 'all' }), 302);
    expect(await (await owner.get(location)).text()).toContain('Nothing was imported: 1 of 2 rows are invalid');
    expect(await countRevenue(source)).toBe(0);
    await status(await owner.postForm('/imports', { intent: 'import', id: String(id), mode: 'valid' }), 302);
    html = await (await owner.get(location)).text();
    expect(html).toContain('Imported');
    expect(await countRevenue(source)).toBe(1);
    const refused = await owner.get(`/imports/refused?id=${id}`);
    await status(refused, 200);
    expect(refused.headers.get('Content-Disposition')).toContain(`import-${id}-refused-rows.csv`);
    expect(await refused.text()).toBe(
      `Company,Where from,Amount,Revenue Date,Line,Errors\r\n${companyName},${source},-1,2026-02-01,3,Amount must be a positive number\r\n`,
    );
    // Somebody else's import is not there for them.
    await status(await viewer.get(location), 404);
    await status(await viewer.get(`/imports/refused?id=${id}`), 404);
  });
});
