// The screens bench's measurements on a running server: each target one request at a time
// (median and p95 of its response times, page size, server CPU per request), memory growth over
// visits of every screen, the heavy-analysis loop beside another user's list page, and the idle
// server's CPU.
import { ACCEPT, Client } from './screens-client.ts';
import type { Target } from './screens-targets.ts';
import { cpuSeconds, residentBytes } from './processes.ts';
import { openLoop, type OpenLoopResult } from './request-modes.ts';

export interface TargetResult {
  path: string;
  kind: Target['kind'];
  status: number;
  samples: number;
  medianMs: number;
  p95Ms: number;
  minMs: number;
  maxMs: number;
  /** The page or answer as rendered (decompressed). */
  bodyBytes: number;
  wireBytes: number;
  /** Web process CPU per request, its background work (jobs) included. */
  cpuMsPerRequest: number;
  /** Sampling stopped early at the per-target time limit. */
  capped: boolean;
  error?: string;
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: number[], q: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

export const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );

export interface SampleOptions {
  warmup: number;
  samples: number;
  /** Stop sampling a target after this many seconds (at least `minSamples` taken). */
  maxSeconds: number;
  minSamples: number;
  pid: number | undefined;
}

export async function sampleTarget(
  client: Client,
  target: Target,
  cookie: string,
  options: SampleOptions,
): Promise<TargetResult> {
  const send = () =>
    client.request(target.path, {
      cookie: target.signedOut ? undefined : cookie,
      accept: target.kind === 'api' ? 'json' : 'html',
    });
  const base = { path: target.path, kind: target.kind };
  const first = await send();
  const empty = { samples: 0, medianMs: NaN, p95Ms: NaN, minMs: NaN, maxMs: NaN, cpuMsPerRequest: NaN, capped: false };
  if (first.status !== 200) {
    const where = first.headers.location ? ` → ${first.headers.location}` : '';
    return {
      ...base,
      ...empty,
      status: first.status,
      bodyBytes: first.body.length,
      wireBytes: first.wireBytes,
      error: `status ${first.status}${where}: ${first.body.toString().slice(0, 120)}`,
    };
  }
  for (let i = 1; i < options.warmup; i++) await send();
  const times: number[] = [];
  const cpuBefore = cpuSeconds(options.pid);
  const started = performance.now();
  let last = first;
  let capped = false;
  while (times.length < options.samples) {
    last = await send();
    if (last.status !== 200)
      return {
        ...base,
        ...empty,
        status: last.status,
        bodyBytes: last.body.length,
        wireBytes: last.wireBytes,
        error: `status ${last.status} while sampling`,
      };
    times.push(last.ms);
    if (times.length >= options.minSamples && performance.now() - started > options.maxSeconds * 1000) {
      capped = times.length < options.samples;
      break;
    }
  }
  const cpuMs = (cpuSeconds(options.pid) - cpuBefore) * 1000;
  times.sort((a, b) => a - b);
  return {
    ...base,
    status: 200,
    samples: times.length,
    medianMs: percentile(times, 0.5),
    p95Ms: percentile(times, 0.95),
    minMs: times[0],
    maxMs: times[times.length - 1],
    bodyBytes: last.body.length,
    wireBytes: last.wireBytes,
    cpuMsPerRequest: cpuMs / times.length,
    capped,
  };
}

export interface MemoryResult {
  beforeBytes: number;
  afterBytes: number;
  growthBytes: number;
  visits: number;
  pages: number;
}

