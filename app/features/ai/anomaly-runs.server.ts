// A reader that finds no computed anomalies, or finds the books changed since, asks for a run
// without waiting for it: the expense-anomalies job is enqueued (one queued at a time), or,
// where this process reaches no job engine (EMBEDDED_JOBS=0), the run happens here in the
// background, one at a time. Asking is cheap and at most once every few seconds per database;
// the run itself skips when another is running or the last one has just ended.
import type { Db, ServiceContext } from '../../platform/context.ts';
import { refreshExpenseAnomalies } from './expense-anomalies.server.ts';

const ASK_EVERY_MS = 5_000;
const asked = new WeakMap<Db, number>();
/** What this process is doing about the last ask: enqueuing, or running it itself. */
const pending = new WeakMap<Db, Promise<void>>();

export function requestAnomalyRun(ctx: Pick<ServiceContext, 'db' | 'runtime'>): void {
  const { db } = ctx;
  const now = Date.now();
  if (now - (asked.get(db) ?? 0) < ASK_EVERY_MS || pending.has(db)) return;
  asked.set(db, now);
  const work = ctx.runtime.jobs
    .enqueue('expense-anomalies', {}, { singletonKey: 'expense-anomalies' })
    .then(
      () => undefined,
      () => refreshExpenseAnomalies(db).then(() => undefined),
    )
    .catch((error: unknown) => console.error(`[anomalies] the run in this process failed: ${(error as Error).message}`))
    .finally(() => pending.delete(db));
  pending.set(db, work);
}

/** Resolves when what this process started for `db` is done (tests wait for it). */
export function anomalyRunSettled(db: Db): Promise<void> {
  return pending.get(db) ?? Promise.resolve();
}
