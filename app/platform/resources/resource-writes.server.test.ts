// Writes that race, on every test dialect: the checks that decide a write (references,
// uniqueness, what still uses a row, the stored record an update merges with) run in the
// write's own transaction, so two requests at once never both pass them, never answer a 500
// and never leave two rows, a lost change or an orphan.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerId, userContext } from '../../../test/context.ts';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { actualRevenue, companies, departments, expenseCategories } from '../../features/resources.ts';
import type { Db, ServiceContext } from '../context.ts';
import { DomainError } from '../errors.ts';
import { createRecord, deleteRecord, getRecord, updateRecord } from './resources.server.ts';
import { createTestUser } from '../../../test/users.ts';
import { updateUser } from '../../features/users/users.server.ts';

/** Each outcome of calls made at once: the value, or the domain error (anything else fails the test). */
async function together<T>(
  ...calls: (() => Promise<T>)[]
): Promise<({ ok: true; value: T } | { ok: false; error: DomainError })[]> {
  const results = await Promise.allSettled(calls.map((call) => call()));
  return results.map((result) => {
    if (result.status === 'fulfilled') return { ok: true, value: result.value };
    expect(result.reason, String(result.reason)).toBeInstanceOf(DomainError);
    return { ok: false, error: result.reason as DomainError };
  });
}

