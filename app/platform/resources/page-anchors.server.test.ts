// Deep pages read from anchors (page-anchors.server.ts, PostgreSQL) or placed by the day counts
// (day-pages.server.ts, PostgreSQL: the date sort of a list with no condition but a company) are
// exactly the pages OFFSET gives, on every test dialect (SQLite reads them with OFFSET: the same
// answers): both sorts and directions with runs of equal keys (the id tie-break), with filters
// and a company-scoped user, and after inserts, updates, moves and deletes made through another
// connection; the change token (migration 0014) follows every write of its table and nothing
// else, and the day counts (migration 0017) stay those of the rows.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../../db/client.ts';
import { generateData } from '../../../db/generate.ts';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { ownerId, userContext } from '../../../test/context.ts';
import { createTestUser } from '../../../test/users.ts';
import { dayCountsAgainstRows } from '../../../test/day-counts.ts';
import { searchTableAgainstRows } from '../../../test/search-table.ts';
import { actualExpenses, companies, expenseCategories } from '../../features/resources.ts';
import type { ServiceContext } from '../context.ts';
import { dayPageStats } from './day-pages.server.ts';
import { forgetPageAnchors, PAGE_ANCHORS, pageAnchorStats } from './page-anchors.server.ts';
import { LIST_PAGING } from './resource-list.server.ts';
import { createRecord, listRecords, type ApiRow, type ListQuery } from './resources.server.ts';

const DEFAULTS = { anchors: { ...PAGE_ANCHORS }, paging: { ...LIST_PAGING } };

// Few distinct keys: runs of equal dates and amounts cross anchors and pages.
const DATES = ['2026-01-05', '2026-01-05', '2026-02-10', '2026-03-15', '2026-03-15', '2026-03-15', '2026-04-20'];
const AMOUNTS = [12, 12, 7, 30, 7, 7, 12, 55];

/** The URL with the planner's sorts and sequential scans put off (PostgreSQL). */
function planAsIfLarge(url: string): string {
  const u = new URL(url);
  u.searchParams.set(
    'options',
    `${u.searchParams.get('options') ?? ''} -c enable_sort=off -c enable_seqscan=off`.trim(),
  );
  return u.toString();
}

/** The list's order, worked out here: the sort key, then id, both in one direction. */
function expectedIds(rows: ApiRow[], key: 'expenseDate' | 'amount', dir: 'asc' | 'desc'): number[] {
  const sign = dir === 'asc' ? 1 : -1;
  return [...rows]
    .sort((a, b) => {
      const x = a[key] as string | number;
      const y = b[key] as string | number;
      return x < y ? -sign : x > y ? sign : (a.id - b.id) * sign;
    })
    .map((r) => r.id);
}

