// A filter whose column leads an index (the revenue lists' Source) offers what DISTINCT over the
// listed rows gives, on every test dialect: the same values in the same order, the user's company
// scope and the screen's company, and at most the first 500; every step of it reads an index.
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerId, userContext } from '../../../test/context.ts';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { createTestUser } from '../../../test/users.ts';
import { actualRevenue, revenueProjections } from '../../features/resources.ts';
import type { Db, ServiceContext } from '../context.ts';
import { filterValues, formChoices } from './resource-choices.server.ts';

// Case, accents, spaces, digits and punctuation: the database's order, not JavaScript's, decides.
const SOURCES = [
  'Roaming',
  'roaming',
  'Data Bundles',
  'data bundles',
  ' Leading space',
  'Été',
  'Zeta',
  'zz',
  '10 Fees',
  '9 Fees',
  'A-B',
  'A B',
  'a_b',
  'Ω',
];

describe.each(TEST_DIALECTS)('filter choices through the column index on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let owner: ServiceContext;
  let scoped: ServiceContext;
  let mine: number;
  let theirs: number;
  let many: number;

  /** What the Source filter offered before: DISTINCT over the rows, ordered, 500 at most. */
  async function distinct(table: 'actual_revenue' | 'revenue_projections', companyId?: number): Promise<string[]> {
    const where = companyId === undefined ? sql`` : sql`where company_id = ${companyId}`;
    const { rows } = await sql<{
      source: string;
    }>`select distinct source from ${sql.table(table)} ${where} order by source limit 500`.execute(db);
    return rows.map((r) => r.source);
  }
  const offered = async (
    ctx: ServiceContext,
    def: typeof actualRevenue | typeof revenueProjections,
    companyId?: number,
  ) => (await formChoices(ctx, def, companyId === undefined ? {} : { companyId }, { form: false })).filter;

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    db = database.db;
    owner = await userContext(db, await ownerId(db));
    const companies = await db.selectFrom('companies').select('id').orderBy('id').limit(3).execute();
    [mine, theirs, many] = companies.map((c) => c.id);
    scoped = await userContext(db, (await createTestUser(db, { role: 'viewer', companyId: mine })).id);
    // Mine has every other source, twice; theirs the rest and a few of mine.
    const revenue = SOURCES.flatMap((source, i) => {
      const companyId = i % 2 === 0 ? mine : theirs;
      return [0, 1].map((k) => ({ companyId, source, amountCents: 100 + k, revenueDate: `2030-0${1 + k}-01` }));
    });
    revenue.push({ companyId: theirs, source: 'Roaming', amountCents: 5, revenueDate: '2030-03-01' });
    // More sources than a filter offers, in a third company, inserted out of order.
    for (let i = 620; i > 0; i--)
      revenue.push({
        companyId: many,
        source: `Source ${String(i).padStart(4, '0')}`,
        amountCents: i,
        revenueDate: '2030-04-01',
      });
    for (let i = 0; i < revenue.length; i += 200)
      await db
        .insertInto('actualRevenue')
        .values(revenue.slice(i, i + 200))
        .execute();
    await db
      .insertInto('revenueProjections')
      .values(
        SOURCES.map((source, i) => ({
          companyId: i % 3 === 0 ? theirs : mine,
          source,
          amountCents: 100,
          period: 'annual',
          status: 'active',
          startDate: '2030-01-01',
          endDate: '2030-12-31',
        })),
      )
      .execute();
  });
  afterAll(() => database?.destroy());

  it("a user of the whole group: every source of every company, the first 500 in the database's order", async () => {
    const expected = await distinct('actual_revenue');
    expect(expected).toHaveLength(500);
    const choices = await offered(owner, actualRevenue);
    expect(choices.map((c) => c.value)).toEqual(expected);
    expect(choices.every((c) => c.label === c.value && c.value !== 'null')).toBe(true);
    expect(await offered(owner, revenueProjections).then((cs) => cs.map((c) => c.value))).toEqual(
      await distinct('revenue_projections'),
    );
  });

  it("a company-limited user: only their company's sources; another company's screen offers none", async () => {
    const expected = await distinct('actual_revenue', mine);
    expect(expected).toHaveLength(SOURCES.length / 2);
    expect((await offered(scoped, actualRevenue)).map((c) => c.value)).toEqual(expected);
    expect((await offered(scoped, revenueProjections)).map((c) => c.value)).toEqual(
      await distinct('revenue_projections', mine),
    );
    expect(await offered(scoped, actualRevenue, theirs)).toEqual([]);
    expect((await offered(scoped, actualRevenue, mine)).map((c) => c.value)).toEqual(expected);
  });

  it("a screen of one company: that company's sources, capped at 500 in order", async () => {
    expect((await offered(owner, actualRevenue, theirs)).map((c) => c.value)).toEqual(
      await distinct('actual_revenue', theirs),
    );
    const capped = (await offered(owner, actualRevenue, many)).map((c) => c.value);
    expect(capped).toEqual(Array.from({ length: 500 }, (_, i) => `Source ${String(i + 1).padStart(4, '0')}`));
    expect(capped).toEqual(await distinct('actual_revenue', many));
  });

  // The planted tables are small: PostgreSQL is told to avoid scans and sorts where it can, so the
  // plan shows that an index serves every step (on the real book it picks them by cost).
  async function plan(
    ctx: ServiceContext,
    def: typeof actualRevenue | typeof revenueProjections,
    companyId?: number,
  ): Promise<string[]> {
    const query = filterValues(ctx, def, companyId === undefined ? {} : { companyId }).compile();
    if (dialect === 'sqlite') {
      const { rows } = await db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
      );
      return rows.map((r) => r.detail);
    }
    return db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      await sql`set local enable_sort = off`.execute(trx);
      const { rows } = await trx.executeQuery<{ 'QUERY PLAN': string }>(
        CompiledQuery.raw(`explain (analyze, costs off, timing off, summary off) ${query.sql}`, [...query.parameters]),
      );
      return rows.map((r) => r['QUERY PLAN']);
    });
  }

  it.each([
    ['actual revenue, every company', 'actual_revenue_source_revenue_date_idx', () => plan(owner, actualRevenue)],
    [
      'actual revenue, a company-limited user',
      'actual_revenue_company_id_source_idx',
      () => plan(scoped, actualRevenue),
    ],
    [
      'actual revenue, a screen of one company',
      'actual_revenue_company_id_source_idx',
      () => plan(owner, actualRevenue, theirs),
    ],
    [
      'revenue projections, every company',
      'revenue_projections_source_start_date_idx',
      () => plan(owner, revenueProjections),
    ],
    [
      'revenue projections, a company-limited user',
      'revenue_projections_plan_key_idx',
      () => plan(scoped, revenueProjections),
    ],
  ])(
    '%s: the first value and each next one come from %s in order; only the values found are sorted',
    async (_name, index, explain) => {
      const lines = (await explain()).map((line) => line.trim().replace(/^->\s*/, ''));
      if (dialect === 'sqlite') {
        const reads = lines.filter((line) => /^(SCAN|SEARCH) t\b/.test(line));
        expect(reads).toHaveLength(2);
        for (const read of reads) expect(read).toContain(`INDEX ${index}`);
        expect(lines.filter((line) => line.includes('TEMP B-TREE'))).toHaveLength(1);
      } else {
        const reads = lines.filter((line) => / on (actual_revenue|revenue_projections) t/.test(line));
        expect(reads).toHaveLength(2);
        for (const read of reads) expect(read).toMatch(new RegExp(`^Index (Only )?Scan using ${index} on`));
        expect(lines.filter((line) => /^Sort( |$)/.test(line) && !/^Sort (Key|Method)/.test(line))).toHaveLength(1);
      }
    },
  );
});
