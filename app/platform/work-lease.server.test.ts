// One at a time per user, on every test dialect: a second run while the first runs is a 429 with
// Retry-After, whichever process asks (a second connection to the same database stands for
// another web process or worker); a lease outlives neither its work nor, by its expiry, a
// crashed process; long work keeps it by renewing it. On SQLite its writes skip the disk flush
// and leave the connection flushing every other commit.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../db/client.ts';
import { rejection } from '../../test/assertions.ts';
import { userContext, noEngine } from '../../test/context.ts';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../test/database.ts';
import { createTestUser } from '../../test/users.ts';
import { systemActor, type ServiceContext } from './context.ts';
import { claimLease, holdLease, LEASE_RETRY_AFTER_SECONDS, oneAtATime, WORK_RUNNING } from './work-lease.server.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Work that runs until the test lets it end; `started` resolves once it runs (its lease is held). */
function gate() {
  let open!: () => void;
  let begin!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const started = new Promise<void>((resolve) => (begin = resolve));
  return {
    open,
    started,
    wait: () => {
      begin();
      return opened;
    },
  };
}

describe.each(TEST_DIALECTS)('work leases on %s', (dialect) => {
  let database: TestDatabase;
  /** The same database through another connection pool: another process. */
  let elsewhere: DatabaseHandle;

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    elsewhere =
      dialect === 'postgres'
        ? createDatabase({ url: database.url, poolSize: 5 })
        : createDatabase({ dataDir: database.dataDir });
  });
  afterAll(async () => {
    await elsewhere?.close();
    await database?.destroy();
  });

  const user = async () => userContext(database.db, (await createTestUser(database.db)).id);
  const leases = () => database.db.selectFrom('workLeases').selectAll().execute();

  it('a second run of the same work for the same user while the first runs is a 429 with Retry-After; the end of the first frees it', async () => {
    const ctx = await user();
    const first = gate();
    const running = oneAtATime(ctx, 'analysis', async () => {
      await first.wait();
      return 'first';
    });
    await first.started;
    let ran = false;
    const refused = await rejection(
      oneAtATime(ctx, 'analysis', async () => (ran = true), { busyMessage: 'An analysis is already running.' }),
    );
    expect(refused).toMatchObject({
      kind: 'rateLimited',
      status: 429,
      message: 'An analysis is already running.',
      retryAfter: LEASE_RETRY_AFTER_SECONDS,
    });
    expect(ran).toBe(false);
    // The default words.
    expect((await rejection(oneAtATime(ctx, 'analysis', async () => 1))).message).toBe(WORK_RUNNING);

    first.open();
    expect(await running).toBe('first');
    expect(await oneAtATime(ctx, 'analysis', async () => 'second')).toBe('second');
    expect(
      (await leases()).filter((l) => l.key === `analysis:user:${ctx.actor.kind === 'user' ? ctx.actor.user.id : 0}`),
    ).toEqual([]);
  });

  it('holds only that user and that kind of work', async () => {
    const [alice, bob] = [await user(), await user()];
    const first = gate();
    const running = oneAtATime(alice, 'analysis', () => first.wait());
    await first.started;
    expect(await oneAtATime(bob, 'analysis', async () => 'bob')).toBe('bob');
    expect(await oneAtATime(alice, 'test-push', async () => 'push')).toBe('push');
    first.open();
    await running;
  });

  it('holds across processes: work running in another process refuses here, and its end frees it', async () => {
    const ctx = await user();
    const there: ServiceContext = { ...ctx, db: elsewhere.db };
    const first = gate();
    const running = oneAtATime(there, 'analysis', () => first.wait());
    await first.started;
    expect((await rejection(oneAtATime(ctx, 'analysis', async () => 'here'))).status).toBe(429);
    first.open();
    await running;
    expect(await oneAtATime(ctx, 'analysis', async () => 'here')).toBe('here');
  });

  it('a lease left by a crashed process frees itself when it expires; a live one does not', async () => {
    const ctx = await user();
    const id = ctx.actor.kind === 'user' ? ctx.actor.user.id : 0;
    const now = Date.now();
    await database.db
      .insertInto('workLeases')
      .values({ key: `analysis:user:${id}`, holder: 'crashed', acquiredAt: now - 120_000, expiresAt: now - 60_000 })
      .execute();
    expect(await oneAtATime(ctx, 'analysis', async () => 'taken over')).toBe('taken over');

    await database.db
      .insertInto('workLeases')
      .values({ key: `analysis:user:${id}`, holder: 'alive', acquiredAt: now, expiresAt: now + 60_000 })
      .execute();
    expect((await rejection(oneAtATime(ctx, 'analysis', async () => 'no'))).status).toBe(429);
    // Finishing work releases only its own lease, never another holder's.
    expect(await leases()).toContainEqual(expect.objectContaining({ key: `analysis:user:${id}`, holder: 'alive' }));
    await database.db.deleteFrom('workLeases').where('key', '=', `analysis:user:${id}`).execute();
  });

  it('long work keeps its lease by renewing it; the lease is gone when the work fails', async () => {
    const ctx = await user();
    const first = gate();
    const running = oneAtATime(ctx, 'backup', () => first.wait(), { ttlMs: 300 });
    // Three lifetimes later the first is still running and still holds it.
    await sleep(900);
    expect((await rejection(oneAtATime({ ...ctx, db: elsewhere.db }, 'backup', async () => 'no'))).status).toBe(429);
    first.open();
    await running;

    const failed = await rejection(
      oneAtATime(ctx, 'backup', async () => {
        throw new Error('disk full');
      }),
    );
    expect(failed.message).toBe('disk full');
    expect(await oneAtATime(ctx, 'backup', async () => 'again')).toBe('again');
    expect((await leases()).filter((l) => l.key.startsWith('backup:'))).toEqual([]);
  });

  it('system work runs without a lease unless given a scope; a scope is shared by everyone', async () => {
    const system: ServiceContext = { db: database.db, actor: systemActor('worker'), meta: {}, runtime: noEngine() };
    const first = gate();
    const running = oneAtATime(system, 'sync', () => first.wait());
    await first.started;
    expect(await oneAtATime(system, 'sync', async () => 'also')).toBe('also');
    first.open();
    await running;

    const [alice, bob] = [await user(), await user()];
    const held = await holdLease(alice, 'sync', {
      scope: 'endpoint:7',
      busyMessage: 'A sync of this endpoint is running.',
      retryAfterSeconds: 30,
    });
    expect(await rejection(oneAtATime(bob, 'sync', async () => 'no', { scope: 'endpoint:7' }))).toMatchObject({
      status: 429,
      retryAfter: LEASE_RETRY_AFTER_SECONDS,
    });
    expect(
      await rejection(
        holdLease(system, 'sync', {
          scope: 'endpoint:7',
          busyMessage: 'A sync of this endpoint is running.',
          retryAfterSeconds: 30,
        }),
      ),
    ).toMatchObject({ message: 'A sync of this endpoint is running.', retryAfter: 30 });
    await held.release();
    await held.release();
    expect(await oneAtATime(bob, 'sync', async () => 'now', { scope: 'endpoint:7' })).toBe('now');
  });

  it.runIf(dialect === 'sqlite')(
    'writes its row without a disk flush and leaves the connection flushing every other commit',
    async () => {
      const level = async () =>
        (await sql<{ synchronous: number }>`pragma synchronous`.execute(database.db)).rows[0].synchronous;
      const FULL = 2;
      expect(await level()).toBe(FULL);
      const ctx = await user();
      const first = gate();
      const running = oneAtATime(ctx, 'backup', () => first.wait(), { ttlMs: 60 });
      await first.started;
      // Claimed and renewed a few times meanwhile.
      await sleep(100);
      expect(await level()).toBe(FULL);
      first.open();
      await running;
      expect(await level()).toBe(FULL);
      // A statement that fails (the table is gone) still restores it.
      await sql`alter table work_leases rename to work_leases_away`.execute(database.db);
      try {
        await expect(claimLease(database.db, 'analysis:user:0')).rejects.toThrow();
      } finally {
        await sql`alter table work_leases_away rename to work_leases`.execute(database.db);
      }
      expect(await level()).toBe(FULL);
    },
  );

  it('is never claimed inside a transaction (nobody else would see it before the commit)', async () => {
    const ctx = await user();
    await database.db.transaction().execute(async (trx) => {
      await expect(oneAtATime({ ...ctx, db: trx }, 'analysis', async () => 1)).rejects.toThrow(
        'outside any transaction',
      );
    });
  });

  it('of many claims at the same moment from two processes, exactly one wins', async () => {
    const key = `race:${crypto.randomUUID()}`;
    const claims = await Promise.all(
      Array.from({ length: 16 }, (_, i) => claimLease(i % 2 ? elsewhere.db : database.db, key)),
    );
    expect(claims.filter((claim) => claim !== null)).toHaveLength(1);
    await claims.find((claim) => claim !== null)!.release();
    const again = await claimLease(elsewhere.db, key);
    expect(again).not.toBeNull();
    await again!.release();
  });
});
