// The row_counts triggers (migration 0003) agree with count(*) after inserts, deletes and
// rows moving between companies, on both databases.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../test/database.ts';

describe.each(TEST_DIALECTS)('row counts on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
  });
  afterAll(async () => {
    await database?.destroy();
  });

  async function tracked(company: number) {
    const row = await database.db
      .selectFrom('rowCounts')
      .select('rowCount')
      .where('tableName', '=', 'actual_revenue')
      .where('companyId', '=', company)
      .executeTakeFirst();
    return Number(row?.rowCount ?? 0);
  }
  async function counted(company: number) {
    const row = await database.db
      .selectFrom('actualRevenue')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('companyId', '=', company)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  it('follow inserts, deletes and company changes', async () => {
    const before = [await tracked(1), await tracked(2)];
    expect(before).toEqual([await counted(1), await counted(2)]);
    const rows = await database.db
      .insertInto('actualRevenue')
      .values(
        [1, 1, 1, 2].map((companyId, i) => ({
          companyId,
          source: 'Roaming',
          amountCents: 100 + i,
          revenueDate: '2026-01-01',
        })),
      )
      .returning('id')
      .execute();
    expect([await tracked(1), await tracked(2)]).toEqual([before[0] + 3, before[1] + 1]);
    await database.db.updateTable('actualRevenue').set({ companyId: 2 }).where('id', '=', rows[0].id).execute();
    // An update that keeps the company changes nothing.
    await database.db.updateTable('actualRevenue').set({ amountCents: 999 }).where('id', '=', rows[1].id).execute();
    expect([await tracked(1), await tracked(2)]).toEqual([before[0] + 2, before[1] + 2]);
    await database.db
      .deleteFrom('actualRevenue')
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    expect([await tracked(1), await tracked(2)]).toEqual(before);
    expect([await tracked(1), await tracked(2)]).toEqual([await counted(1), await counted(2)]);
  });

  it('count a rolled-back insert as nothing', async () => {
    const before = await tracked(3);
    await expect(
      database.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('actualRevenue')
          .values({ companyId: 3, source: 'Colocation', amountCents: 5, revenueDate: '2026-01-01' })
          .execute();
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await tracked(3)).toBe(before);
    expect(
      (await sql<{ n: number }>`select count(*) as n from row_counts where row_count < 0`.execute(database.db)).rows[0]
        .n,
    ).toEqual(0);
  });
});
