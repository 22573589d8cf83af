// The fault suite (npm run test:faults): the production topology under load while processes and
// the database are killed and restarted, then the database held to what the clients saw.
//   npm run test:faults -- [--short] [--clients N] [--seconds S] [--rounds R] [--kills K]
//                          [--only postgres|sqlite] [--no-db-restart (others use the server meanwhile)]
//                          [--jobs (the worker kills in a short run too)] [--soak MINUTES (memory under load first)]
//                          [--no-jobs (not even in a full run)] [--heap-limit MB (each process's --max-old-space-size)]
//                          [--admins N (admins making backups and syncs under the load; 2 in a full run, 0 in a short one)]
// --short is the version `npm test` runs; without it the full run prints the figures of
// bench/README.md. Exit code 1 when a goal is missed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { argValue, BENCH_OWNER_EMAIL, BENCH_OWNER_PASSWORD, numberArg } from '../../bench/constants.ts';
import { createDatabase } from '../../db/client.ts';
import { keptCountProblems, sqliteCheckProblems } from './kept-counts.ts';
import { runEditor, runViewer, Session, type Books, type JournalEntry, type LoadStats } from './load.ts';
import { startTopology, type Topology } from './topology.ts';
import { residentBytes } from '../../bench/processes.ts';
import { verifyJournal } from './verify.ts';
import { jobFaults } from './jobs.ts';
import { checkAdminWork, prepareSyncEndpoint, runAdmin, syncRemote, type AdminJournal } from './admin-load.ts';
import { waitUntil, type FakeServer } from './fake-server.ts';
import { backupsAndSyncsEnded } from './backups-and-syncs.ts';
import { heapAfterGc } from './heap.ts';
import { recoveryReport, type FaultWindow } from './report.ts';

const argv = process.argv.slice(2);
const short = argv.includes('--short');
const only = argValue(argv, 'only');
const postgresUrl = process.env.TEST_DATABASE_URL ?? null;
const hasHaproxy = spawnSync('haproxy', ['-v']).status === 0;
/** The server can be restarted from here: a cluster of this machine's (pg_ctlcluster). */
const localCluster = fs.existsSync('/etc/postgresql') && /@(127\.0\.0\.1|localhost)[:/]/.test(postgresUrl ?? '');
const USER_PASSWORD = 'Fault-Suite-Password-1';

const log = (line: string) => console.log(`[faults] ${line}`);

/**
 * Department, category and the users of the run, made by the owner through the API; with
 * admins, an endpoint of each on `remote` to sync.
 */
async function prepareUsers(
  origin: string,
  counts: { editors: number; viewers: number; admins?: number; remote?: FakeServer },
  stats: LoadStats,
) {
  const owner = new Session(origin, stats);
  await owner.signIn(BENCH_OWNER_EMAIL, BENCH_OWNER_PASSWORD);
  const json = async (method: string, path: string, body?: unknown) => {
    const response = await owner.request(method, path, body);
    if (!response?.ok) throw new Error(`${method} ${path}: ${response?.status} ${await response?.text()}`);
    return (await response.json()) as Record<string, unknown>;
  };
  const companies = (await json('GET', '/api/companies')) as unknown as { id: number }[];
  const tag = Date.now().toString(36);
  const department = await json('POST', '/api/departments', { name: `Faults ${tag}` });
  const category = await json('POST', '/api/expense-categories', {
    companyId: companies[0].id,
    departmentId: department.id,
    name: `Fault load ${tag}`,
  });
  const books: Books = { departmentId: Number(department.id), categoryId: Number(category.id) };
  const people = async (role: 'editor' | 'viewer' | 'admin', n: number) => {
    const sessions: { name: string; session: Session }[] = [];
    for (let i = 1; i <= n; i++) {
      const name = `${role[0]}${i}`;
      const email = `fault-${tag}-${name}@example.com`;
      const user = await json('POST', '/api/users', {
        username: `fault-${tag}-${name}`,
        email,
        password: USER_PASSWORD,
        role,
        isTemporaryPassword: false,
      });
      // The finance editors of the load delete their own mistakes too.
      if (role === 'editor') await json('PUT', `/api/users/${user.id}/permissions`, { canDelete: true });
      const session = new Session(origin, stats);
      await session.signIn(email, USER_PASSWORD);
      sessions.push({ name, session });
    }
    return sessions;
  };
  const admins = [];
  for (const admin of await people('admin', counts.admins ?? 0))
    admins.push({ ...admin, endpointId: await prepareSyncEndpoint(json, counts.remote!, companies[0].id, admin.name) });
  return {
    owner,
    books,
    editors: await people('editor', counts.editors),
    viewers: await people('viewer', counts.viewers),
    admins,
  };
}