/** Resident memory of the web process before and after visiting every page `times` times. */
export async function memoryGrowth(
  client: Client,
  pages: Target[],
  cookie: string,
  pid: number | undefined,
  times: number,
): Promise<MemoryResult> {
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const beforeBytes = residentBytes(pid);
  let visits = 0;
  for (let round = 0; round < times; round++) {
    for (const page of pages) {
      await client.request(page.path, { cookie: page.signedOut ? undefined : cookie });
      visits++;
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const afterBytes = residentBytes(pid);
  return { beforeBytes, afterBytes, growthBytes: afterBytes - beforeBytes, visits, pages: pages.length };
}

export interface HeavyLoopResult {
  heavyPath: string;
  listPath: string;
  seconds: number;
  /** The analyst's runs of the heavy target, one after another. */
  heavyRuns: number;
  heavyMedianMs: number;
  heavyStatuses: Record<string, number>;
  /** The other user's list page, sent at a fixed rate whatever the answers do. */
  list: OpenLoopResult;
}

/**
 * One user runs the `heavy` analysis again and again (one at a time, as one browser tab would) while
 * another user's list page is requested at `rate` per second (open loop, each request timed from
 * when it was due).
 */
/** An analysis a user can run: a screen or API GET, or a POST with its JSON body. */
export interface Analysis {
  path: string;
  json?: unknown;
}

export function runAnalysis(client: Client, analysis: Analysis, cookie: string) {
  return client.request(
    analysis.path,
    analysis.json === undefined ? { cookie } : { cookie, method: 'POST', accept: 'json', json: analysis.json },
  );
}

/** The analysis that takes longest (median of `runs`, one at a time) among `candidates`. */
export async function slowestAnalysis(
  origin: string,
  candidates: Analysis[],
  cookie: string,
  runs = 3,
): Promise<{ analysis: Analysis; medianMs: number } | null> {
  const client = new Client(origin);
  let slowest: { analysis: Analysis; medianMs: number } | null = null;
  try {
    for (const analysis of candidates) {
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        const answer = await runAnalysis(client, analysis, cookie);
        if (answer.status !== 200) break;
        times.push(answer.ms);
      }
      if (times.length === runs && (!slowest || median(times) > slowest.medianMs))
        slowest = { analysis, medianMs: median(times) };
    }
  } finally {
    client.close();
  }
  return slowest;
}

export async function heavyLoop(
  origin: string,
  options: {
    heavy: Analysis;
    heavyCookie: string;
    listPath: string;
    listCookie: string;
    seconds: number;
    rate: number;
  },
): Promise<HeavyLoopResult> {
  const analyst = new Client(origin);
  let stop = false;
  const times: number[] = [];
  const statuses: Record<string, number> = {};
  const loop = (async () => {
    while (!stop) {
      const answer = await runAnalysis(analyst, options.heavy, options.heavyCookie);
      times.push(answer.ms);
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
    }
  })();
  // The analysis is under way before the list is sampled, and stops when the last list request
  // is due (the list's late answers are then timed as they come, without the analysis).
  await new Promise((resolve) => setTimeout(resolve, 500));
  const end = setTimeout(() => (stop = true), options.seconds * 1000);
  const list = await openLoop({
    origin,
    path: options.listPath,
    cookies: [options.listCookie],
    rate: options.rate,
    seconds: options.seconds,
    headers: { Accept: ACCEPT.html, 'Accept-Encoding': 'gzip' },
  });
  clearTimeout(end);
  stop = true;
  await loop;
  analyst.close();
  const heavyPath =
    options.heavy.json === undefined
      ? options.heavy.path
      : `POST ${options.heavy.path} ${JSON.stringify(options.heavy.json)}`;
  return {
    heavyPath,
    listPath: options.listPath,
    seconds: options.seconds,
    heavyRuns: times.length,
    heavyMedianMs: median(times),
    heavyStatuses: statuses,
    list,
  };
}

export interface IdleResult {
  seconds: number;
  /** CPU of the app's processes (web server, and the worker on PostgreSQL) as a share of one core. */
  shareOfCore: number;
  perProcess: Record<string, number>;
  /** The same per 10-second slice (all processes): steady polling or a job's burst. */
  slices: { medianShare: number; maxShare: number; count: number };
}

export async function idleCpu(pids: Record<string, number | undefined>, seconds: number): Promise<IdleResult> {
  const total = (): number => Object.values(pids).reduce<number>((sum, pid) => sum + cpuSeconds(pid), 0);
  const before: Record<string, number> = Object.fromEntries(
    Object.entries(pids).map(([name, pid]) => [name, cpuSeconds(pid)]),
  );
  const started = performance.now();
  const shares: number[] = [];
  for (let left = seconds; left > 0; left -= 10) {
    const sliceStart = performance.now();
    const cpu = total();
    await new Promise((resolve) => setTimeout(resolve, Math.min(10, left) * 1000));
    shares.push((total() - cpu) / ((performance.now() - sliceStart) / 1000));
  }
  const wall = (performance.now() - started) / 1000;
  const perProcess = Object.fromEntries(
    Object.entries(pids).map(([name, pid]) => [name, (cpuSeconds(pid) - before[name]) / wall]),
  );
  const sorted = [...shares].sort((a, b) => a - b);
  return {
    seconds: wall,
    shareOfCore: Object.values(perProcess).reduce((a, b) => a + b, 0),
    perProcess,
    slices: { medianShare: percentile(sorted, 0.5), maxShare: sorted[sorted.length - 1] ?? NaN, count: sorted.length },
  };
}

/** Waits (up to `maxSeconds`) until the processes use less than 10 % of a core over 5 s. */
export async function untilQuiet(
  pids: Record<string, number | undefined>,
  maxSeconds: number,
): Promise<{ seconds: number; share: number }> {
  const started = performance.now();
  for (;;) {
    const { shareOfCore } = await idleCpu(pids, 5);
    const seconds = (performance.now() - started) / 1000;
    if (shareOfCore < 0.1 || seconds >= maxSeconds) return { seconds, share: shareOfCore };
  }
}
