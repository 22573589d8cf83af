// The CSV export of a resource: on PostgreSQL the database writes the records (COPY), and its
// bytes must be the cursor path's bytes exactly, over awkward data (quotes, commas, CR, LF,
// CRLF, empty strings and NULLs, non-ASCII, formula starts, amounts from a cent to the largest
// bigint, instants with microseconds), for a company-scoped user, a search, the dropdown
// filter, a date range and every sort. Also the pieces: LF → CRLF across chunk boundaries and
// the bind values written into COPY's text.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { ownerId, userContext } from '../../../test/context.ts';
import { createTestUser } from '../../../test/users.ts';
import { crlfRecords, inlineParameters, sqlLiteral, type CrlfState } from '../../../db/pg-copy-csv.ts';
import { pgPoolOf } from '../../../db/connection-facts.ts';
import { actualExpenses, RESOURCE_LIST } from '../../features/resources.ts';
import type { ResourceDef } from './define.ts';
import type { ServiceContext } from '../context.ts';
import { copiedResourceCsv, cursorResourceCsv, resourceCsv, type ResourceCsv } from './resource-csv.server.ts';
import type { ListQuery } from './resource-list.server.ts';

async function bytesOf(csv: ResourceCsv): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of csv.chunks)
    parts.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk));
  return Buffer.concat(parts);
}

/** The reference: every LF outside quotes becomes CRLF, one byte at a time. */
function crlfByBytes(text: string): string {
  let quoted = false;
  let out = '';
  for (const c of text) {
    if (c === '"') quoted = !quoted;
    else if (c === '\n' && !quoted) out += '\r';
    out += c;
  }
  return out;
}

describe('crlfRecords', () => {
  const csv = '1,"a\nb",x\n2,"say ""hi""\n",\n3,,"\n"\n"",plain,"""\n"""\n4,é€,"x\r\ny"\n';

  it('makes each record end CRLF and leaves quoted LFs, however the bytes are cut', () => {
    const bytes = Buffer.from(csv, 'utf8');
    const expected = Buffer.from(crlfByBytes(csv), 'utf8');
    for (let cut = 0; cut <= bytes.length; cut++) {
      for (const size of [1, 2, 3, 7]) {
        const state: CrlfState = { quoted: false, records: 0 };
        const parts = [crlfRecords(bytes.subarray(0, cut), state)];
        for (let i = cut; i < bytes.length; i += size)
          parts.push(crlfRecords(bytes.subarray(i, Math.min(bytes.length, i + size)), state));
        expect(Buffer.concat(parts).equals(expected)).toBe(true);
        expect(state).toEqual({ quoted: false, records: 5 });
      }
    }
  });

  it('agrees with the byte loop on random CSV', () => {
    const alphabet = ['a', ',', '"', '\n', '\r', 'é'];
    for (let round = 0; round < 200; round++) {
      let text = '';
      for (let i = 0; i < 60; i++) text += alphabet[Math.floor(Math.random() * alphabet.length)];
      const bytes = Buffer.from(text, 'utf8');
      const state: CrlfState = { quoted: false, records: 0 };
      const parts: Buffer[] = [];
      for (let i = 0; i < bytes.length; i += 5) parts.push(crlfRecords(bytes.subarray(i, i + 5), state));
      expect(Buffer.concat(parts).toString('utf8')).toBe(crlfByBytes(text));
    }
  });
});

describe('COPY query text', () => {
  it('writes bind values as literals, leaving quoted text alone', () => {
    expect(
      inlineParameters({
        sql: `select '$1', "a$2" from t where x = $1 and y = $2 and z - $3 > 0 and w = '''$1'''`,
        parameters: ["it's", 5, -1],
      }),
    ).toBe(`select '$1', "a$2" from t where x = 'it''s' and y = (5) and z - (-1) > 0 and w = '''$1'''`);
    expect(sqlLiteral('back\\slash')).toBe(` E'back\\\\slash'`);
    expect(sqlLiteral(null)).toBe('null');
    expect(sqlLiteral(true)).toBe('true');
    expect(sqlLiteral(12n)).toBe('(12)');
    expect(() => sqlLiteral(Number.NaN)).toThrow();
    expect(() => sqlLiteral([1, 2])).toThrow();
    expect(() => inlineParameters({ sql: 'select $2', parameters: [1] })).toThrow();
  });
});