interface Load {
  journal: JournalEntry[];
  adminJournal: AdminJournal;
  stats: LoadStats;
  done: Promise<unknown>;
  stop(): void;
}

function startLoad(prepared: Awaited<ReturnType<typeof prepareUsers>>, stats: LoadStats, pauseMs: number): Load {
  let stopped = false;
  const journal: JournalEntry[] = [];
  const adminJournal: AdminJournal = { backups: [], syncs: [], notified: new Map() };
  const until = () => stopped;
  const done = Promise.all([
    ...prepared.editors.map((e) => runEditor(e.session, e.name, prepared.books, journal, until, pauseMs)),
    ...prepared.viewers.map((v) => runViewer(v.session, until, pauseMs)),
    // An admin's round (a backup, a sync, its notifications) every ten or so of the others' pauses.
    ...prepared.admins.map((a) => runAdmin(a.session, a.name, a.endpointId, adminJournal, until, pauseMs * 10)),
  ]);
  return { journal, adminJournal, stats, done, stop: () => (stopped = true) };
}

const newStats = (): LoadStats => ({ requests: 0, failures: [], timings: [] });

/** PostgreSQL: two web processes behind HAProxy, two workers; web kills, rolling restarts and database restarts under load. */
async function postgresRun(
  postgresUrl: string,
  options: { clients: number; seconds: number; rounds: number },
): Promise<string[]> {
  log(`PostgreSQL topology: 2 web processes behind HAProxy, 2 workers; ${options.clients} clients`);
  if (!localCluster) log('the PostgreSQL server is not a local cluster: it is not restarted');
  const soakMinutes = numberArg(argv, 'soak', 0);
  const topology = await startTopology({
    postgresUrl,
    inspect: soakMinutes > 0,
    heapLimitMb: numberArg(argv, 'heap-limit', 0) || undefined,
  });
  const problems: string[] = [];
  const remote = await syncRemote();
  try {
    const setupStats = newStats();
    const admins = numberArg(argv, 'admins', short ? 0 : 2);
    const editors = Math.ceil((options.clients - admins) / 2);
    const prepared = await prepareUsers(
      topology.origin,
      { editors, viewers: options.clients - admins - editors, admins, remote },
      setupStats,
    );
    const stats = newStats();
    for (const p of [...prepared.editors, ...prepared.viewers, ...prepared.admins]) p.session.stats = stats;
    const windows: FaultWindow[] = [];
    const load = startLoad(prepared, stats, short ? 100 : 2000);
    const fault = async (kind: FaultWindow['kind'], act: () => Promise<void>) => {
      const at = Date.now();
      await act();
      windows.push({ kind, at, end: Date.now() });
      log(`${kind}: done in ${((Date.now() - at) / 1000).toFixed(1)} s`);
    };
    const calm = () => sleep((options.seconds * 1000) / (options.rounds * 3 + 1));
    if (soakMinutes > 0) problems.push(...(await soak(topology, soakMinutes)));
    await calm();
    for (let round = 0; round < options.rounds; round++) {
      const web = topology.webs[round % 2];
      await fault('web kill -9', async () => {
        await web.kill();
        // The balancer takes it out; it comes back once it is ready again.
        await sleep(2000);
        await web.start();
      });
      await calm();
      await fault('rolling SIGTERM restart', async () => {
        for (const w of topology.webs) {
          await w.stop();
          await w.start();
          // The balancer's health check sees it up again before the next one goes.
          await sleep(1500);
        }
      });
      await calm();
      if (localCluster && !argv.includes('--no-db-restart')) {
        await fault('PostgreSQL restart', () => topology.restartPostgres());
        await calm();
      }
    }
    load.stop();
    await load.done;
    problems.push(...(await checkDatabase(topology, load.journal)));
    problems.push(...recoveryReport(stats, windows, log, short ? {} : { p99Goal: 200 }));
    if (admins > 0) problems.push(...(await checkAdmins(topology, load.adminJournal, prepared.admins)));
    // Workers killed in the middle of jobs: their retries take a heartbeat and a retry delay
    // (a minute or two), so the short suite leaves them to worker/processes.test.ts.
    if ((!short || argv.includes('--jobs')) && !argv.includes('--no-jobs')) {
      const handle = createDatabase({ url: topology.databaseUrl! });
      try {
        // After a long soak the set-up's session has timed out for being idle.
        await prepared.owner.signIn(BENCH_OWNER_EMAIL, BENCH_OWNER_PASSWORD);
        problems.push(...(await jobFaults(topology, prepared.owner, handle.db, log)));
      } finally {
        await handle.close();
      }
    }
  } finally {
    await topology.close();
    await remote.close();
  }
  return problems;
}

