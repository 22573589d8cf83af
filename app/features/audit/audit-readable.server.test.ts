// The audit trail as people read it: changes and versions labelled and formatted as the forms
// show them (money, dates, referenced rows by name, in one statement per page), anomalies with
// what their deletes removed, tables titled as their screens; and a row that existed before
// versioning gets a baseline version on its first change, so that change can be undone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { userContext } from '../../../test/context.ts';
import { createTestUser } from '../../../test/users.ts';
import { findResource } from '../resources.ts';
import { screenTableLabel } from './audit-readable.server.ts';
import { formatsFor } from '../../platform/i18n/formats.ts';
import { DEFAULT_PREFERENCES } from '../../platform/i18n/preferences.ts';
import {
  listAuditLogs,
  listDataVersions,
  listSecurityAnomalies,
  parseAuditQuery,
  restoreVersion,
  withDeletedTallies,
  withReadableChanges,
} from './audit-trail.server.ts';
import type { Db, ServiceContext } from '../../platform/context.ts';
import { createRecord, deleteRecord, updateRecord } from '../../platform/resources/resource-writes.server.ts';

const expenses = findResource('actual-expenses')!;

describe('screenTableLabel', () => {
  it('names a table as its screen is titled', () => {
    expect(screenTableLabel('actual_expenses')).toBe('Actual Expenses');
    expect(screenTableLabel('expense_categories')).toBe('Expense Categories');
    expect(screenTableLabel('api_integration_sources')).toBe('API Sources');
    expect(screenTableLabel('users')).toBe('Users');
  });
});