describe.each(TEST_DIALECTS)('concurrent resource writes on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let ctx: ServiceContext;
  let companyId: number;
  const tag = `${dialect}-${Math.random().toString(36).slice(2, 7)}`;

  const count = async (
    table: 'departments' | 'expenseCategories' | 'auditLogs',
    column: string,
    value: string | number,
  ) =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .where(column as never, '=', value as never)
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    db = database.db;
    ctx = await userContext(db, await ownerId(db));
    companyId = (await createRecord(ctx, companies, { name: `Race ${tag}`, type: 'marketing' })).id;
  });
  afterAll(() => database?.destroy());

  it("two creates with the same unique name: one row, the other a 400 with the rule's message", async () => {
    for (let round = 0; round < 5; round++) {
      const name = `Twin ${tag} ${round}`;
      const outcomes = await together(
        () => createRecord(ctx, departments, { name }),
        () => createRecord(ctx, departments, { name }),
      );
      expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
      const failed = outcomes.find((o) => !o.ok);
      expect(failed && !failed.ok && failed.error.status).toBe(400);
      expect(failed && !failed.ok && failed.error.errors).toEqual([
        { field: 'name', message: 'A department with this name already exists' },
      ]);
      expect(await count('departments', 'name', name)).toBe(1);
      const created = outcomes.find((o) => o.ok);
      expect(created && created.ok && (await count('auditLogs', 'recordId', created.value.id))).toBeGreaterThanOrEqual(
        1,
      );
    }
  });

  it('two creates of the same category of one company: one row', async () => {
    const name = `Category ${tag}`;
    const outcomes = await together(
      () => createRecord(ctx, expenseCategories, { companyId, name }),
      () => createRecord(ctx, expenseCategories, { companyId, name }),
    );
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
    expect(outcomes.filter((o) => !o.ok).map((o) => !o.ok && o.error.errors)).toEqual([
      [{ field: 'name', message: 'This company already has a category with this name' }],
    ]);
    expect(await count('expenseCategories', 'name', name)).toBe(1);
  });

  it('deleting a department while a category is created for it: never an orphan', async () => {
    for (let round = 0; round < 5; round++) {
      const department = await createRecord(ctx, departments, { name: `Doomed ${tag} ${round}` });
      const [created, deleted] = await together<unknown>(
        () =>
          createRecord(ctx, expenseCategories, {
            companyId,
            departmentId: department.id,
            name: `Orphan? ${tag} ${round}`,
          }),
        () => deleteRecord(ctx, departments, department.id),
      );
      // Exactly one wins: the category exists with its department, or the department is gone and no category points to it.
      expect(created.ok !== deleted.ok).toBe(true);
      if (created.ok) {
        expect(!deleted.ok && deleted.error.status).toBe(409);
        expect((await getRecord(ctx, departments, department.id)).id).toBe(department.id);
      } else {
        expect([400, 409]).toContain(created.error.status);
        expect(await count('expenseCategories', 'departmentId', department.id)).toBe(0);
      }
    }
  });

  it('two partial updates at once both apply: each merges with the row as the other left it', async () => {
    for (let round = 0; round < 5; round++) {
      const row = await createRecord(ctx, actualRevenue, {
        companyId,
        source: 'Retainers',
        amount: 10,
        revenueDate: '2026-01-01',
        description: 'before',
      });
      const outcomes = await together(
        () => updateRecord(ctx, actualRevenue, row.id, { amount: 20 }),
        () => updateRecord(ctx, actualRevenue, row.id, { description: 'after' }),
      );
      expect(outcomes.every((o) => o.ok)).toBe(true);
      expect(await getRecord(ctx, actualRevenue, row.id)).toMatchObject({ amount: 20, description: 'after' });
    }
  });

  /** The `changes` of each update audit entry of a record, keyed by the acting user. */
  const updateChanges = async (table: string, recordId: number) =>
    (
      await db
        .selectFrom('auditLogs')
        .select(['userId', 'changes'])
        .where('tableName', '=', table)
        .where('recordId', '=', recordId)
        .where('action', '=', 'update')
        .orderBy('id')
        .execute()
    ).map((r) => ({
      userId: r.userId,
      fields: Object.keys(typeof r.changes === 'string' ? JSON.parse(r.changes) : (r.changes ?? {})).sort(),
    }));

  it("two callers changing different fields at once: both changes kept, each audit entry names only its caller's field", async () => {
    const other = await userContext(db, (await createTestUser(db, { role: 'admin' })).id);
    for (let round = 0; round < 5; round++) {
      const row = await createRecord(ctx, actualRevenue, {
        companyId,
        source: 'Retainers',
        amount: 10,
        revenueDate: '2026-01-01',
        description: 'before',
      });
      const outcomes = await together(
        () => updateRecord(ctx, actualRevenue, row.id, { revenueDate: '2026-02-02' }),
        () => updateRecord(other, actualRevenue, row.id, { description: `after ${round}` }),
      );
      expect(outcomes.every((o) => o.ok)).toBe(true);
      expect(await getRecord(ctx, actualRevenue, row.id)).toMatchObject({
        revenueDate: '2026-02-02',
        description: `after ${round}`,
      });
      const entries = await updateChanges('actual_revenue', row.id);
      expect(entries).toHaveLength(2);
      expect(entries.find((e) => e.userId === (ctx.actor.kind === 'user' ? ctx.actor.user.id : 0))).toMatchObject({
        fields: ['revenueDate'],
      });
      expect(entries.find((e) => e.userId === (other.actor.kind === 'user' ? other.actor.user.id : 0))).toMatchObject({
        fields: ['description'],
      });
    }
  });

  it('two managers editing different fields of one user at once: both kept, each audited with only its field', async () => {
    const other = await userContext(db, (await createTestUser(db, { role: 'admin' })).id);
    const ownerUserId = ctx.actor.kind === 'user' ? ctx.actor.user.id : 0;
    const otherUserId = other.actor.kind === 'user' ? other.actor.user.id : 0;
    for (let round = 0; round < 5; round++) {
      const target = await createTestUser(db, { role: 'viewer' });
      const outcomes = await together(
        () => updateUser(ctx, target.id, { email: `renamed-${tag}-${round}@example.com` }),
        () => updateUser(other, target.id, { username: `moved_${tag}_${round}`.replace(/-/g, '_') }),
      );
      expect(
        outcomes.every((o) => o.ok),
        JSON.stringify(outcomes),
      ).toBe(true);
      const stored = await db
        .selectFrom('users')
        .select(['email', 'username'])
        .where('id', '=', target.id)
        .executeTakeFirstOrThrow();
      expect(stored).toEqual({
        email: `renamed-${tag}-${round}@example.com`,
        username: `moved_${tag}_${round}`.replace(/-/g, '_'),
      });
      const entries = await updateChanges('users', target.id);
      expect(entries.find((e) => e.userId === ownerUserId)).toMatchObject({ fields: ['email'] });
      expect(entries.find((e) => e.userId === otherUserId)).toMatchObject({ fields: ['username'] });
    }
  });
});