/**
 * The admins' backups and syncs once their jobs settled (a job a fault interrupted is retried
 * after its retry delay, a minute or more), held to what their clients were told.
 */
async function checkAdmins(topology: Topology, journal: AdminJournal, admins: { session: Session }[]) {
  const handle = createDatabase({ url: topology.databaseUrl! });
  try {
    const db = handle.db;
    const asked = journal.backups.filter((b) => b.id !== null && !b.deleted).map((b) => b.id!);
    const logs = journal.syncs.flatMap((sync) => (sync.logId === null ? [] : [sync.logId]));
    await waitUntil("the admins' backups and syncs to end", () => backupsAndSyncsEnded(db, asked, logs), 420).catch(
      (error: Error) => log(error.message),
    );
    return await checkAdminWork(
      db,
      topology.backupDir,
      journal,
      admins.map((a) => a.session),
      log,
    );
  } finally {
    await handle.close();
  }
}

/**
 * Memory under steady load, no faults, from the end of the first minute (warm caches, compiled
 * code) to the end of the soak. What a process keeps is its heap after a full garbage
 * collection (heap.ts): growth over 10 % is a leak and fails. Resident memory (every 15 s) is
 * reported too: it also holds garbage V8 has not collected yet, which it lets grow towards its
 * heap limit (`--max-old-space-size` caps it), so it is not flat even without a leak.
 */
async function soak(topology: Topology, minutes: number): Promise<string[]> {
  log(`soak: ${minutes} min of load without faults, resident memory of each process every 15 s`);
  const members = [...topology.webs, ...topology.workers];
  await sleep(60_000);
  const heaps = () => Promise.all(members.map((m) => heapAfterGc(m.inspector!)));
  const firstHeap = await heaps();
  const first = members.map((m) => residentBytes(m.child.pid));
  const peak = [...first];
  const until = Date.now() + (minutes - 1) * 60_000;
  while (Date.now() < until) {
    await sleep(15_000);
    members.forEach((m, i) => (peak[i] = Math.max(peak[i], residentBytes(m.child.pid))));
  }
  const last = members.map((m) => residentBytes(m.child.pid));
  const lastHeap = await heaps();
  const problems: string[] = [];
  members.forEach((m, i) => {
    const growth = (last[i] - first[i]) / first[i];
    const heapGrowth = (lastHeap[i] - firstHeap[i]) / firstHeap[i];
    const mb = (b: number) => `${Math.round(b / 2 ** 20)} MB`;
    log(
      `soak: ${m.name} resident ${mb(first[i])} → ${mb(last[i])} (${(growth * 100).toFixed(1)} %, peak ${mb(peak[i])}); ` +
        `heap after a full GC ${mb(firstHeap[i])} → ${mb(lastHeap[i])} (${(heapGrowth * 100).toFixed(1)} %)`,
    );
    if (heapGrowth > 0.1)
      problems.push(`soak: ${m.name}'s heap after a full GC grew ${(heapGrowth * 100).toFixed(1)} % in ${minutes} min`);
  });
  return problems;
}

