// Waiting in tests without sleeping: poll a condition until it holds (with a deadline that
// only matters when it never does), or let pending work run for a few event-loop turns.
// A fixed `setTimeout` either wastes time when the machine is fast or flakes when it is slow.

export interface WaitOptions {
  /** Give up after this long (default 20 s): a failing test, not a timing assumption. */
  timeout?: number;
  /** Pause between checks (default 25 ms). */
  interval?: number;
  /** What is awaited, for the error message. */
  what?: string;
}

/** Resolves with the first truthy result of `check`; rejects when `timeout` passes first. */
export async function waitFor<T>(check: () => T | Promise<T>, options: WaitOptions = {}): Promise<NonNullable<T>> {
  const { timeout = 20_000, interval = 25, what = 'a condition' } = options;
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeout} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}

/**
 * Lets everything already scheduled run: `turns` rounds of the event loop (timers of 0 ms,
 * I/O callbacks, microtasks). For "nothing happens on its own" checks, which a poll cannot make.
 */
export async function settle(turns = 10): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
}
