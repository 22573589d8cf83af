// Recovery and load figures of a fault run: how long requests failed after each fault, errors
// outside the faults, and answer times of the calm periods.
import type { LoadStats } from './load.ts';

export interface FaultWindow {
  kind: 'web kill -9' | 'rolling SIGTERM restart' | 'PostgreSQL restart';
  /** When the fault began and when the harness was done with it (the process back). */
  at: number;
  end: number;
}

/** The longest a fault of a kind may make requests fail, in ms (a rolling restart: none at all). */
const ALLOWED: Record<FaultWindow['kind'], number> = {
  'web kill -9': 2_000,
  'rolling SIGTERM restart': 0,
  'PostgreSQL restart': 10_000,
};
/** After a fault is over, failures still count towards it for this long (the balancer's checks). */
const SETTLE_MS = 5_000;

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;

export function recoveryReport(
  stats: LoadStats,
  windows: FaultWindow[],
  log: (line: string) => void,
  options: { p99Goal?: number } = {},
): string[] {
  const problems: string[] = [];
  const inWindow = (at: number) => windows.find((w) => at >= w.at && at <= w.end + SETTLE_MS);
  for (const w of windows) {
    const failed = stats.failures.filter((f) => inWindow(f.at) === w);
    const span = failed.length ? Math.max(...failed.map((f) => f.at)) - Math.min(...failed.map((f) => f.at)) : 0;
    const allowed = ALLOWED[w.kind];
    const verdict = w.kind === 'rolling SIGTERM restart' ? failed.length === 0 : span <= allowed;
    log(
      `${w.kind}: ${failed.length} failed request(s) over ${(span / 1000).toFixed(1)} s${verdict ? '' : ' (goal missed)'}`,
    );
    if (!verdict)
      problems.push(
        `${w.kind}: ${failed.length} failed over ${span} ms (allowed: ${allowed ? `${allowed} ms` : 'none'}); ` +
          `first: ${JSON.stringify(failed.slice(0, 3))}`,
      );
  }
  const outside = stats.failures.filter((f) => !inWindow(f.at));
  const calm = stats.timings
    .filter((t) => !inWindow(t.at))
    .map((t) => t.ms)
    .sort((a, b) => a - b);
  const calmRequests = calm.length + outside.length;
  log(
    `requests: ${stats.requests}; outside the faults: ${calmRequests}, ${outside.length} failed; ` +
      `answer time p50 ${percentile(calm, 50)} ms, p99 ${percentile(calm, 99)} ms, max ${calm.at(-1) ?? NaN} ms`,
  );
  if (outside.length)
    problems.push(`${outside.length} request(s) failed outside the faults: ${JSON.stringify(outside.slice(0, 5))}`);
  if (options.p99Goal !== undefined && percentile(calm, 99) > options.p99Goal)
    problems.push(`p99 ${percentile(calm, 99)} ms outside the faults (goal ${options.p99Goal} ms)`);
  return problems;
}