/** The embedded mode: one web process on SQLite killed with -9 again and again during writes. */
async function sqliteRun(options: { clients: number; kills: number }): Promise<string[]> {
  log(`embedded mode (SQLite): ${options.kills} kill -9 of the web process during writes; ${options.clients} editors`);
  const topology = await startTopology({ postgresUrl: null });
  const problems: string[] = [];
  try {
    const prepared = await prepareUsers(topology.origin, { editors: options.clients, viewers: 0 }, newStats());
    const stats = newStats();
    for (const p of prepared.editors) p.session.stats = stats;
    const load = startLoad(prepared, stats, 20);
    const [web] = topology.webs;
    let restartMs = 0;
    for (let i = 0; i < options.kills; i++) {
      await sleep(500 + Math.random() * 1000);
      await web.kill();
      const at = Date.now();
      await web.start();
      restartMs = Math.max(restartMs, Date.now() - at);
    }
    await sleep(1000);
    load.stop();
    await load.done;
    log(`slowest restart after a kill: ${(restartMs / 1000).toFixed(1)} s`);
    problems.push(...(await checkDatabase(topology, load.journal)));
  } finally {
    await topology.close();
  }
  return problems;
}

/** The journal, the kept counts and (SQLite) the file's own checks, read with a connection of our own. */
async function checkDatabase(topology: Topology, journal: JournalEntry[]): Promise<string[]> {
  const handle = createDatabase({ url: topology.databaseUrl ?? undefined, dataDir: topology.dataDir });
  try {
    const verdict = await verifyJournal(handle.db, journal);
    log(
      `writes: ${verdict.writes} (${verdict.acknowledged} acknowledged, ${verdict.unknown} unanswered); ` +
        `lost or phantom: ${verdict.lost.length}; written by no client: ${verdict.unexplained.length}; ` +
        `audit/version mismatches: ${verdict.auditProblems.length}`,
    );
    const kept = await keptCountProblems(handle.db);
    const sqlite = handle.dialect === 'sqlite' ? await sqliteCheckProblems(handle.db) : [];
    if (handle.dialect === 'sqlite') log(`integrity_check and foreign_key_check: ${sqlite.length ? 'FAILED' : 'ok'}`);
    log(`kept counts equal count(*): ${kept.length ? 'NO' : 'yes'}`);
    if (verdict.acknowledged === 0) return ['no write was acknowledged: the load did not run'];
    return [
      ...verdict.lost,
      ...verdict.unexplained.map((k) => `${k}: in the database, written by no client`),
      ...verdict.auditProblems,
      ...kept,
      ...sqlite,
    ];
  } finally {
    await handle.close();
  }
}

const problems: string[] = [];
if (only !== 'sqlite' && (!postgresUrl || !hasHaproxy)) {
  const missing = postgresUrl ? 'HAProxy is not installed (apt-get install haproxy)' : 'TEST_DATABASE_URL is not set';
  if (process.env.CI) problems.push(`the PostgreSQL topology cannot run: ${missing}`);
  else log(`the PostgreSQL topology is left out: ${missing}`);
} else if (only !== 'sqlite')
  problems.push(
    ...(await postgresRun(postgresUrl!, {
      clients: numberArg(argv, 'clients', short ? 12 : 200),
      seconds: numberArg(argv, 'seconds', short ? 30 : 300),
      rounds: numberArg(argv, 'rounds', short ? 1 : 3),
    })),
  );
if (only !== 'postgres')
  problems.push(
    ...(await sqliteRun({
      clients: numberArg(argv, 'clients', short ? 4 : 8),
      kills: numberArg(argv, 'kills', short ? 5 : 20),
    })),
  );
for (const problem of problems.slice(0, 50)) console.error(`[faults] PROBLEM ${problem}`);
log(problems.length ? `${problems.length} problem(s)` : 'every goal held');
process.exit(problems.length ? 1 : 0);
