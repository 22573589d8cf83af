// Outbound calls in flight to one third-party host at once, per process, so that no fan-out
// floods a host. One limiter per process (its runtime): requests and job handlers share it.
export class HostLimiter {
  readonly #hosts = new Map<string, { active: number; waiting: (() => void)[] }>();

  /** Runs `call` once fewer than `limit` calls to `host` are in flight. */
  async run<T>(host: string, limit: number, call: () => Promise<T>): Promise<T> {
    let slot = this.#hosts.get(host);
    if (!slot) this.#hosts.set(host, (slot = { active: 0, waiting: [] }));
    const own = slot;
    if (own.active < limit) own.active += 1;
    // A finished call hands its place straight to the next waiting one.
    else await new Promise<void>((resolve) => own.waiting.push(resolve));
    try {
      return await call();
    } finally {
      const next = own.waiting.shift();
      if (next) next();
      else if (--own.active === 0) this.#hosts.delete(host);
    }
  }
}
