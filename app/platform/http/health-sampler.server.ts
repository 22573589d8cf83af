// The live figures of System Monitoring and GET /api/system/health: a web process samples the
// machine and the database in the background and a request reads the newest sample with its
// time, so no request waits for a CPU sample. The CPU share is the busy time between two
// samples (counters since boot), so a sample costs no waiting either.
import { busyPercent, cpuTimes, measureHealthWith, type HealthMeasurement } from '../health-measure.server.ts';
import type { Db } from '../context.ts';

/** How often the web process samples (while anybody has asked in its lifetime). */
export const SAMPLE_EVERY_MS = 10_000;

export interface HealthSource {
  /** The newest sample (taken now only if there is none yet). */
  latest(): Promise<HealthMeasurement>;
}

export class HealthSampler implements HealthSource {
  readonly #db: Db;
  readonly #dataDir: string;
  readonly #everyMs: number;
  #timer: NodeJS.Timeout | null = null;
  #cpu = cpuTimes();
  #latest: HealthMeasurement | null = null;

  constructor(db: Db, dataDir: string, everyMs = SAMPLE_EVERY_MS) {
    this.#db = db;
    this.#dataDir = dataDir;
    this.#everyMs = everyMs;
  }

  /**
   * The first call takes the first sample (its CPU share is the time since the sampler was made)
   * and starts sampling every SAMPLE_EVERY_MS; later calls return the newest sample.
   */
  async latest(): Promise<HealthMeasurement> {
    if (!this.#latest) await this.#sample();
    if (!this.#timer) {
      // A sample that fails (the database closed under a test) stops the timer; the next call starts it again.
      this.#timer = setInterval(() => void this.#sample().catch(() => this.stop()), this.#everyMs);
      this.#timer.unref();
    }
    return this.#latest!;
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  async #sample(): Promise<void> {
    const now = cpuTimes();
    const usage = busyPercent(this.#cpu, now);
    this.#cpu = now;
    this.#latest = await measureHealthWith(this.#db, this.#dataDir, usage);
  }
}
