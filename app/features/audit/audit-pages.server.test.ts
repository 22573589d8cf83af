// Pages of the audit trail placed by the kept day counts (db/audit-days.ts) on every test
// dialect: each page, for the whole trail and for a company-limited reader, is exactly the page
// OFFSET gives (same entries, same order: timestamp, then id), with entries sharing a timestamp,
// entries at a day's first and last instant, entries written out of time order, after deletes,
// moves to another day or company, and after the counts are made again from the rows.
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recountAuditEntries } from '../../../db/audit-counts.ts';
import type { Database } from '../../../db/types.ts';
import { ownerId, userContext } from '../../../test/context.ts';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { AUDIT_PAGES, auditPageStats } from './audit-pages.server.ts';
import { listAuditLogs, parseAuditQuery } from './audit-trail.server.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { auditDaysKeptAndCounted } from '../../../test/audit-days.ts';

/** The page as plain OFFSET paging reads it. */
async function offsetPage(
  db: Kysely<Database>,
  companyId: number | null,
  limit: number,
  offset: number,
  action?: string,
): Promise<number[]> {
  const rows = await db
    .selectFrom('auditLogs')
    .select('id')
    .$if(companyId !== null, (q) => q.where('companyId', '=', companyId!))
    .$if(action !== undefined, (q) => q.where('action', '=', action!))
    .orderBy('timestamp', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map((r) => Number(r.id));
}

describe.each(TEST_DIALECTS)('audit trail pages on %s', (dialect) => {
  let database: TestDatabase;
  let owner: ServiceContext;
  let reader: ServiceContext;
  let companies: number[];

  // Every page placed by the counts (from the first), as a deep page of a big trail is.
  const placedFrom = AUDIT_PAGES.placedFrom;
  beforeAll(async () => {
    AUDIT_PAGES.placedFrom = 0;
    database = await createPreparedDatabase(dialect);
    const db = database.db;
    owner = await userContext(db, await ownerId(db));
    companies = (await db.selectFrom('companies').select('id').orderBy('id').execute()).map((c) => c.id);
    const readerId = (
      await db
        .insertInto('users')
        .values({
          username: `pages-${dialect}`,
          email: `pages-${dialect}@example.com`,
          passwordHash: 'x',
          role: 'admin',
          companyId: companies[1],
          canAccessAuditLogs: true,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    reader = await userContext(db, readerId);
    // Five days; many entries share one instant (the id breaks the tie), some sit on a day's
    // first or last millisecond, and later ids often carry earlier times.
    const instants = (i: number) => {
      const day = Date.UTC(2025, 2, 10 + (i % 5));
      const within = [0, 86_399_999, 43_200_000, 43_200_000, (i * 7919) % 86_400_000][
        i % 5 === 4 ? 4 : Math.floor(i / 5) % 5
      ];
      return new Date(day + within).toISOString();
    };
    const entries = Array.from({ length: 640 }, (_, i) => ({
      tableName: 'budgets',
      recordId: 1000 + i,
      action: i % 3 === 0 ? 'update' : 'create',
      userId: null,
      timestamp: instants(i),
      companyId: [companies[0], companies[1], null, companies[1]][i % 4],
      oldData: null,
      newData: null,
      changes: null,
      ipAddress: null,
      userAgent: null,
      reason: null,
      sessionId: null,
      actorLabel: 'system',
    }));
    for (let i = 0; i < entries.length; i += 200)
      await db
        .insertInto('auditLogs')
        .values(entries.slice(i, i + 200))
        .execute();
  });
  afterAll(async () => {
    AUDIT_PAGES.placedFrom = placedFrom;
    await database?.destroy();
  });

  /** Every page (7 entries, so pages straddle days) for both readers, against OFFSET. */
  async function everyPageMatches(): Promise<number> {
    const db = database.db;
    let compared = 0;
    const placed = auditPageStats.placed;
    for (const [ctx, companyId] of [
      [owner, null],
      [reader, companies[1]],
    ] as const) {
      const { total } = await listAuditLogs(ctx, parseAuditQuery({ limit: '1' }));
      for (let offset = 0; offset <= total + 7; offset += 7) {
        const page = await listAuditLogs(ctx, parseAuditQuery({ limit: '7', offset: String(offset) }));
        expect(
          page.rows.map((r) => r.id),
          `offset ${offset} of ${total}`,
        ).toEqual(await offsetPage(db, companyId, 7, offset));
        compared += page.rows.length;
      }
      // A page that does not start on a multiple of the page size, and the very last entry.
      for (const offset of [1, Math.floor(total / 2) - 3, total - 1]) {
        const page = await listAuditLogs(ctx, parseAuditQuery({ limit: '25', offset: String(offset) }));
        expect(page.rows.map((r) => r.id)).toEqual(await offsetPage(db, companyId, 25, offset));
      }
    }
    expect(auditPageStats.placed - placed).toBeGreaterThan(100);
    return compared;
  }

  it('are the pages OFFSET gives, for the whole trail and a company-limited reader', async () => {
    expect(await everyPageMatches()).toBeGreaterThan(640);
    const [kept, counted] = await auditDaysKeptAndCounted(database.db, dialect);
    expect(kept).toEqual(counted);
    // Entries sharing an instant come newest id first.
    const ties = await listAuditLogs(owner, parseAuditQuery({ limit: '1000' }));
    const same = ties.rows.filter((r, i) => i > 0 && r.timestamp === ties.rows[i - 1].timestamp);
    expect(same.length).toBeGreaterThan(100);
    expect(
      ties.rows.every(
        (r, i) =>
          i === 0 ||
          r.timestamp < ties.rows[i - 1].timestamp ||
          (r.timestamp === ties.rows[i - 1].timestamp && r.id < ties.rows[i - 1].id),
      ),
    ).toBe(true);
  });

  it('stay so after deletes, moves to another day or company, new entries and a recount', async () => {
    const db = database.db;
    await db
      .deleteFrom('auditLogs')
      .where('recordId', '>=', 1000)
      .where('recordId', '<', 1100)
      .where('actorLabel', '=', 'system')
      .execute();
    await db
      .updateTable('auditLogs')
      .set({ timestamp: new Date(Date.UTC(2025, 2, 20, 12)).toISOString() })
      .where('recordId', '>=', 1200)
      .where('recordId', '<', 1230)
      .execute();
    await db
      .updateTable('auditLogs')
      .set({ companyId: companies[0] })
      .where('recordId', '>=', 1300)
      .where('recordId', '<', 1340)
      .execute();
    await db
      .insertInto('auditLogs')
      .values(
        Array.from({ length: 30 }, (_, i) => ({
          tableName: 'budgets',
          recordId: 2000 + i,
          action: 'create',
          userId: null,
          timestamp: new Date(Date.UTC(2025, 2, 11, 0, 0, 0, i % 2)).toISOString(),
          companyId: companies[1],
          actorLabel: 'system',
        })),
      )
      .execute();
    let [kept, counted] = await auditDaysKeptAndCounted(db, dialect);
    expect(kept).toEqual(counted);
    await everyPageMatches();
    await db.updateTable('auditDays').set({ entries: 999 }).execute();
    await recountAuditEntries(db);
    [kept, counted] = await auditDaysKeptAndCounted(db, dialect);
    expect(kept).toEqual(counted);
    await everyPageMatches();
  });

  it('near the newest entry, and filtered, pages are walked to and still the ones OFFSET gives', async () => {
    AUDIT_PAGES.placedFrom = 1_000;
    const placed = auditPageStats.placed;
    for (const offset of [0, 7, 300]) {
      const page = await listAuditLogs(owner, parseAuditQuery({ limit: '10', offset: String(offset) }));
      expect(page.rows.map((r) => r.id)).toEqual(await offsetPage(database.db, null, 10, offset));
    }
    expect(auditPageStats.placed).toBe(placed);
    const { total } = await listAuditLogs(owner, parseAuditQuery({ action: 'update', limit: '1' }));
    for (const offset of [0, 5, Math.floor(total / 2), total - 3]) {
      const page = await listAuditLogs(
        owner,
        parseAuditQuery({ action: 'update', limit: '10', offset: String(offset) }),
      );
      expect(page.rows.map((r) => r.id)).toEqual(await offsetPage(database.db, null, 10, offset, 'update'));
    }
  });
});