describe.each(TEST_DIALECTS)('readable audit trail on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let ctx: ServiceContext;
  let companyId: number;
  let otherCompanyId: number;
  let departmentId: number;
  let cloud: number;
  let media: number;
  let n = 0;
  const unique = (label: string) => `${label} ${dialect} ${++n}`;

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    db = database.db;
    const admin = await createTestUser(db, { role: 'owner' });
    ctx = await userContext(db, admin.id);
    // Seeded as bootstrap seeds: straight into the tables, no versions.
    companyId = (
      await db
        .insertInto('companies')
        .values({ name: 'Atlas Readable', type: 'fintech', description: null })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    otherCompanyId = (
      await db
        .insertInto('companies')
        .values({ name: 'Borealis Readable', type: 'mobile', description: null })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    departmentId = (
      await db
        .insertInto('departments')
        .values({ name: unique('Marketing'), description: null })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    cloud = (
      await db
        .insertInto('expenseCategories')
        .values({ companyId, departmentId, name: 'Cloud Hosting', description: null })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    media = (
      await db
        .insertInto('expenseCategories')
        .values({ companyId, departmentId, name: 'Media Buying', description: null })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(() => database?.destroy());

  const entriesOf = async (reader: ServiceContext, recordId: number) =>
    withReadableChanges(
      reader,
      (await listAuditLogs(reader, parseAuditQuery({ tableName: 'actual_expenses', recordId }))).rows,
    );

  it('shows changes with the form’s labels, money, dates and referenced rows by name', async () => {
    const created = await createRecord(ctx, expenses, {
      departmentId,
      categoryId: cloud,
      amount: 1234.5,
      expenseDate: '2026-03-04',
      description: 'Hosting',
      vendor: 'Cloud Inc',
    });
    await updateRecord(ctx, expenses, created.id, {
      categoryId: media,
      amount: 999.99,
      expenseDate: '2026-03-05',
      vendor: '',
    });
    const [update, create] = await entriesOf(ctx, created.id);
    expect(update.readableChanges).toEqual([
      { field: 'categoryId', label: 'Category', old: 'Cloud Hosting', new: 'Media Buying' },
      { field: 'amountCents', label: 'Amount', old: '$1,234.50', new: '$999.99' },
      { field: 'expenseDate', label: 'Expense Date', old: 'Mar 4, 2026', new: 'Mar 5, 2026' },
      { field: 'vendor', label: 'Vendor', old: 'Cloud Inc', new: '—' },
    ]);
    // A create lists every field in the form's order; the company (copied from the category) by name.
    const labels = create.readableChanges.map((c) => c.label);
    expect(labels.slice(0, 7)).toEqual([
      'Department',
      'Category',
      'Amount',
      'Expense Date',
      'Description',
      'Vendor',
      'Company',
    ]);
    expect(create.readableChanges).toContainEqual({
      field: 'companyId',
      label: 'Company',
      old: '—',
      new: 'Atlas Readable',
    });
    expect(create.readableChanges).toContainEqual({
      field: 'departmentId',
      label: 'Department',
      old: '—',
      new: `Marketing ${dialect} 1`,
    });
    expect(create.readableChanges.find((c) => c.field === 'createdBy')?.new).toBe(
      ctx.actor.kind === 'user' ? ctx.actor.user.username : '',
    );
    // The raw changes stay as stored (the API's contract).
    expect(update.changes).toMatchObject({
      amountCents: { old: 123450, new: 99999 },
      categoryId: { old: cloud, new: media },
    });
  });

  it('names only the rows the reader may see: another company’s row, or a deleted one, by its number', async () => {
    const elsewhere = (
      await db
        .insertInto('expenseCategories')
        .values({ companyId: otherCompanyId, departmentId, name: 'Secret Category', description: null })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const [entry] = await withReadableChanges(ctx, [
      {
        id: 0,
        action: 'update',
        tableName: 'budgets',
        recordId: 1,
        userId: null,
        username: 'x',
        user: null,
        timestamp: new Date().toISOString(),
        reason: null,
        ipAddress: null,
        changes: { categoryId: { old: elsewhere, new: 987654 } },
      },
    ]);
    expect(entry.readableChanges).toEqual([
      { field: 'categoryId', label: 'Category', old: 'Secret Category', new: '#987654' },
    ]);
    const limited = await userContext(db, (await createTestUser(db, { role: 'admin', companyId })).id);
    const [scoped] = await withReadableChanges(limited, [
      {
        id: 0,
        action: 'update',
        tableName: 'budgets',
        recordId: 1,
        userId: null,
        username: 'x',
        user: null,
        timestamp: new Date().toISOString(),
        reason: null,
        ipAddress: null,
        changes: { categoryId: { old: elsewhere, new: cloud } },
      },
    ]);
    expect(scoped.readableChanges).toEqual([
      { field: 'categoryId', label: 'Category', old: `#${elsewhere}`, new: 'Cloud Hosting' },
    ]);
  });

  it('shows a version’s data labelled and formatted', async () => {
    const created = await createRecord(ctx, expenses, {
      departmentId,
      categoryId: media,
      amount: 42,
      expenseDate: '2026-01-31',
      description: 'Ads',
    });
    const [version] = await listDataVersions(ctx, { tableName: 'actual_expenses', recordId: created.id });
    expect(version.fields).toEqual(
      expect.arrayContaining([
        { field: 'amountCents', label: 'Amount', value: '$42.00' },
        { field: 'categoryId', label: 'Category', value: 'Media Buying' },
        { field: 'expenseDate', label: 'Expense Date', value: 'Jan 31, 2026' },
        { field: 'companyId', label: 'Company', value: 'Atlas Readable' },
      ]),
    );
    expect(version.fields!.some((f) => f.field === 'id')).toBe(false);
    // A screen passes its reader's formats; the /api keeps the fixed ones above.
    const [shown] = await listDataVersions(
      ctx,
      { tableName: 'actual_expenses', recordId: created.id },
      formatsFor({ ...DEFAULT_PREFERENCES, locale: 'de', dateFormat: 'dd/MM/yyyy' }),
    );
    expect(shown.fields).toEqual(
      expect.arrayContaining([
        { field: 'amountCents', label: 'Amount', value: '42,00\u00a0$' },
        { field: 'expenseDate', label: 'Expense Date', value: '31/01/2026' },
      ]),
    );
  });

  it('shows what an anomaly’s deletes removed, by table as the screens title them', async () => {
    const user = await createTestUser(db, { role: 'admin' });
    const start = Date.parse('2026-02-01T10:00:00.000Z');
    const at = (minutes: number) => new Date(start + minutes * 60_000).toISOString();
    const deletes = [
      ['actual_expenses', 0],
      ['actual_expenses', 1],
      ['budgets', 2],
      ['actual_expenses', 3],
      ['budgets', 4],
      ['budgets', 30],
    ] as const;
    for (const [tableName, minute] of deletes) {
      await db
        .insertInto('auditLogs')
        .values({ tableName, recordId: 1, action: 'delete', userId: user.id, timestamp: at(minute) })
        .execute();
    }
    await db
      .insertInto('securityAnomalies')
      .values({
        userId: user.id,
        username: user.username,
        anomalyType: 'multiple_deletes',
        deleteCount: 5,
        windowStart: at(0),
        windowEnd: at(4),
        description: 'x',
        createdAt: at(5),
      })
      .execute();
    const anomalies = await withDeletedTallies(ctx, await listSecurityAnomalies(ctx));
    expect(anomalies.find((a) => a.userId === user.id)?.deleted).toEqual([
      { table: 'Actual Expenses', count: 3 },
      { table: 'Budget Planning', count: 2 },
    ]);
  });

  describe('a row that existed before versioning', () => {
    const seededExpense = async (amountCents: number) =>
      (
        await db
          .insertInto('actualExpenses')
          .values({
            companyId,
            departmentId,
            categoryId: cloud,
            amountCents,
            expenseDate: '2026-04-01',
            description: unique('Seeded'),
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;

    it('gets a baseline version of its previous state on its first edit, which restores it', async () => {
      const id = await seededExpense(123450);
      await updateRecord(ctx, expenses, id, { amount: 999.99 });
      const versions = await listDataVersions(ctx, { tableName: 'actual_expenses', recordId: id });
      expect(versions.map((v) => [v.version, v.action, v.isActive, v.createdBy])).toEqual([
        [2, 'update', true, ctx.actor.kind === 'user' ? ctx.actor.user.id : null],
        [1, 'baseline', false, null],
      ]);
      expect(versions[1].data).toMatchObject({ amountCents: 123450, companyId });
      expect(versions[0].data).toMatchObject({ amountCents: 99999 });

      const restored = await restoreVersion(ctx, versions[1].id);
      expect(restored.record).toMatchObject({ amount: 1234.5 });
      expect(
        (await db.selectFrom('actualExpenses').select('amountCents').where('id', '=', id).executeTakeFirstOrThrow())
          .amountCents,
      ).toBe(123450);
      // The next edits number on; no second baseline.
      expect(
        (await listDataVersions(ctx, { tableName: 'actual_expenses', recordId: id })).map((v) => v.action),
      ).toEqual(['update', 'update', 'baseline']);
    });

    it('gets one on a delete too, and comes back from it', async () => {
      const id = await seededExpense(5000);
      await deleteRecord(ctx, expenses, id);
      const versions = await listDataVersions(ctx, { tableName: 'actual_expenses', recordId: id });
      expect(versions.map((v) => v.action)).toEqual(['delete', 'baseline']);
      const restored = await restoreVersion(ctx, versions[1].id);
      expect(restored.created).toBe(true);
      expect(
        (await db.selectFrom('actualExpenses').select('amountCents').where('id', '=', id).executeTakeFirstOrThrow())
          .amountCents,
      ).toBe(5000);
    });

    it('a record versioned from its creation gets no baseline', async () => {
      const created = await createRecord(ctx, expenses, {
        departmentId,
        categoryId: cloud,
        amount: 10,
        expenseDate: '2026-05-01',
        description: 'Fresh',
      });
      await updateRecord(ctx, expenses, created.id, { amount: 11 });
      expect(
        (await listDataVersions(ctx, { tableName: 'actual_expenses', recordId: created.id })).map((v) => v.action),
      ).toEqual(['update', 'create']);
    });
  });
});
