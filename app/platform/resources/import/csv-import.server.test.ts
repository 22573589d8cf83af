// The generic CSV import on every test dialect: header matching (the export's headers, the API's
// names, a chosen column), each kind of refused row with the form's messages, both modes,
// dry runs, updates by ID, the importer's company scope, audit entries and versions of every
// written row, the maintained row counts, and the round trip of every writable resource's export.
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerId, userContext } from '../../../../test/context.ts';
import {
  createPreparedDatabase,
  createTestDatabase,
  OWNER_PASSWORD,
  TEST_DIALECTS,
  type TestDatabase,
} from '../../../../test/database.ts';
import { prepareDatabase } from '../../../features/system/bootstrap.server.ts';
import { createTestUser } from '../../../../test/users.ts';
import {
  actualRevenue,
  budgets,
  companies,
  departments,
  expenseCategories,
  RESOURCE_LIST,
  subscriberMetrics,
} from '../../../features/resources.ts';
import type { Db, ServiceContext } from '../../context.ts';
import { DomainError } from '../../errors.ts';
import type { ResourceDef } from '../define.ts';
import { resourceCsv } from '../resource-csv.server.ts';
import { createRecord } from '../resources.server.ts';
import { importCsv, type CsvImportOptions } from './csv-import.server.ts';
import { catalogs } from '../../../features/shell/catalogs.server.ts';

const ROUND_TRIP_ROWS = 250;

const csvOf = (rows: (string | number)[][]) => rows.map((r) => r.join(',')).join('\r\n') + '\r\n';

async function exportText(ctx: ServiceContext, def: ResourceDef): Promise<string> {
  let text = '';
  for await (const chunk of resourceCsv(ctx, def, {}).chunks)
    text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  return text;
}

