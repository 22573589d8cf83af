// The production topology on this machine, for the fault suite: a fresh PostgreSQL database, web
// processes (NODE_ENV=production) behind HAProxy with deploy/haproxy.cfg, and job workers; or
// the embedded mode (one web process on SQLite with its own job engine). Every process can be
// killed, stopped and started again while the load runs.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import webPush from 'web-push';
import { freePort, root, startChild, waitForHealth } from '../../bench/processes.ts';
import { benchEnv } from '../../bench/constants.ts';

/** One process of the topology, restartable under the same name, port and settings. */
export interface Member {
  name: string;
  port: number | null;
  child: ChildProcess;
  /** kill -9: no cleanup, as a crash or an OOM kill. */
  kill(): Promise<void>;
  /** SIGTERM and wait for the exit (a deploy's graceful stop). */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Started with `inspect`: its inspector's WebSocket address (see heap.ts). */
  inspector?: string;
}

export interface Topology {
  /** Where clients send their requests: the balancer, or the one web process. */
  origin: string;
  databaseUrl: string | null;
  dataDir: string;
  backupDir: string;
  webs: Member[];
  workers: Member[];
  /** pg_ctlcluster … restart of the local server (PostgreSQL topology only). */
  restartPostgres(): Promise<void>;
  close(): Promise<void>;
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((resolve) => child.once('exit', () => resolve()));

function member(name: string, port: number | null, start: () => ChildProcess, ready: (m: Member) => Promise<void>) {
  const launch = () => {
    const child = start();
    child.stderr!.on('data', (chunk: Buffer) => {
      const inspector = /Debugger listening on (ws:\/\/\S+)/.exec(chunk.toString());
      if (inspector) m.inspector = inspector[1];
    });
    return child;
  };
  const m: Member = {
    name,
    port,
    child: null as unknown as ChildProcess,
    async kill() {
      if (m.child.pid && m.child.exitCode === null) process.kill(m.child.pid, 'SIGKILL');
      await exited(m.child);
    },
    async stop() {
      if (m.child.pid && m.child.exitCode === null) process.kill(m.child.pid, 'SIGTERM');
      await exited(m.child);
    },
    async start() {
      await exited(m.child);
      m.child = launch();
      await ready(m);
    },
  };
  m.child = launch();
  return m;
}

/** The app's settings for every process of a run (fixed secrets, the owner, no rate limit: the load is measured, not the limiter). */
function appEnv(
  dataDir: string,
  backupDir: string,
  databaseUrl: string | null,
  vapid: { publicKey: string; privateKey: string },
) {
  return {
    ...benchEnv(),
    DATA_DIR: dataDir,
    BACKUP_DIR: backupDir,
    DATABASE_URL: databaseUrl ?? undefined,
    API_RATE_LIMIT_PER_MINUTE: '100000000',
    API_RATE_LIMIT_PER_HOUR: '100000000',
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    // Outbound calls go to loopback fakes only.
    ALLOW_PRIVATE_TARGETS: '1',
    // Workers look for jobs whose worker died every 10 s (default 60): the run waits less.
    WORKER_SUPERVISE_SECONDS: '10',
    // As the README's load balancer section says: out of HAProxy's rotation (two failed checks
    // half a second apart) before a stopping process refuses connections.
    SHUTDOWN_DRAIN_SECONDS: '2',
  };
}

function webMember(
  name: string,
  port: number,
  env: Record<string, string | undefined>,
  flags: string[],
  quiet: boolean,
) {
  // As `npm run serve` starts it in production: every setting from the environment.
  const launch = () =>
    startChild(name, [...flags, '--liftoff-only', 'server.ts'], { ...env, PORT: String(port) }, quiet);
  return member(name, port, launch, (m) => waitForHealth(`http://127.0.0.1:${port}`, m.child, 120));
}

/** A fresh database on the local server, named for this run; dropped by close(). */
async function freshDatabase(baseUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `finhub_faults_${process.pid}_${Date.now()}`;
  const admin = new URL(baseUrl);
  admin.pathname = '/postgres';
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: admin.href });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`create database ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return { url: url.href, drop: () => run(`drop database if exists ${name} with (force)`) };
}

function postgresCluster(): { version: string; cluster: string } {
  const version = fs.readdirSync('/etc/postgresql').sort().at(-1);
  if (!version) throw new Error('no local PostgreSQL cluster under /etc/postgresql');
  return { version, cluster: 'main' };
}

async function restartLocalPostgres(): Promise<void> {
  const { version, cluster } = postgresCluster();
  const result = spawnSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, cluster, 'restart', '-m', 'fast'], {
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`pg_ctlcluster restart failed: ${result.stderr || result.stdout}`);
}

function startBalancer(bind: number, webs: Member[]): ChildProcess {
  const env = {
    ...process.env,
    FINHUB_BIND: `127.0.0.1:${bind}`,
    FINHUB_WEB1: `127.0.0.1:${webs[0].port}`,
    FINHUB_WEB2: `127.0.0.1:${webs[1].port}`,
  };
  const child = spawn('haproxy', ['-db', '-f', path.join(root, 'deploy', 'haproxy.cfg')], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    const text = chunk.toString().trim();
    // Its notices of servers going down and up are the point of the exercise, not errors.
    if (text && !/\bis (DOWN|UP)\b|NOTICE|WARNING/.test(text)) console.error(`  [haproxy] ${text}`);
  });
  return child;
}

async function waitForBalancer(origin: string, seconds = 30): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    const ok = await fetch(`${origin}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the balancer at ${origin} sent no request through within ${seconds} s`);
}

export interface TopologyOptions {
  /** null: the embedded mode on SQLite (one web process, its own job engine). */
  postgresUrl: string | null;
  workers?: number;
  quiet?: boolean;
  /** Each Node process listens for an inspector on a loopback port of its own (heap.ts reads its heap). */
  inspect?: boolean;
  /** `--max-old-space-size` of each Node process, in MB (unset: V8's default). */
  heapLimitMb?: number;
}

export async function startTopology(options: TopologyOptions): Promise<Topology> {
  const quiet = options.quiet ?? true;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'finhub-faults-'));
  const dataDir = path.join(tmp, 'data');
  const backupDir = path.join(tmp, 'backups');
  const database = options.postgresUrl ? await freshDatabase(options.postgresUrl) : null;
  const vapid = webPush.generateVAPIDKeys();
  const env = appEnv(dataDir, backupDir, database?.url ?? null, vapid);
  const cleanup: (() => Promise<void>)[] = [];
  const flags = [
    ...(options.inspect ? ['--inspect=127.0.0.1:0'] : []),
    ...(options.heapLimitMb ? [`--max-old-space-size=${options.heapLimitMb}`] : []),
  ];

  if (!database) {
    const web = webMember('web', await freePort(), env, flags, quiet);
    await waitForHealth(`http://127.0.0.1:${web.port}`, web.child, 120);
    return {
      origin: `http://127.0.0.1:${web.port}`,
      databaseUrl: null,
      dataDir,
      backupDir,
      webs: [web],
      workers: [],
      restartPostgres: () => Promise.reject(new Error('the embedded mode has no PostgreSQL')),
      async close() {
        await web.stop();
        fs.rmSync(tmp, { recursive: true, force: true });
      },
    };
  }

  // The first web process migrates and seeds the fresh database; the others start on it.
  const webs = [webMember('web1', await freePort(), env, flags, quiet)];
  await waitForHealth(`http://127.0.0.1:${webs[0].port}`, webs[0].child, 120);
  webs.push(webMember('web2', await freePort(), env, flags, quiet));
  const workers = Array.from({ length: options.workers ?? 2 }, (_, i) =>
    member(
      `worker${i + 1}`,
      null,
      () => startChild(`worker${i + 1}`, [...flags, 'worker/main.ts'], env, quiet),
      async () => {},
    ),
  );
  await waitForHealth(`http://127.0.0.1:${webs[1].port}`, webs[1].child, 120);
  const bind = await freePort();
  const balancer = startBalancer(bind, webs);
  const origin = `http://127.0.0.1:${bind}`;
  await waitForBalancer(origin);
  cleanup.push(async () => {
    balancer.kill('SIGTERM');
    await exited(balancer);
  });

  return {
    origin,
    databaseUrl: database.url,
    dataDir,
    backupDir,
    webs,
    workers,
    restartPostgres: restartLocalPostgres,
    async close() {
      await Promise.all([...webs, ...workers].map((m) => m.stop()));
      for (const step of cleanup) await step();
      await database.drop();
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
}