describe.each(TEST_DIALECTS)('resourceCsv on %s', (dialect) => {
  let database: TestDatabase;
  let owner: ServiceContext;
  let scoped: ServiceContext;
  let companyId: number;
  let otherCompanyId: number;
  let departmentId: number;
  const tag = Math.random().toString(36).slice(2, 8);

  const TEXTS = [
    '',
    'plain',
    'a,b',
    'say "hi"',
    'line\nbreak',
    'car\rriage',
    'crlf\r\nend',
    '\n',
    '\r\n',
    '"',
    ',',
    '""',
    'a""b',
    '=SUM(A1)',
    '+1',
    '-1',
    '-12.50',
    '-.5',
    '-1.',
    '-1e5',
    '-x',
    '@home',
    '\tTab',
    '\rCR',
    '\nLF',
    '=',
    '-',
    'Ünïcödé €',
    '日本語',
    '＝full',
    '＋1',
    '－1',
    '＠x',
    "'quoted",
    '\\back\\slash',
    ' spaced ',
    '\\.',
    'null',
    'NULL',
    'emoji 😀',
  ];
  const AMOUNTS = [
    '1',
    '5',
    '10',
    '99',
    '100',
    '101',
    '1005',
    '2568830',
    '123456789',
    '4503599627370495',
    '7036874417766399',
    '7036874417766400',
    '7036874417766401',
    '9007199254740993',
    '123456789012345678',
    '9223372036854775807',
  ];
  const INSTANTS = [
    '2026-11-27 23:20:27.474999+00',
    '2026-01-01 00:00:00+00',
    '1970-01-01 00:00:00.5+00',
    '2026-06-30 23:59:59.999999+00',
    '2026-03-02 12:00:00.000001+00',
    '1000-01-01 00:00:00+00',
    '9999-12-31 23:59:59.123+00',
  ];

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    const db = database.db;
    owner = await userContext(db, await ownerId(db));
    const company = async (name: string) =>
      (
        await db
          .insertInto('companies')
          .values({ name, type: 'fintech', description: null })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    companyId = await company(`=Awkward, "Co" ${tag}`);
    otherCompanyId = await company(`Other\nCo ${tag}`);
    departmentId = (
      await db
        .insertInto('departments')
        .values({ name: `-Dept,\r\n"quoted" ${tag}` })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const plainDepartment = (
      await db
        .insertInto('departments')
        .values({ name: `Plain ${tag}` })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const categories = await Promise.all(
      [
        { companyId, departmentId, name: '@Cat é' },
        { companyId, departmentId: plainDepartment, name: '' },
        { companyId: otherCompanyId, departmentId, name: '+Other' },
      ].map(
        async (c) =>
          await db
            .insertInto('expenseCategories')
            .values(c)
            .returning(['id', 'companyId', 'departmentId'])
            .executeTakeFirstOrThrow(),
      ),
    );
    const rows = [];
    for (let i = 0; i < Math.max(TEXTS.length, AMOUNTS.length) * 2; i++) {
      const category = categories[i % categories.length];
      rows.push({
        companyId: category.companyId,
        departmentId: category.departmentId,
        categoryId: category.id,
        amountCents: AMOUNTS[i % AMOUNTS.length],
        expenseDate: `2026-0${1 + (i % 9)}-${String(1 + (i % 28)).padStart(2, '0')}`,
        description: TEXTS[i % TEXTS.length],
        vendor: i % 5 === 0 ? null : TEXTS[(i * 7) % TEXTS.length],
        receiptNumber: i % 3 === 0 ? null : TEXTS[(i * 11 + 3) % TEXTS.length],
        createdAt: INSTANTS[i % INSTANTS.length],
        updatedAt: INSTANTS[(i + 3) % INSTANTS.length],
      });
    }
    // Straight into the table: the service would refuse some of these (amounts past its
    // limit, names with line breaks), which a restore or an older version may have written.
    const values = rows.map((r) =>
      dialect === 'postgres'
        ? { ...r, createdAt: sql`${r.createdAt}::timestamptz`, updatedAt: sql`${r.updatedAt}::timestamptz` }
        : {
            ...r,
            amountCents: Math.min(Number(r.amountCents), 2 ** 53),
            createdAt: '2026-01-01T00:00:00.000Z',
            updatedAt: '2026-01-02T00:00:00.000Z',
          },
    );
    await db
      .insertInto('actualExpenses')
      .values(values as any)
      .execute();
    scoped = await userContext(db, (await createTestUser(db, { role: 'viewer', companyId })).id);
  });
  afterAll(() => database?.destroy());

  const queries: [string, () => ServiceContext, Omit<ListQuery, 'limit' | 'offset'>][] = [
    ['everything', () => owner, {}],
    ['one company', () => owner, { companyId: 0 }],
    ['a company-scoped user', () => scoped, {}],
    ['a scoped user asking for another company', () => scoped, { companyId: -1 }],
    ['a search', () => owner, { q: 'hi' }],
    ['a search over names, scoped', () => scoped, { q: 'Cat' }],
    ['a search for a quote', () => owner, { q: '"' }],
    ["a search with a quote and a dollar: it's $1", () => owner, { q: "it's $1" }],
    ['the department filter', () => owner, { filter: 'department' }],
    ['a date range', () => owner, { from: '2026-02-01', to: '2026-04-30' }],
    ['amount ascending', () => owner, { sort: 'amount', dir: 'asc' }],
    ['date ascending, scoped, searched', () => scoped, { sort: 'expenseDate', dir: 'asc', q: 'a' }],
  ];
  const resolve = (query: Omit<ListQuery, 'limit' | 'offset'>) => ({
    ...query,
    ...(query.companyId === 0 ? { companyId } : query.companyId === -1 ? { companyId: otherCompanyId } : {}),
    ...(query.filter === 'department' ? { filter: String(departmentId) } : {}),
  });

  it('has the awkward rows to export', async () => {
    const csv = (await bytesOf(cursorResourceCsv(owner, actualExpenses, {}))).toString('utf8');
    expect(
      csv.startsWith(
        'ID,Company,Department,Category,Amount,Expense Date,Description,Vendor,Receipt Number,Created At,Updated At\r\n',
      ),
    ).toBe(true);
    expect(csv).toContain(`"'=Awkward, ""Co"" ${tag}"`);
    expect(csv).toContain(`"'-Dept,\r\n""quoted"" ${tag}"`);
    if (dialect === 'postgres') {
      // The cursor path's doubles: the largest bigint, and a cent lost past 2^46 units.
      expect(csv).toContain(',92233720368547760.00,');
      expect(csv).toContain(',70368744177664.02,');
      expect(csv).toContain(',25688.30,');
      expect(csv).toContain(',2026-11-27T23:20:27.474Z,');
    }
  });

  describe.runIf(dialect === 'postgres')('COPY against the cursor path', () => {
    it.each(queries)('the same bytes: %s', async (_name, ctx, query) => {
      const cursor = cursorResourceCsv(ctx(), actualExpenses, resolve(query));
      const expected = await bytesOf(cursor);
      const copied = copiedResourceCsv(ctx(), actualExpenses, resolve(query));
      const got = await bytesOf(copied);
      expect(got.toString('utf8')).toBe(expected.toString('utf8'));
      expect(got.equals(expected)).toBe(true);
      expect(copied.rows()).toBe(cursor.rows());
    });

    it('with the byte order mark, and is the path resourceCsv takes', async () => {
      const expected = await bytesOf(cursorResourceCsv(owner, actualExpenses, {}, { bom: true }));
      expect(expected.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(true);
      expect((await bytesOf(resourceCsv(owner, actualExpenses, {}, { bom: true }))).equals(expected)).toBe(true);
    });

    it('the same bytes for every declared resource', async () => {
      for (const def of RESOURCE_LIST as readonly ResourceDef[]) {
        const expected = await bytesOf(cursorResourceCsv(owner, def, {}));
        expect((await bytesOf(copiedResourceCsv(owner, def, {}))).toString('utf8'), def.key).toBe(
          expected.toString('utf8'),
        );
      }
    });

    it('refuses a user without the permission before any byte', async () => {
      const integrations = (RESOURCE_LIST as readonly ResourceDef[]).find((def) => def.area === 'integrations')!;
      const viewer = await userContext(database.db, (await createTestUser(database.db, { role: 'viewer' })).id);
      const { chunks } = copiedResourceCsv(viewer, integrations, {});
      await expect(chunks.next()).rejects.toMatchObject({ kind: 'forbidden' });
    });

    it('stopping early drops the COPY connection and the pool carries on', async () => {
      const pool = pgPoolOf(database.db)!;
      const { chunks } = copiedResourceCsv(owner, actualExpenses, {});
      await chunks.next(); // the header
      await chunks.next(); // the first records
      await chunks.return(undefined);
      expect(pool.totalCount - pool.idleCount).toBe(0);
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(database.db);
      expect(rows[0].one).toBe(1);
    });
  });

  it.runIf(dialect === 'sqlite')('is the cursor path on SQLite', async () => {
    expect(
      (await bytesOf(resourceCsv(owner, actualExpenses, { q: 'a' }))).equals(
        await bytesOf(cursorResourceCsv(owner, actualExpenses, { q: 'a' })),
      ),
    ).toBe(true);
  });
});
