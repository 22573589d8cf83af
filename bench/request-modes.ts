// Two ways of sending requests that autocannon's closed loop does not cover, for
// bench/list-page.ts:
// - browserLike: one request at a time as a browser sends them (gzip accepted, a browser's
//   Accept headers, signed-in users in turn, after a warm-up), with the server's CPU per request
//   less what the server burns while idle (its job engine's polling), per batch of requests: the
//   median batch is the figure, so that a job run during one batch does not count as requests'.
// - openLoop: requests started at a fixed rate whatever the answers do (no coordinated
//   omission), each timed from the moment it was due, so a stall shows in p99 as users see it.
import fs from 'node:fs';
import http from 'node:http';

const CLOCK_TICKS = 100; // getconf CLK_TCK on Linux

/** CPU seconds (user + system) a process has used so far, from /proc (Linux only). */
export function processCpuSeconds(pid: number | undefined): number {
  if (!pid) return NaN;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}

/**
 * CPU nanoseconds a process's threads have run so far (the schedstat file of each task), precise
 * where /proc/<pid>/stat counts 10 ms ticks; NaN where the kernel has no schedstat.
 */
export function processCpuNs(pid: number | undefined): number {
  if (!pid) return NaN;
  try {
    let total = 0;
    for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
      try {
        total += Number(fs.readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // a thread that ended since the listing
      }
    }
    return total;
  } catch {
    return NaN;
  }
}

/** CPU milliseconds so far: schedstat where there is one, else the ticks of /proc/<pid>/stat. */
function cpuMs(pid: number | undefined): number {
  const ns = processCpuNs(pid);
  return Number.isFinite(ns) && ns > 0 ? ns / 1e6 : processCpuSeconds(pid) * 1000;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];

const BROWSER_HEADERS = {
  Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'Accept-Encoding': 'gzip, deflate, br, zstd',
  'Accept-Language': 'en-GB,en;q=0.9',
  'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
};

interface Answer {
  status: number;
  encoding: string | undefined;
  bytes: number;
}

function get(agent: http.Agent, url: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { headers, agent }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, encoding: res.headers['content-encoding'], bytes }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

export interface BrowserLikeResult {
  path: string;
  requests: number;
  /** Server CPU per request less the idle background, median of the batches' figures. */
  serverCpuMsPerRequest: number;
  /** Requests per batch, and each batch's server CPU per request (less the idle background). */
  batch: number;
  batches: number[];
  /** Server CPU per request less the idle background over all requests (a job run included). */
  meanCpuMsPerRequest: number;
  /** Server CPU per request as measured, background included. */
  grossCpuMsPerRequest: number;
  /** The server's CPU while nobody asks anything, in ms per second. */
  idleCpuMsPerSecond: number;
  medianMs: number;
  p90Ms: number;
  encoding: string;
  /** Bytes on the wire (compressed when the server compressed). */
  wireBytes: number;
}

/**
 * The idle server's CPU in ms per second: the median of `seconds` one-second readings, so that a
 * job that happens to run meanwhile does not count as the background.
 */
export async function idleCpu(pid: number | undefined, seconds: number): Promise<number> {
  const rates: number[] = [];
  for (let i = 0; i < Math.max(1, Math.round(seconds)); i++) {
    const before = cpuMs(pid);
    const started = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    rates.push((cpuMs(pid) - before) / ((performance.now() - started) / 1000));
  }
  return median(rates);
}

export async function browserLike(options: {
  origin: string;
  path: string;
  cookies: string[];
  pid: number | undefined;
  requests: number;
  warmup: number;
  idleCpuMsPerSecond: number;
  accept?: string;
  batch?: number;
}): Promise<BrowserLikeResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const headers = (i: number) => ({
    ...BROWSER_HEADERS,
    ...(options.accept ? { Accept: options.accept } : {}),
    Cookie: options.cookies[i % options.cookies.length],
  });
  const url = `${options.origin}${options.path}`;
  let last: Answer | null = null;
  for (let i = 0; i < options.warmup; i++) last = await get(agent, url, headers(i));
  const times: number[] = [];
  const batch = Math.max(1, Math.min(options.batch ?? 50, options.requests));
  const batches: number[] = [];
  const cpuBefore = cpuMs(options.pid);
  const started = performance.now();
  for (let done = 0; done < options.requests;) {
    const batchCpu = cpuMs(options.pid);
    const batchStarted = performance.now();
    const size = Math.min(batch, options.requests - done);
    for (let i = 0; i < size; i++, done++) {
      const t = performance.now();
      last = await get(agent, url, headers(options.warmup + done));
      times.push(performance.now() - t);
      if (last.status !== 200) throw new Error(`${options.path}: status ${last.status}`);
    }
    const seconds = (performance.now() - batchStarted) / 1000;
    batches.push((cpuMs(options.pid) - batchCpu - options.idleCpuMsPerSecond * seconds) / size);
  }
  const wallSeconds = (performance.now() - started) / 1000;
  const cpuUsed = cpuMs(options.pid) - cpuBefore;
  agent.destroy();
  times.sort((a, b) => a - b);
  return {
    path: options.path,
    requests: options.requests,
    serverCpuMsPerRequest: median(batches),
    batch,
    batches,
    meanCpuMsPerRequest: (cpuUsed - options.idleCpuMsPerSecond * wallSeconds) / options.requests,
    grossCpuMsPerRequest: cpuUsed / options.requests,
    idleCpuMsPerSecond: options.idleCpuMsPerSecond,
    medianMs: times[times.length >> 1],
    p90Ms: times[Math.floor(times.length * 0.9)],
    encoding: last?.encoding ?? 'identity',
    wireBytes: last?.bytes ?? 0,
  };
}

export interface OpenLoopResult {
  path: string;
  ratePerSecond: number;
  seconds: number;
  sent: number;
  completed: number;
  non200: number;
  errors: number;
  /** Latency from the moment each request was due, in ms. */
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Requests the load generator itself started more than one interval after they were due. */
  lateStarts: number;
}

/**
 * Sends `rate` requests per second for `seconds`, on as many keep-alive connections as it takes,
 * each due at start + i / rate whether or not the earlier ones have answered.
 */
export async function openLoop(options: {
  origin: string;
  path: string;
  cookies: string[];
  rate: number;
  seconds: number;
  headers?: Record<string, string>;
}): Promise<OpenLoopResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const url = `${options.origin}${options.path}`;
  const total = Math.max(1, Math.round(options.rate * options.seconds));
  const interval = 1000 / options.rate;
  const latencies: number[] = [];
  let non200 = 0;
  let errors = 0;
  let lateStarts = 0;
  const pending: Promise<void>[] = [];
  const start = performance.now();
  for (let i = 0; i < total; i++) {
    const due = start + i * interval;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    else if (wait < -interval) lateStarts++;
    const headers = { ...(options.headers ?? {}), Cookie: options.cookies[i % options.cookies.length] };
    pending.push(
      get(agent, url, headers).then(
        (answer) => {
          latencies.push(performance.now() - due);
          if (answer.status !== 200) non200++;
        },
        () => {
          errors++;
        },
      ),
    );
  }
  await Promise.all(pending);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] ?? NaN;
  return {
    path: options.path,
    ratePerSecond: options.rate,
    seconds: options.seconds,
    sent: total,
    completed: latencies.length,
    non200,
    errors,
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    max: latencies[latencies.length - 1] ?? NaN,
    lateStarts,
  };
}
