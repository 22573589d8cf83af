// Health snapshots for System Monitoring: one row of machine and database figures per call,
// snapshots older than 7 days deleted in the same call.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejection } from '../../../test/assertions.ts';
import { userContext, noEngine } from '../../../test/context.ts';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { createTestUser } from '../../../test/users.ts';
import { systemActor, type ServiceContext } from '../../platform/context.ts';
import { recordHealthSnapshot, SNAPSHOT_RETENTION_DAYS } from './health.server.ts';

const DAY = 86_400_000;

describe.each(TEST_DIALECTS)('health snapshots on %s', (dialect) => {
  let database: TestDatabase;
  let ctx: ServiceContext;

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    ctx = { db: database.db, actor: systemActor('worker'), meta: {}, runtime: noEngine() };
  });
  afterAll(() => database?.destroy());

  const oldRow = (createdAt: string) => ({
    createdAt,
    cpuUsage: 1,
    loadAverage: '[0,0,0]',
    cpuCount: 1,
    memoryUsed: 1,
    memoryTotal: 2,
    processRss: 1,
    databaseResponseMs: 1,
  });

  it('records the figures and deletes snapshots older than the retention', async () => {
    expect(SNAPSHOT_RETENTION_DAYS).toBe(7);
    const expired = new Date(Date.now() - 8 * DAY).toISOString();
    const kept = new Date(Date.now() - 6 * DAY).toISOString();
    await database.db
      .insertInto('healthSnapshots')
      .values([oldRow(expired), oldRow(kept)])
      .execute();

    const result = await recordHealthSnapshot(ctx, { dataDir: database.dataDir, sampleMs: 20 });
    expect(result).toEqual({ snapshotId: expect.any(Number), purged: 1 });
    const rows = await database.db.selectFrom('healthSnapshots').selectAll().orderBy('createdAt').execute();
    expect(rows.map((r) => r.createdAt)).not.toContain(expired);
    expect(rows.map((r) => r.createdAt)).toContain(kept);
    const snapshot = rows.find((r) => r.id === result.snapshotId)!;
    expect(snapshot.cpuUsage).toBeGreaterThanOrEqual(0);
    expect(snapshot.cpuUsage).toBeLessThanOrEqual(100);
    expect(snapshot.cpuCount).toBeGreaterThan(0);
    expect(snapshot.memoryUsed).toBeLessThanOrEqual(snapshot.memoryTotal);
    expect(snapshot.loadAverage).toHaveLength(3);
    const disk = fs.statfsSync(database.dataDir);
    expect(snapshot.diskTotal).toBe(disk.blocks * disk.bsize);
    expect(snapshot.diskFree).toBeGreaterThan(0);
    expect(snapshot.databaseSize).toBeGreaterThan(0);
    expect(snapshot.databaseConnections === null).toBe(dialect === 'sqlite');

    // Running twice (at-least-once delivery) adds a second snapshot and purges nothing more.
    expect((await recordHealthSnapshot(ctx, { dataDir: database.dataDir, sampleMs: 0 })).purged).toBe(0);
  });

  const snapshotOf = async (dataDir: string) => {
    const { snapshotId } = await recordHealthSnapshot(ctx, { dataDir, sampleMs: 0 });
    return database.db.selectFrom('healthSnapshots').selectAll().where('id', '=', snapshotId).executeTakeFirstOrThrow();
  };

  it('measures the disk of the nearest existing parent while the data directory does not exist', async () => {
    const row = await snapshotOf(path.join(database.dataDir, 'missing', 'data'));
    const disk = fs.statfsSync(database.dataDir);
    expect(row.diskTotal).toBe(disk.blocks * disk.bsize);
    expect(row.diskFree).toBeGreaterThan(0);
  });

  it('leaves the disk figures empty when the data directory cannot be read', async () => {
    // A path through a file: no directory of it can ever be made.
    const file = path.join(database.dataDir, 'a-file');
    fs.writeFileSync(file, '');
    expect(await snapshotOf(path.join(file, 'data'))).toMatchObject({ diskFree: null, diskTotal: null });
  });

  it('may be run by the system or an administrator, not by other users', async () => {
    const editor = await createTestUser(database.db, { role: 'editor' });
    const admin = await createTestUser(database.db, { role: 'admin' });
    expect(
      (
        await rejection(
          recordHealthSnapshot(await userContext(database.db, editor.id), { dataDir: database.dataDir, sampleMs: 0 }),
        )
      ).status,
    ).toBe(403);
    await expect(
      recordHealthSnapshot(await userContext(database.db, admin.id), { dataDir: database.dataDir, sampleMs: 0 }),
    ).resolves.toMatchObject({ purged: 0 });
  });
});
