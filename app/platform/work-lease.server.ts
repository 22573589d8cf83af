// One at a time per user (docs/security.md): costly work a person starts on demand and waits for
// (analyses, test pushes) runs at most once at a time for them; a second start while the first
// runs is refused with 429 and Retry-After instead of queueing behind it. (Work handed to a job
// has its own rule where its state lives: one manual backup in progress per user, a unique index
// on the backups; one run per sync log and endpoint, a lease on the sync log.)
//
// The lease is a row of `work_leases` in the database, so every web process and worker sees it
// (docs/architecture.md: nothing kept in one process that another needs), on SQLite and PostgreSQL alike:
// - claimed by one upsert that inserts the row, or takes it over only when it has expired;
// - renewed while the work runs (every third of its lifetime), so long work keeps it;
// - deleted when the work ends (normally or by an error);
// - left to expire when the process holding it dies: a crash frees it after `ttlMs`.
// On SQLite its writes skip the disk flush every other commit makes (docs/sqlite-writes.md): a
// lease lost to a power cut is one that a crash frees anyway, and a flush per analysis would
// hold the web process's event loop for as long as the disk takes.
import crypto from 'node:crypto';
import { sql } from 'kysely';
import { dialectOf } from '../../db/dialect.ts';
import type { Db, ServiceContext } from './context.ts';
import { DomainError } from './errors.ts';
import { msg } from './i18n/messages.ts';

/** How long a lease lives without renewal: what a crashed holder keeps others waiting at most. */
export const LEASE_TTL_MS = 60_000;
/** The Retry-After of a refusal unless the caller knows better: most on-demand work ends within seconds. */
export const LEASE_RETRY_AFTER_SECONDS = 5;
export const WORK_RUNNING = msg('Too many requests: this is already running. Try again in a few seconds.');

export interface LeaseOptions {
  /**
   * Whose work it is: one lease per kind and scope. Default: the signed-in user of the context
   * ('user:<id>'). Work of the system or the CLI has no default scope and runs without a lease
   * unless one is given (e.g. 'endpoint:12' for one sync per endpoint whoever starts it).
   */
  scope?: string;
  /** The refusal's message (the 429's `message` on /api, the text on a screen). */
  busyMessage?: string;
  /** The refusal's Retry-After, in seconds. */
  retryAfterSeconds?: number;
  /** The lease's lifetime without renewal, in ms (renewed every third of it while held). */
  ttlMs?: number;
}

/** A claimed lease: release it when the work ends (oneAtATime does). Releasing twice is harmless. */
export interface WorkLease {
  readonly key: string;
  release(): Promise<void>;
}

const NO_LEASE: WorkLease = { key: '', release: async () => {} };

function scopeOf(ctx: ServiceContext, options: LeaseOptions): string | null {
  if (options.scope) return options.scope;
  return ctx.actor.kind === 'user' ? `user:${ctx.actor.user.id}` : null;
}

/**
 * Runs a lease's one statement. SQLite: on the one connection, held for it, with
 * synchronous=NORMAL (the commit goes to the write-ahead log without a flush; later commits and
 * checkpoints still flush everything before them), then FULL again.
 */
async function leaseWrite<T>(db: Db, write: (db: Db) => Promise<T>): Promise<T> {
  if (dialectOf(db) !== 'sqlite') return write(db);
  return db.connection().execute(async (connection) => {
    await sql`pragma synchronous = normal`.execute(connection);
    try {
      return await write(connection);
    } finally {
      await sql`pragma synchronous = full`.execute(connection);
    }
  });
}

/**
 * Claims the lease `key` for `ttlMs` (renewed while held); null when a live lease of another
 * holder has it. Must not run inside a transaction: nobody else would see the claim before commit.
 */
export async function claimLease(db: Db, key: string, ttlMs = LEASE_TTL_MS): Promise<WorkLease | null> {
  if (db.isTransaction) throw new Error('A work lease is claimed outside any transaction');
  if (!key || key.length > 255) throw new Error(`Invalid work lease key: ${key.slice(0, 40)}`);
  const holder = crypto.randomUUID();
  const now = Date.now();
  // Inserts the row, or takes over an expired one; a live lease leaves the statement without a row.
  const claimed = await leaseWrite(db, (db) =>
    db
      .insertInto('workLeases')
      .values({ key, holder, acquiredAt: now, expiresAt: now + ttlMs })
      .onConflict((oc) =>
        oc
          .column('key')
          .doUpdateSet((eb) => ({
            holder: eb.ref('excluded.holder'),
            acquiredAt: eb.ref('excluded.acquiredAt'),
            expiresAt: eb.ref('excluded.expiresAt'),
          }))
          .where('workLeases.expiresAt', '<=', now),
      )
      .returning('holder')
      .executeTakeFirst(),
  );
  if (claimed?.holder !== holder) return null;

  let released = false;
  const renewal = setInterval(
    () => {
      leaseWrite(db, (db) =>
        db
          .updateTable('workLeases')
          .set({ expiresAt: Date.now() + ttlMs })
          .where('key', '=', key)
          .where('holder', '=', holder)
          .execute(),
      ).catch((error: unknown) => console.error(`[work-lease] ${key} not renewed: ${(error as Error).message}`));
    },
    Math.max(10, Math.floor(ttlMs / 3)),
  );
  renewal.unref();
  return {
    key,
    async release() {
      if (released) return;
      released = true;
      clearInterval(renewal);
      try {
        await leaseWrite(db, (db) =>
          db.deleteFrom('workLeases').where('key', '=', key).where('holder', '=', holder).execute(),
        );
      } catch (error) {
        // It expires by itself.
        console.error(`[work-lease] ${key} not released: ${(error as Error).message}`);
      }
    },
  };
}

/**
 * The lease for one `kind` of work of this context's user (or `options.scope`), or a 429
 * (DomainError rateLimited, with Retry-After and `busyMessage`) while another holder runs it.
 * For work that outlives the call that starts it (a streamed answer): release it when done.
 */
export async function holdLease(ctx: ServiceContext, kind: string, options: LeaseOptions = {}): Promise<WorkLease> {
  const scope = scopeOf(ctx, options);
  if (scope === null) return NO_LEASE;
  const lease = await claimLease(ctx.db, `${kind}:${scope}`, options.ttlMs);
  if (!lease) {
    throw new DomainError('rateLimited', options.busyMessage ?? WORK_RUNNING, {
      retryAfter: options.retryAfterSeconds ?? LEASE_RETRY_AFTER_SECONDS,
    });
  }
  return lease;
}

/**
 * Runs `fn` as the one `kind` of work of this context's user (or `options.scope`) running now,
 * in whichever process: while another runs, it throws rateLimited (429 + Retry-After) without
 * calling `fn`. The lease is released when `fn` settles, before its answer goes out.
 *
 *   const predictions = await oneAtATime(ctx, 'analysis', () => predictExpenses(ctx, input), { busyMessage });
 */
export async function oneAtATime<T>(
  ctx: ServiceContext,
  kind: string,
  fn: () => Promise<T>,
  options: LeaseOptions = {},
): Promise<T> {
  const lease = await holdLease(ctx, kind, options);
  try {
    return await fn();
  } finally {
    await lease.release();
  }
}