describe.each(TEST_DIALECTS)('deep pages from anchors on %s', (dialect) => {
  let database: TestDatabase;
  let other: DatabaseHandle;
  let reader: DatabaseHandle;
  let owner: ServiceContext;
  let scoped: ServiceContext;
  let first: number;
  let second: number;
  let department: number;

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    // Another connection (another process would be the same): the worker, the CLI.
    other = createDatabase(database.url ? { url: database.url, poolSize: 1 } : { dataDir: database.dataDir });
    // A table of a few dozen rows is read whole and sorted, and anchors are kept only for lists
    // that an index orders: here the planner is told to prefer the indexes, as at a million rows.
    reader = database.url ? createDatabase({ url: planAsIfLarge(database.url), poolSize: 2 }) : database;
    owner = await userContext(reader.db, await ownerId(database.db));
    // The rows are written with the default plans: the reader's settings only shape its reads.
    const writer = await userContext(database.db, await ownerId(database.db));
    const departments = await database.db.selectFrom('departments').select('id').orderBy('id').limit(2).execute();
    department = departments[0].id;
    const companyIds: number[] = [];
    for (const name of ['Anchor One', 'Anchor Two']) {
      const companyId = (
        await createRecord(writer, companies, {
          name: `${name} ${Math.random().toString(36).slice(2, 8)}`,
          type: 'marketing',
          description: null,
        })
      ).id;
      companyIds.push(companyId);
      for (const [i, d] of departments.entries()) {
        const categoryId = (
          await createRecord(writer, expenseCategories, { companyId, departmentId: d.id, name: `Cat ${i}` })
        ).id;
        const rows = companyIds.length === 1 ? 18 : 11;
        for (let n = 0; n < rows; n++) {
          await createRecord(writer, actualExpenses, {
            departmentId: d.id,
            categoryId,
            amount: AMOUNTS[(n + i) % AMOUNTS.length],
            expenseDate: DATES[(n * 3 + i) % DATES.length],
            description: `Entry ${n}`,
          });
        }
      }
    }
    [first, second] = companyIds;
    const user = await createTestUser(database.db, { role: 'viewer', companyId: first });
    scoped = await userContext(reader.db, user.id);
  });
  afterAll(async () => {
    await other?.close();
    if (reader !== database) await reader?.close();
    await database?.destroy();
  });

  /** Every page (by `limit`, at every offset) of each list, against the order worked out here. */
  async function expectPagesAsOffset(): Promise<void> {
    Object.assign(PAGE_ANCHORS, { every: 3 });
    Object.assign(LIST_PAGING, { directPageOffset: 0 });
    onTestFinished(() => {
      Object.assign(PAGE_ANCHORS, DEFAULTS.anchors);
      Object.assign(LIST_PAGING, DEFAULTS.paging);
    });
    const all = (await listRecords(owner, actualExpenses, { limit: 1000, offset: 0 })).rows;
    const lists: { ctx: ServiceContext; name: string; query: Partial<ListQuery>; rows: ApiRow[] }[] = [
      { ctx: owner, name: 'all', query: {}, rows: all },
      {
        ctx: owner,
        name: 'one company',
        query: { companyId: second },
        rows: all.filter((r) => r.companyId === second),
      },
      {
        ctx: owner,
        name: 'department',
        query: { filter: String(department) },
        rows: all.filter((r) => r.departmentId === department),
      },
      {
        ctx: owner,
        name: 'date range',
        query: { from: '2026-02-01', to: '2026-03-31' },
        rows: all.filter((r) => (r.expenseDate as string) >= '2026-02-01' && (r.expenseDate as string) <= '2026-03-31'),
      },
      { ctx: scoped, name: 'company-scoped user', query: {}, rows: all.filter((r) => r.companyId === first) },
      {
        ctx: scoped,
        name: 'company-scoped user, department',
        query: { filter: String(department) },
        rows: all.filter((r) => r.companyId === first && r.departmentId === department),
      },
    ];
    for (const list of lists) {
      expect(list.rows.length, list.name).toBeGreaterThan(8);
      for (const [sort, key] of [
        ['expenseDate', 'expenseDate'],
        ['amount', 'amount'],
      ] as const) {
        for (const dir of ['asc', 'desc'] as const) {
          const expected = expectedIds(list.rows, key, dir);
          for (const limit of list.name === 'all' ? [1, 3] : [3]) {
            for (let offset = 0; offset < expected.length; offset++) {
              const page = await listRecords(list.ctx, actualExpenses, { ...list.query, sort, dir, limit, offset });
              expect(page.total, `${list.name} ${sort} ${dir}`).toBe(expected.length);
              expect(
                page.rows.map((r) => r.id),
                `${list.name} ${sort} ${dir} limit ${limit} offset ${offset}`,
              ).toEqual(expected.slice(offset, offset + limit));
            }
          }
        }
      }
    }
  }

  it('gives the pages OFFSET gives, for every list, sort and direction', async () => {
    forgetPageAnchors();
    const before = { ...pageAnchorStats };
    const byDay = dayPageStats.pages;
    await expectPagesAsOffset();
    if (dialect === 'postgres') {
      // The date sort's pages of the whole list, one company's and the scoped user's: by day.
      expect(dayPageStats.pages - byDay).toBeGreaterThan(200);
      const [kept, counted] = await dayCountsAgainstRows(database.db);
      expect(kept).toEqual(counted);
      // The deep pages did come from anchors, found once per list while nothing changed.
      expect(pageAnchorStats.pages - before.pages).toBeGreaterThan(300);
      const walks = pageAnchorStats.walks - before.walks;
      expect(walks).toBeGreaterThan(0);
      expect(walks).toBeLessThan(pageAnchorStats.pages - before.pages);
      const again = { ...pageAnchorStats };
      await expectPagesAsOffset();
      expect(pageAnchorStats.walks).toBe(again.walks);
    }
  });

  it('follows inserts, updates and deletes made through another connection', async () => {
    await expectPagesAsOffset();
    const walks = pageAnchorStats.walks;
    const {
      rows: [row],
    } = await sql<{
      id: number;
    }>`select id from actual_expenses where company_id = ${first} order by id limit 1`.execute(other.db);
    // A row moves (its amount and date), copies arrive in the middle of runs, a row goes.
    await sql`update actual_expenses set amount_cents = 700, expense_date = '2026-03-15' where id = ${row.id}`.execute(
      other.db,
    );
    await sql`insert into actual_expenses (company_id, department_id, category_id, amount_cents, expense_date, description)
      select company_id, department_id, category_id, amount_cents, expense_date, 'Copy' from actual_expenses where company_id = ${first} order by id limit 3`.execute(
      other.db,
    );
    await sql`delete from actual_expenses where id = (select max(id) from actual_expenses where company_id = ${second} and description <> 'Copy')`.execute(
      other.db,
    );
    // A row moves to the other company, one changes only its amount.
    await sql`update actual_expenses set company_id = ${second} where id = (select max(id) from actual_expenses where company_id = ${first} and description <> 'Copy')`.execute(
      other.db,
    );
    await sql`update actual_expenses set amount_cents = amount_cents + 1 where id = (select min(id) from actual_expenses where company_id = ${second})`.execute(
      other.db,
    );
    await expectPagesAsOffset();
    if (dialect === 'postgres') {
      expect(pageAnchorStats.walks).toBeGreaterThan(walks);
      const [kept, counted] = await dayCountsAgainstRows(database.db);
      expect(kept).toEqual(counted);
    }
  });

  it.runIf(dialect === 'postgres')(
    'the change token follows each statement that writes the table, once committed',
    async () => {
      const token = async () =>
        (
          await sql<{ token: string }>`select token from change_tokens where table_name = 'actual_expenses'`.execute(
            database.db,
          )
        ).rows[0].token;
      const start = await token();
      await sql`update actual_revenue set amount_cents = amount_cents where false`.execute(other.db);
      expect(await token()).toBe(start);
      // A write that changes nothing still counts (the token cannot tell); a rolled-back one does not.
      await sql`update actual_expenses set amount_cents = amount_cents where false`.execute(other.db);
      const afterEmpty = await token();
      expect(afterEmpty).not.toBe(start);
      await other.db
        .transaction()
        .execute(async (trx) => {
          await sql`delete from actual_expenses where description = 'Copy'`.execute(trx);
          throw new Error('rolled back');
        })
        .catch(() => {});
      expect(await token()).toBe(afterEmpty);
      // Uncommitted: the other connection's new token is not seen until it commits.
      let inside = '';
      await other.db.transaction().execute(async (trx) => {
        await sql`update actual_expenses set vendor = vendor where id = -1`.execute(trx);
        inside = (
          await sql<{ token: string }>`select token from change_tokens where table_name = 'actual_expenses'`.execute(
            trx,
          )
        ).rows[0].token;
        expect(inside).not.toBe(afterEmpty);
        expect(await token()).toBe(afterEmpty);
      });
      expect(await token()).toBe(inside);
    },
  );

  it.runIf(dialect === 'postgres')(
    'a bulk load with the triggers off (db generate) replaces the token and rebuilds the search table',
    async () => {
      Object.assign(PAGE_ANCHORS, { every: 3 });
      Object.assign(LIST_PAGING, { directPageOffset: 0 });
      onTestFinished(() => {
        Object.assign(PAGE_ANCHORS, DEFAULTS.anchors);
        Object.assign(LIST_PAGING, DEFAULTS.paging);
      });
      const token = async () =>
        (
          await sql<{ token: string }>`select token from change_tokens where table_name = 'actual_expenses'`.execute(
            database.db,
          )
        ).rows[0].token;
      const offsetPage = async () =>
        (
          await sql<{
            id: number;
          }>`select id from actual_expenses order by expense_date desc, id desc limit 3 offset 10`.execute(database.db)
        ).rows.map((r) => r.id);
      const deep = { limit: 3, offset: 10 };
      expect((await listRecords(owner, actualExpenses, deep)).rows.map((r) => r.id)).toEqual(await offsetPage());
      const before = await token();
      // 50,000 rows: a bulk load, which switches the table's user triggers off.
      await generateData(database, { rows: 50_000, related: false, url: database.url, seed: 7 });
      expect(await token()).not.toBe(before);
      expect((await listRecords(owner, actualExpenses, deep)).rows.map((r) => r.id)).toEqual(await offsetPage());
      // The search table's trigger was off too (migration 0015): it is read again from the rows.
      const [searched, fromRows] = await searchTableAgainstRows(database.db);
      expect(fromRows.length).toBeGreaterThan(50_000);
      expect(searched).toEqual(fromRows);
      // So were the day counts' (migration 0017): counted again from the rows.
      const [kept, counted] = await dayCountsAgainstRows(database.db);
      expect(kept).toEqual(counted);
    },
  );
});