describe.each(TEST_DIALECTS)('CSV import on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let owner: ServiceContext;
  const tag = `${dialect}${Math.random().toString(36).slice(2, 6)}`;
  let companyA: { id: number; name: string };
  let companyB: { id: number; name: string };
  const run = (ctx: ServiceContext, def: ResourceDef, text: string, options: Partial<CsvImportOptions> = {}) =>
    importCsv(ctx, def, text, { mode: 'all', reason: 'CSV import test', ...options });
  const BUDGET_HEADERS = ['Department', 'Category', 'Amount', 'Period', 'Start Date', 'End Date', 'Status', 'Company'];
  /** Budget rows each refused: an unknown category and a bad amount, a bad period and day, dates out of order, no company. */
  const badBudgetRows = () => [
    ['Finance', 'Nowhere', 'abc', 'monthly', '2026-01-01', '2026-01-31', 'active', companyA.name],
    ['Finance', 'Travel', '-5', 'yearly', '2026-13-01', '2026-01-31', 'active', companyA.name],
    ['Finance', 'Travel', '10', 'monthly', '2026-02-01', '2026-01-01', 'active', companyA.name],
    ['Finance', 'Travel', '10', 'monthly', '2026-01-01', '2026-01-31', 'active', ''],
  ];
  const count = async (table: 'budgets' | 'auditLogs' | 'dataVersions' | 'actualRevenue', reason?: string) => {
    let q = db.selectFrom(table).select((eb) => eb.fn.countAll().as('n'));
    if (reason) q = q.where('reason' as never, '=', reason as never);
    return Number((await q.executeTakeFirstOrThrow()).n);
  };

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    db = database.db;
    owner = await userContext(db, await ownerId(db));
    companyA = await createRecord(owner, companies, { name: `Import A ${tag}`, type: 'marketing' });
    companyB = await createRecord(owner, companies, { name: `Import B ${tag}`, type: 'fintech' });
    const dept = await db
      .selectFrom('departments')
      .select('id')
      .where('name', '=', 'Finance')
      .executeTakeFirstOrThrow();
    // The same category name in both companies: the Company column tells them apart.
    for (const company of [companyA, companyB])
      await createRecord(owner, expenseCategories, { companyId: company.id, departmentId: dept.id, name: 'Travel' });
  });
  afterAll(() => database?.destroy());

  it('matches the export headers, resolves names, and writes each row with its audit entry and version', async () => {
    const before = await count('budgets');
    const reason = `import one ${tag}`;
    const outcome = await run(
      owner,
      budgets,
      csvOf([
        ['Company', 'Department', 'Category', 'Amount', 'Period', 'Start Date', 'End Date', 'Status', 'Description'],
        [
          companyA.name,
          'Finance',
          'Travel',
          '"1,234.50"',
          'Monthly',
          '2026-01-01',
          '2026-01-31',
          'active',
          "'=SUM(A1)",
        ],
        [companyB.name, 'finance', 'travel', '99', 'monthly', '2026-02-01', '2026-02-28', 'pending', ''],
      ]),
      { reason },
    );
    expect(outcome).toMatchObject({ rows: 2, valid: 2, invalid: 0, created: 2, written: true, missing: [] });
    expect(await count('budgets')).toBe(before + 2);
    const rows = await db
      .selectFrom('budgets')
      .innerJoin('expenseCategories as c', 'c.id', 'budgets.categoryId')
      .select(['budgets.id', 'budgets.amountCents', 'budgets.companyId', 'budgets.description', 'c.companyId as cat'])
      .orderBy('budgets.id', 'desc')
      .limit(2)
      .execute();
    expect(rows.map((r) => [Number(r.amountCents), r.companyId, r.cat])).toEqual([
      [9900, companyB.id, companyB.id],
      [123450, companyA.id, companyA.id],
    ]);
    expect(rows[1].description).toBe('=SUM(A1)');
    expect(await count('auditLogs', reason)).toBe(2);
    const versions = await db
      .selectFrom('dataVersions')
      .select(['recordId', 'version', 'isActive', 'comment'])
      .where('tableName', '=', 'budgets')
      .where(
        'recordId',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    expect(versions).toHaveLength(2);
    expect(versions.every((v) => v.version === 1 && v.isActive && v.comment === reason)).toBe(true);
    const counted = await db
      .selectFrom('rowCounts')
      .selectAll()
      .where('tableName', '=', 'budgets')
      .where('companyId', '=', companyA.id)
      .executeTakeFirst();
    expect(Number(counted?.rowCount)).toBe(1);
  });

  it('refuses each bad row with the form messages and its line; mode all writes nothing', async () => {
    const before = await count('budgets');
    const outcome = await run(
      owner,
      budgets,
      csvOf([
        BUDGET_HEADERS,
        ['Finance', 'Travel', '10', 'monthly', '2026-01-01', '2026-01-31', 'active', companyA.name],
        ...badBudgetRows(),
      ]),
    );
    expect(outcome).toMatchObject({ rows: 5, valid: 1, invalid: 4, created: 0, written: false });
    expect(await count('budgets')).toBe(before);
    const at = (line: number) => outcome.errors.filter((e) => e.line === line).map((e) => `${e.field}: ${e.message}`);
    expect(at(3)).toEqual(['categoryId: Category not found', 'amount: Amount must be a positive number']);
    expect(at(4)).toEqual([
      'amount: Amount must be a positive number',
      'period: Period must be one of: monthly, quarterly, annual',
      'startDate: Start Date must be a valid date (YYYY-MM-DD)',
    ]);
    expect(at(5)).toEqual(['endDate: End date must be on or after the start date']);
    expect(at(6)[0]).toMatch(/^categoryId: Category "Travel" names more than one record/);
  });

  it('keeps the words of each refused row for the readers of other languages', async () => {
    const es = catalogs.translator('es');
    const readers = (['es', 'de'] as const).map((locale) => ({ locale, t: catalogs.translator(locale) }));
    const outcome = await run(
      owner,
      budgets,
      csvOf([
        BUDGET_HEADERS,
        ...badBudgetRows(),
        ['Finance', 'Travel', '10', 'monthly', '2026-01-01', '2026-01-31', 'active', 'No such company'],
      ]),
      { dryRun: true, readers },
    );
    expect(outcome.errors).toHaveLength(9);
    for (const error of outcome.errors) {
      expect(error.words?.es, error.message).toBeTruthy();
      expect(error.words?.es, error.message).not.toBe(error.message);
      expect(error.words?.de, error.message).not.toBe(error.message);
      expect(`${error.words?.es} ${error.words?.de}`).not.toMatch(/[{}]/);
    }
    const words = (field: string) => outcome.errors.find((e) => e.field === field)!.words!.es;
    expect(words('categoryId')).toBe(es('{label} not found', { label: es('Category') }));
    expect(words('amount')).toBe(es('{label} must be a positive number', { label: es('Amount') }));
    expect(words('endDate')).toBe(es('End date must be on or after the start date'));
    expect(outcome.errors.find((e) => e.message === 'Company not found')?.words?.es).toBe(es('Company not found'));
    expect(outcome.errors.at(-1)!.words!.es).toContain('«Travel»');
  });

  it('refuses a category of another department and a company of another type, as the forms do', async () => {
    const budgetsOutcome = await run(
      owner,
      budgets,
      csvOf([
        ['Company', 'Department', 'Category', 'Amount', 'Period', 'Start Date', 'End Date', 'Status'],
        [companyA.name, 'Marketing', 'Travel', '10', 'monthly', '2026-01-01', '2026-01-31', 'active'],
      ]),
      { dryRun: true },
    );
    expect(budgetsOutcome.errors).toEqual([
      { line: 2, field: 'categoryId', message: 'Category does not belong to the chosen department' },
    ]);
    const metric = subscriberMetrics.fields.find((f) => f.name === 'metricName')!.options![0];
    const metrics = await run(
      owner,
      subscriberMetrics,
      csvOf([
        ['Company', 'Company Type', 'Metric Name', 'Metric Value', 'Period', 'Record Date'],
        [companyA.name, 'mobile', metric, '5', 'monthly', '2026-01-01'],
      ]),
      { dryRun: true },
    );
    expect(metrics.errors).toEqual([{ line: 2, field: 'companyId', message: 'This company is not a mobile company' }]);
  });

  it('mode valid writes the good rows and hands each refused row on', async () => {
    const before = await count('budgets');
    const refused: number[] = [];
    const outcome = await run(
      owner,
      budgets,
      csvOf([
        ['Company', 'Department', 'Category', 'Amount', 'Period', 'Start Date', 'End Date', 'Status'],
        [companyA.name, 'Finance', 'Travel', '10', 'monthly', '2026-01-01', '2026-01-31', 'active'],
        [companyA.name, 'Finance', 'Travel', '0', 'monthly', '2026-01-01', '2026-01-31', 'active'],
        [companyA.name, 'Finance', 'Travel', '11', 'monthly', '2026-01-01', '2026-01-31', 'active'],
      ]),
      { mode: 'valid', onRefused: (line) => void refused.push(line) },
    );
    expect(outcome).toMatchObject({ rows: 3, valid: 2, invalid: 1, created: 2, written: true });
    expect(refused).toEqual([3]);
    expect(await count('budgets')).toBe(before + 2);
  });

  it('a dry run checks and writes nothing', async () => {
    const before = await count('budgets');
    const outcome = await run(
      owner,
      budgets,
      csvOf([
        ['company', 'departmentId', 'categoryId', 'amount', 'period', 'startDate', 'endDate', 'status'],
        [companyA.name, 'Finance', 'Travel', '10', 'monthly', '2026-01-01', '2026-01-31', 'active'],
      ]),
      { dryRun: true },
    );
    expect(outcome).toMatchObject({ rows: 1, valid: 1, created: 0, written: false });
    expect(outcome.sample[0].values).toMatchObject({ categoryId: 'Travel', amount: 10 });
    expect(await count('budgets')).toBe(before);
  });

  it('a chosen column replaces the matched one; a file naming no field is refused', async () => {
    const outcome = await run(
      owner,
      actualRevenue,
      csvOf([
        ['Firm', 'Where from', 'Sum', 'Revenue Date'],
        [companyA.name, 'Sales', '12.5', '2026-03-01'],
      ]),
      { chosen: { companyId: 0, source: 1, amount: 2 }, dryRun: true },
    );
    expect(outcome.columns.mapping).toMatchObject({ companyId: 0, source: 1, amount: 2, revenueDate: 3 });
    expect(outcome).toMatchObject({ valid: 1, invalid: 0 });
    await expect(run(owner, actualRevenue, 'a,b\r\n1,2\r\n')).rejects.toMatchObject({ kind: 'invalid' });
    await expect(run(owner, actualRevenue, '')).rejects.toMatchObject({ kind: 'invalid' });
  });

  it("a user of one company: another company's rows are refused, a row without a company is theirs", async () => {
    const user = await createTestUser(db, {
      role: 'editor',
      companyId: companyA.id,
      flags: { canAccessFinancialData: true, canCreate: true, canEdit: true },
    });
    const ctx = await userContext(db, user.id);
    const before = await count('actualRevenue');
    const outcome = await run(
      ctx,
      actualRevenue,
      csvOf([
        ['Company', 'Source', 'Amount', 'Revenue Date'],
        [companyB.name, 'Sales', '5', '2026-01-01'],
        ['', 'Sales', '6', '2026-01-01'],
        [String(companyB.id), 'Sales', '7', '2026-01-01'],
      ]),
      { mode: 'valid' },
    );
    expect(outcome.errors.map((e) => [e.line, e.message])).toEqual([
      [2, 'Company not found'],
      [4, 'Company not found'],
    ]);
    expect(outcome.created).toBe(1);
    expect(await count('actualRevenue')).toBe(before + 1);
    const viewer = await createTestUser(db, { role: 'viewer' });
    await expect(run(await userContext(db, viewer.id), actualRevenue, 'Amount\r\n1\r\n')).rejects.toBeInstanceOf(
      DomainError,
    );
  });

  it('updates rows by ID, leaves unchanged rows alone, and refuses unknown IDs', async () => {
    const row = await createRecord(owner, actualRevenue, {
      companyId: companyA.id,
      source: `Keyed ${tag}`,
      amount: 1,
      revenueDate: '2026-05-01',
    });
    const file = csvOf([
      ['ID', 'Company', 'Source', 'Amount', 'Revenue Date'],
      [row.id, companyA.name, `Keyed ${tag}`, '2.5', '2026-05-01'],
      [row.id + 100000, companyA.name, 'Ghost', '1', '2026-05-01'],
      ['', companyA.name, `New ${tag}`, '3', '2026-05-01'],
    ]);
    const dry = await run(owner, actualRevenue, file, { updateById: true, dryRun: true, mode: 'valid' });
    expect(dry.errors.map((e) => e.message)).toEqual([`ID ${row.id + 100000} not found`]);
    const outcome = await run(owner, actualRevenue, file, { updateById: true, mode: 'valid' });
    expect(outcome).toMatchObject({ updated: 1, created: 1, invalid: 1, written: true });
    const stored = await db
      .selectFrom('actualRevenue')
      .select('amountCents')
      .where('id', '=', row.id)
      .executeTakeFirst();
    expect(Number(stored?.amountCents)).toBe(250);
    const again = await run(
      owner,
      actualRevenue,
      csvOf([
        ['ID', 'Company', 'Source', 'Amount', 'Revenue Date'],
        [row.id, companyA.name, `Keyed ${tag}`, '2.5', '2026-05-01'],
      ]),
      { updateById: true },
    );
    expect(again).toMatchObject({ updated: 0, unchanged: 1 });
  });

  it('unique rules hold within the file and against the table', async () => {
    const outcome = await run(
      owner,
      departments,
      csvOf([
        ['Name', 'Description'],
        [`Dept ${tag}`, 'x'],
        [`dept ${tag}`, 'y'],
        ['Finance', 'z'],
      ]),
      { dryRun: true },
    );
    expect(outcome.errors.map((e) => [e.line, e.message])).toEqual([
      [3, 'A department with this name already exists'],
      [4, 'A department with this name already exists'],
    ]);
    const spanish = await run(owner, departments, csvOf([['Name'], ['Finance']]), {
      dryRun: true,
      readers: [{ locale: 'es', t: catalogs.translator('es') }],
    });
    expect(spanish.errors[0].words).toEqual({ es: 'Ya existe un departamento con este nombre' });
  });
});

