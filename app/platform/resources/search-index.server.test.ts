// Search through the trigram index (db/search-index.ts) gives what a substring match over the
// columns gives, on every test dialect: for awkward text, after updates and deletes (the
// triggers), and after a rebuild; the table's searched columns are the index's. On PostgreSQL
// also that the search table holds what the rows give, and that a search with no other
// condition is answered from it alone (for every company and for a company-scoped user).
import { sql, type KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { ownerId, userContext } from '../../../test/context.ts';
import { searchTableAgainstRows } from '../../../test/search-table.ts';
import { dialectHelpers } from '../../../db/dialect.ts';
import { migrations } from '../../../db/migrations/index.ts';
import {
  dropPostgresSearchTable,
  rebuildSearchIndex,
  SEARCH_INDEXES,
  usesSearchIndex,
} from '../../../db/search-index.ts';
import { snakeCase } from '../lib/names.ts';
import { RESOURCE_LIST } from '../../features/resources.ts';
import { actualExpenses, companies, expenseCategories } from '../../features/resources.ts';
import type { ServiceContext } from '../context.ts';
import { createRecord, deleteRecord, listRecords, updateRecord, type ApiRow } from './resources.server.ts';
import { LIST_PAGING } from './resource-list.server.ts';

const DEFAULT_PAGING = { ...LIST_PAGING };

it("each index covers exactly its resource's own searched columns", () => {
  for (const index of Object.values(SEARCH_INDEXES)) {
    const def = RESOURCE_LIST.find((r) => snakeCase(r.table) === index.table);
    expect(def, index.table).toBeDefined();
    // Amounts are matched as typed amounts through their own index, not as text.
    const money = new Set(def!.fields.filter((f) => f.kind === 'money').map((f) => `${f.name}Cents`));
    const own = def!.list.search.filter((c) => !c.includes('.') && !money.has(c)).map(snakeCase);
    expect([...own].sort()).toEqual([...index.columns].sort());
  }
});

it('uses the index from three characters, and not for text with a line break', () => {
  expect(usesSearchIndex('ab')).toBe(false);
  expect(usesSearchIndex('abc')).toBe(true);
  expect(usesSearchIndex('a\nbc')).toBe(false);
});

const TEXTS = [
  { description: 'Cloud hosting – Azure subscription', vendor: 'Microsoft Azure', receiptNumber: 'RCP-1001' },
  { description: 'AZURE credits (promo)', vendor: null, receiptNumber: null },
  { description: '50% off office chairs', vendor: 'Office_Depot', receiptNumber: 'A_B-2' },
  { description: 'Say "hello" to the team', vendor: "O'Brien & Sons", receiptNumber: 'Q"1' },
  { description: 'Back\\slash and *stars* (parens) ^caret', vendor: 'NEAR AND OR NOT', receiptNumber: '***' },
  { description: 'Ümlaut café supplies', vendor: 'Straße GmbH', receiptNumber: 'ÉCLAIR-9' },
  { description: 'Consulting retainer', vendor: 'Acme Consulting', receiptNumber: 'INV-2024-07' },
];

const QUERIES = [
  'azure',
  'AZURE',
  'Azure sub',
  'RCP-10',
  '50%',
  '0% o',
  'e_D',
  '_',
  'a_b',
  '"hello"',
  'lo" t',
  "o'brien",
  '\\sla',
  '*st',
  'near and',
  'and',
  'not',
  '***',
  'café',
  'caf',
  'straße',
  'GmbH',
  'INV-2024',
  '2026-02',
  '-02-1',
  'consult',
  'nothing like this',
  'Finance',
  'marketing',
  'zz',
  'a',
  '%',
  '2026',
];

describe.each(TEST_DIALECTS)('search through the index on %s', (dialect) => {
  let database: TestDatabase;
  let ctx: ServiceContext;
  let scoped: ServiceContext;
  let companyId: number;
  let companyName: string;
  const created: number[] = [];

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    ctx = await userContext(database.db, await ownerId(database.db));
    companyName = `Searchco ${Math.random().toString(36).slice(2, 8)}`;
    companyId = (await createRecord(ctx, companies, { name: companyName, type: 'marketing', description: null })).id;
    if (ctx.actor.kind !== 'user') throw new Error('a user context was expected');
    scoped = { ...ctx, actor: { kind: 'user', user: { ...ctx.actor.user, companyId } } };
    const departments = await database.db
      .selectFrom('departments')
      .select(['id', 'name'])
      .where('name', 'in', ['Finance', 'Marketing'])
      .execute();
    for (const [i, text] of TEXTS.entries()) {
      const department = departments[i % departments.length];
      const category = await createRecord(ctx, expenseCategories, {
        companyId,
        departmentId: department.id,
        name: `Cat ${i} Supplies`,
      });
      const day = `2026-0${1 + (i % 3)}-1${i}`;
      created.push(
        (
          await createRecord(ctx, actualExpenses, {
            departmentId: department.id,
            categoryId: category.id,
            amount: 10 + i,
            expenseDate: day,
            ...text,
          })
        ).id,
      );
    }
  });
  afterAll(() => database?.destroy());

  async function everyRow(): Promise<ApiRow[]> {
    return (await listRecords(ctx, actualExpenses, { limit: 1000, offset: 0, companyId })).rows;
  }

  /** What a substring match over the columns finds (ASCII case folding, as SQLite's LIKE). */
  function expected(rows: ApiRow[], q: string): number[] {
    const fold = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
    const term = fold(q.trim());
    const texts = (r: ApiRow) => [
      r.description,
      r.vendor,
      r.receiptNumber,
      r.expenseDate,
      r.departmentName,
      r.categoryName,
      companyName,
    ];
    return rows
      .filter((r) => texts(r).some((t) => t !== null && t !== undefined && fold(String(t)).includes(term)))
      .map((r) => r.id);
  }

  async function found(q: string, where: { companyId?: number } = { companyId }, as = ctx): Promise<number[]> {
    const { rows, total } = await listRecords(as, actualExpenses, { q, limit: 1000, offset: 0, ...where });
    expect(total).toBe(rows.length);
    return rows.map((r) => r.id);
  }

  const SEARCH_TABLE_INDEXES = [
    'actual_expenses_search_category_id_idx',
    'actual_expenses_search_department_id_idx',
    'actual_expenses_search_description_term_idx',
    'actual_expenses_search_expense_date_idx',
    'actual_expenses_search_pkey',
    'actual_expenses_search_terms_key',
    'actual_expenses_search_terms_pkey',
    'actual_expenses_search_terms_value_idx',
    'actual_expenses_search_text_idx',
    'actual_expenses_search_vendor_term_idx',
  ];

  async function searchIndexNames(): Promise<string[]> {
    const { rows } = await sql<{
      name: string;
    }>`select indexname as name from pg_indexes where schemaname = current_schema()
      and tablename in ('actual_expenses', 'actual_expenses_search', 'actual_expenses_search_terms') and indexname like '%search%' order by 1`.execute(
      database.db,
    );
    return rows.map((r) => r.name);
  }

  async function expectSameAsSubstring(): Promise<void> {
    const rows = await everyRow();
    // Only this test's rows: "every company" below lists the same ones.
    expect((await listRecords(ctx, actualExpenses, { limit: 1000, offset: 0 })).total).toBe(rows.length);
    const other = await database.db
      .selectFrom('companies')
      .select('id')
      .where('id', '!=', companyId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    for (const q of QUERIES) {
      const want = expected(rows, q);
      expect(await found(q), q).toEqual(want);
      expect(await found(q, {}), `${q}, every company`).toEqual(want);
      expect(await found(q, {}, scoped), `${q}, company-scoped user`).toEqual(want);
      expect(await found(q, { companyId: other.id }), `${q}, the Company filter on another company`).toEqual([]);
    }
    if (dialect === 'postgres') {
      const [table, fromRows] = await searchTableAgainstRows(database.db);
      expect(table).toEqual(fromRows);
    }
  }

  /** The queries listRecords sends, as Kysely's nodes (names and all) after the app's plugins. */
  function recording(as: ServiceContext): { ctx: ServiceContext; queries: string[] } {
    const queries: string[] = [];
    const plugin: KyselyPlugin = {
      transformQuery: ({ node }) => {
        queries.push(JSON.stringify(node));
        return node;
      },
      transformResult: async ({ result }) => result,
    };
    return { ctx: { ...as, db: as.db.withPlugin(plugin) }, queries };
  }

  it.runIf(dialect === 'postgres')(
    'answers a search with nothing else to check from the search table alone',
    async () => {
      const readsTable = async (as: ServiceContext, query: Record<string, unknown>) => {
        const spy = recording(as);
        await listRecords(spy.ctx, actualExpenses, { q: 'azure', limit: 10, offset: 0, ...query });
        const paging = spy.queries.filter((q) => q.includes('count(*) over ()'));
        expect(paging).toHaveLength(1);
        return paging[0].includes('"name":"actual_expenses"');
      };
      expect(await readsTable(ctx, {})).toBe(false);
      expect(await readsTable(scoped, {})).toBe(false);
      expect(await readsTable(ctx, { sort: 'amount', dir: 'asc' })).toBe(false);
      // Departments, categories and days by their keys in the search table.
      expect(await readsTable(ctx, { q: 'Finance' })).toBe(false);
      expect(await readsTable(ctx, { q: 'Supplies' })).toBe(false);
      expect(await readsTable(ctx, { q: '2026-02' })).toBe(false);
      // The Company filter too: the search table holds each row's company.
      expect(await readsTable(ctx, { companyId })).toBe(false);
      expect(await readsTable(scoped, { companyId })).toBe(false);
      // Conditions and names the search table does not hold send the search to the table.
      expect(await readsTable(ctx, { companyId, from: '2026-01-01' })).toBe(true);
      expect(await readsTable(ctx, { q: companyName })).toBe(true);
    },
  );

  it.runIf(dialect === 'postgres')(
    'finds the rows of each kind of match through its own lookup, appended without deduplicating',
    async () => {
      const lookups = async (q: string) => {
        const spy = recording(ctx);
        await listRecords(spy.ctx, actualExpenses, { q, limit: 10, offset: 0 });
        const paging = spy.queries.find((text) => text.includes('count(*) over ()'))!;
        const appended = [
          ...paging.matchAll(/"kind":"SetOperationNode","operator":"union","expression":.*?"all":(true|false)/g),
        ];
        expect(
          appended.every((m) => m[1] === 'true'),
          q,
        ).toBe(true);
        return appended.length + 1;
      };
      // Vendors, then the receipt numbers (the row's own text).
      expect(await lookups("o'brien")).toBe(2);
      // Descriptions, vendors and receipt numbers.
      expect(await lookups('consult')).toBe(3);
      // Descriptions, categories (by name), then receipt numbers.
      expect(await lookups('supplies')).toBe(3);
    },
  );

  it("exports what the list finds, and so do conditions built without the search's lookups", async () => {
    const { conditions, recordQuery } = await import('./resource-list.server.ts');
    const sorted = (ids: unknown[]) => ids.map(Number).sort((a, b) => a - b);
    for (const q of QUERIES) {
      const want = sorted(await found(q));
      const exported = await (await recordQuery(ctx, actualExpenses, { q, companyId })).select('t.id').execute();
      expect(sorted(exported.map((r) => r.id)), q).toEqual(want);
      // The names, days and dictionary values read in the statement instead.
      const { where } = conditions(ctx, actualExpenses, { q, companyId, limit: 0, offset: 0 });
      const unlooked = await where
        .reduce(
          (query, condition) => query.where(condition),
          database.db.selectFrom('actualExpenses as t').select('t.id'),
        )
        .execute();
      expect(sorted(unlooked.map((r) => r.id)), `${q}, without lookups`).toEqual(want);
    }
  });

  it('finds what a substring match over the columns finds', async () => {
    expect(await found('azure')).toHaveLength(2);
    expect(await found('o"brien')).toEqual([]);
    // Past the last match: no rows, the right total.
    expect(await listRecords(ctx, actualExpenses, { q: 'azure', limit: 10, offset: 2, companyId })).toEqual({
      rows: [],
      total: 2,
    });
    await expectSameAsSubstring();
  });

  it.each([
    ['sorting the matches', { sortMatchesUpTo: 2_000, walkEntries: 100_000, directPageOffset: 200 }],
    ['sorting the matches, ids first', { sortMatchesUpTo: 2_000, walkEntries: 100_000, directPageOffset: 0 }],
    [
      'walking the sort index, or sorting when the stretch falls short',
      { sortMatchesUpTo: 0, walkEntries: 4, directPageOffset: 200 },
    ],
  ])('pages of one result, %s, make up the whole result', async (_way, paging) => {
    Object.assign(LIST_PAGING, paging);
    onTestFinished(() => {
      Object.assign(LIST_PAGING, DEFAULT_PAGING);
    });
    // With and without a company condition: on PostgreSQL the table, or the search table alone.
    for (const where of [{ companyId }, {}]) {
      for (const q of ['supplies', 'azure', '2026-0', 'Finance']) {
        for (const order of [{ dir: 'asc' }, { dir: 'desc' }, { sort: 'amount', dir: 'desc' }] as const) {
          const whole = await listRecords(ctx, actualExpenses, { q, limit: 1000, offset: 0, ...where, ...order });
          const paged: number[] = [];
          for (let offset = 0; offset < whole.total; offset++) {
            const page = await listRecords(ctx, actualExpenses, { q, limit: 1, offset, ...where, ...order });
            expect(page.total).toBe(whole.total);
            paged.push(...page.rows.map((r) => r.id));
          }
          expect(paged, `${q} ${JSON.stringify(where)} ${JSON.stringify(order)}`).toEqual(whole.rows.map((r) => r.id));
        }
      }
    }
  });

  it('follows updates and deletes', async () => {
    await updateRecord(ctx, actualExpenses, created[0], { description: 'Renamed entry', vendor: 'Globex' });
    // Keys the search table keeps beside the text follow too.
    await updateRecord(ctx, actualExpenses, created[1], { amount: 99, expenseDate: '2025-12-31' });
    await deleteRecord(ctx, actualExpenses, created[6]);
    expect(await found('microsoft')).toEqual([]);
    expect(await found('globex')).toEqual([created[0]]);
    expect(await found('acme consult')).toEqual([]);
    await expectSameAsSubstring();
    if (dialect === 'sqlite')
      await sql`insert into actual_expenses_search (actual_expenses_search) values ('integrity-check')`.execute(
        database.db,
      );
  });

  it.runIf(dialect === 'postgres')('migration 0015 gives a database from before it its search table', async () => {
    const db = database.db;
    // As 0013 left it before the search tables: the GIN index over the table's own text.
    await dropPostgresSearchTable(db, SEARCH_INDEXES.actual_expenses);
    await sql
      .raw(
        `create index actual_expenses_search_idx on actual_expenses using gin ((coalesce(description, '') || E'\\n' || coalesce(vendor, '') || E'\\n' || coalesce(receipt_number, '')) public.gin_trgm_ops)`,
      )
      .execute(db);
    // 0015 makes today's search table, which 0016 then leaves alone (each run on its own, as the
    // migrator would run them in order: later migrations are applied to this database already).
    await migrations['0015_search_tables'].up(db, dialectHelpers(dialect));
    await migrations['0016_search_terms'].up(db, dialectHelpers(dialect));
    expect(await searchIndexNames()).toEqual(SEARCH_TABLE_INDEXES);
    await expectSameAsSubstring();
    await updateRecord(ctx, actualExpenses, created[2], { vendor: 'Initech' });
    expect(await found('initech')).toEqual([created[2]]);
  });

  it.runIf(dialect === 'postgres')('migration 0016 gives a search table of the 0015 shape its dictionary', async () => {
    const db = database.db;
    // As 0015 left it: the text columns joined, lowercased, under one GIN index.
    await dropPostgresSearchTable(db, SEARCH_INDEXES.actual_expenses);
    await sql
      .raw(
        `create table actual_expenses_search as select id, company_id, expense_date, amount_cents,
        lower(coalesce(description, '') || E'\\n' || coalesce(vendor, '') || E'\\n' || coalesce(receipt_number, '')) as text from actual_expenses`,
      )
      .execute(db);
    await sql
      .raw(
        `create index actual_expenses_search_text_idx on actual_expenses_search using gin (text public.gin_trgm_ops)`,
      )
      .execute(db);
    await migrations['0016_search_terms'].up(db, dialectHelpers(dialect));
    expect(await searchIndexNames()).toEqual(SEARCH_TABLE_INDEXES);
    await expectSameAsSubstring();
    await updateRecord(ctx, actualExpenses, created[3], { vendor: 'Hooli Partners', description: 'Hooli workshop' });
    expect(await found('hooli')).toEqual([created[3]]);
    await expectSameAsSubstring();
  });

  it('gives the same answers after a rebuild from the rows', async () => {
    await rebuildSearchIndex(database.db, dialect, 'actual_expenses');
    await expectSameAsSubstring();
    // FTS5 compares its index with the rows (throws when they differ).
    if (dialect === 'sqlite')
      await sql`insert into actual_expenses_search (actual_expenses_search) values ('integrity-check')`.execute(
        database.db,
      );
  });
});