// Every writable resource, with the demo figures: its own export (its first rows), imported back with its IDs as
// the key, matches every row and changes none (each cell reads back as the value it was written from).
describe.each(TEST_DIALECTS)('the round trip of every export on %s', (dialect) => {
  let database: TestDatabase;
  let owner: ServiceContext;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await prepareDatabase(database, {
      seedDemo: true,
      owner: { email: 'owner@example.com', password: OWNER_PASSWORD },
    });
    owner = await userContext(database.db, await ownerId(database.db));
  });
  afterAll(() => database?.destroy());

  it.each(RESOURCE_LIST.filter((def) => !def.readOnly).map((def) => [def.key, def] as const))(
    '%s',
    async (_key, def) => {
      // The first rows of the export (every writable column of them), to keep the test short.
      const [header, ...records] = parse(await exportText(owner, def)) as string[][];
      const text = stringify([header, ...records.slice(0, ROUND_TRIP_ROWS)], { record_delimiter: '\r\n' });
      const rows = Math.min(records.length, ROUND_TRIP_ROWS);
      const outcome = await importCsv(owner, def, text, { mode: 'all', updateById: true, reason: 'round trip' });
      expect(outcome.errors).toEqual([]);
      expect(outcome).toMatchObject({
        rows,
        valid: rows,
        invalid: 0,
        created: 0,
        updated: 0,
        unchanged: rows,
        missing: [],
      });
    },
  );
});
