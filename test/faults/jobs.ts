// The job faults of the full run (PostgreSQL topology): a worker killed with -9 in the middle of
// a backup, a sync and a push delivery, and BACKUP_DIR gone for a while. The other worker is
// frozen (SIGSTOP) while the job is taken, so the job is known to be on the worker that dies.
// Afterwards: every backup, sync run and push recorded once, the synced records imported once,
// no half-written backup file left behind.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import type { Session } from './load.ts';
import type { Topology } from './topology.ts';
import { fakeServer, waitUntil, type FakeServer } from './fake-server.ts';
import { backupsAndSyncsEnded, createSyncEndpoint } from './backups-and-syncs.ts';

/** A browser's push keys: a P-256 public key and a 16-byte secret, URL-safe base64. */
function browserKeys() {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: crypto.randomBytes(16).toString('base64url') };
}

const SYNC_RECORDS = 100;

export async function jobFaults(
  topology: Topology,
  owner: Session,
  db: Kysely<Database>,
  log: (line: string) => void,
): Promise<string[]> {
  const problems: string[] = [];
  const [worker1, worker2] = topology.workers;
  const api = async (method: string, url: string, body?: unknown) => {
    const response = await owner.request(method, url, body);
    if (!response?.ok) throw new Error(`${method} ${url}: ${response?.status} ${await response?.text()}`);
    return response.status === 204 ? null : ((await response.json()) as Record<string, unknown>);
  };
  const activeJob = (queue: string, since: Date) =>
    sql<{ id: string; retryCount: number }>`
      select id, retry_count from pgboss.job
      where name = ${queue} and state = 'active' and created_on >= ${since.toISOString()}
      limit 1`
      .execute(db)
      .then((r) => r.rows[0]);

  /** Runs `trigger` with worker 2 frozen, kills worker 1 once `started` says the job runs, then brings both back. */
  const interrupt = async (what: string, trigger: () => Promise<void>, started: () => Promise<boolean>) => {
    const frozen = worker2.child.pid!;
    process.kill(frozen, 'SIGSTOP');
    try {
      await trigger();
      await waitUntil(`${what} to start`, started, 60);
      await worker1.kill();
      log(`worker kill -9 in the middle of ${what}`);
    } finally {
      process.kill(frozen, 'SIGCONT');
    }
    await worker1.start();
  };

  const remote = await fakeServer(4000, (url) =>
    url.startsWith('/v1/sales')
      ? {
          status: 200,
          json: {
            data: Array.from({ length: SYNC_RECORDS }, (_, i) => ({
              ref: `fault-sync-${i}`,
              amount: 100 + i,
              day: '2026-11-01',
              source: 'Fault sync',
            })),
          },
        }
      : { status: 404 },
  );
  const pushService = await fakeServer(4000, () => ({ status: 201 }));
  try {
    const companies = (await api('GET', '/api/companies')) as unknown as { id: number }[];
    const endpointId = await createSyncEndpoint(api, {
      sourceName: `Fault remote ${Date.now()}`,
      baseUrl: `${remote.origin}/v1`,
      name: 'Fault sales',
      path: '/sales',
      companyId: companies[0].id,
    });
    await api('POST', '/api/notifications/subscribe', {
      endpoint: `${pushService.origin}/push/owner`,
      keys: browserKeys(),
    });
    const subscribedAt = new Date();

    const backups: number[] = [];
    const askBackup = async () => {
      const backup = await api('POST', '/api/backups', { name: `Fault backup ${backups.length + 1}` });
      backups.push(Number(backup!.id));
      return Number(backup!.id);
    };
    const syncLogs: number[] = [];
    const settled = () =>
      waitUntil(
        'every backup and sync to finish (a retry follows a stale heartbeat and the retry delay)',
        () => backupsAndSyncsEnded(db, backups, syncLogs),
        420,
      );

    // A push delivery killed while the push service takes its time to answer (the backup's
    // completion notifies the owner, whose browser is subscribed).
    const pushSince = Date.now();
    await interrupt(
      'a push delivery',
      async () => void (await askBackup()),
      async () => pushService.requests.some((r) => r.at >= pushSince),
    );

    // A sync killed while it waits for the remote's answer.
    const since = Date.now();
    await interrupt(
      'a sync',
      async () => {
        const started = await api('POST', `/api/api-integration-sync/${endpointId}`, {});
        syncLogs.push(Number((started!.syncLog as { id: number }).id));
      },
      async () => remote.requests.some((r) => r.at >= since),
    );

    // A backup killed as soon as its job runs (a small database writes its file in a moment).
    // One backup per user at a time: the first one's is done by now.
    await settled();
    const backupSince = new Date();
    await interrupt(
      'a backup',
      async () => void (await askBackup()),
      async () => !!(await activeJob('backup-create', backupSince)),
    );
    log('waiting for the interrupted jobs to be retried and finish');
    await settled();

    // BACKUP_DIR gone (a file in its place) for a while: a backup asked for meanwhile fails with
    // its reason, and its retry completes once the folder is back.
    const away = `${topology.backupDir}.away`;
    fs.renameSync(topology.backupDir, away);
    fs.writeFileSync(topology.backupDir, 'not a folder');
    const outage = await askBackup();
    try {
      const failed = await waitUntil(
        'the backup of the outage to fail',
        async () =>
          db
            .selectFrom('backups')
            .select(['status', 'error'])
            .where('id', '=', outage)
            .where('status', '=', 'failed')
            .executeTakeFirst(),
        60,
      );
      log(`BACKUP_DIR unwritable: the backup asked for meanwhile failed: ${failed.error}`);
      await sleep(5000);
    } finally {
      fs.rmSync(topology.backupDir);
      fs.renameSync(away, topology.backupDir);
    }
    await settled();

    problems.push(...(await checkBackups(db, topology.backupDir, backups, log)));
    problems.push(...(await checkSync(db, endpointId, syncLogs, log)));
    problems.push(...(await checkPushes(db, pushService, subscribedAt, log)));
  } finally {
    await remote.close();
    await pushService.close();
  }
  return problems;
}

/** Jobs of a queue that ran more than once (a kill, or a failure retried). */
async function retried(db: Kysely<Database>, queue: string): Promise<number> {
  const result = await sql<{ n: string }>`
    select count(*) as n from pgboss.job where name = ${queue} and retry_count > 0`.execute(db);
  return Number(result.rows[0]?.n ?? 0);
}

async function checkBackups(db: Kysely<Database>, dir: string, ids: number[], log: (line: string) => void) {
  const problems: string[] = [];
  const rows = await db.selectFrom('backups').select(['id', 'status', 'fileName']).execute();
  const asked = rows.filter((r) => ids.includes(r.id));
  const completed = asked.filter((r) => r.status === 'completed').length;
  if (completed !== ids.length) problems.push(`backups: ${completed} of ${ids.length} completed`);
  const expected = new Set(rows.filter((r) => r.status === 'completed' && r.fileName).map((r) => r.fileName!));
  const files = fs.readdirSync(dir);
  const stray = files.filter((f) => !expected.has(f));
  const missing = [...expected].filter((f) => !files.includes(f));
  if (stray.length) problems.push(`backups: files no backup records: ${stray.join(', ')}`);
  if (missing.length) problems.push(`backups: recorded files missing: ${missing.join(', ')}`);
  log(
    `backups: ${ids.length} asked for, ${completed} completed once each; ${await retried(db, 'backup-create')} job(s) ran again after a kill or failure; ` +
      `${files.length} file(s) in BACKUP_DIR, ${stray.length} stray`,
  );
  return problems;
}

async function checkSync(db: Kysely<Database>, endpointId: number, logIds: number[], log: (line: string) => void) {
  const problems: string[] = [];
  const logs = await db
    .selectFrom('apiIntegrationSyncLogs')
    .select(['id', 'status', 'recordsCreated', 'recordsUpdated'])
    .where('endpointId', '=', endpointId)
    .execute();
  if (logs.length !== logIds.length)
    problems.push(`sync: ${logs.length} sync logs for ${logIds.length} runs asked for`);
  for (const l of logs) if (l.status !== 'success') problems.push(`sync: log #${l.id} ended ${l.status}`);
  const keys = await db
    .selectFrom('apiIntegrationRecords')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.count<number>('externalKey').distinct().as('distinct')])
    .where('endpointId', '=', endpointId)
    .executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom('actualRevenue')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('source', '=', 'Fault sync')
    .executeTakeFirstOrThrow();
  if (Number(keys.n) !== SYNC_RECORDS || Number(keys.distinct) !== SYNC_RECORDS)
    problems.push(`sync: ${keys.n} record keys (${keys.distinct} distinct) for ${SYNC_RECORDS} remote records`);
  if (Number(rows.n) !== SYNC_RECORDS)
    problems.push(`sync: ${rows.n} imported rows for ${SYNC_RECORDS} remote records`);
  log(
    `sync: ${logs.length} run(s) (${await retried(db, 'integration-sync')} taken over after a kill), ${logs.map((l) => l.status).join(', ')}; ` +
      `${rows.n} rows imported for ${SYNC_RECORDS} remote records`,
  );
  return problems;
}

async function checkPushes(db: Kysely<Database>, service: FakeServer, since: Date, log: (line: string) => void) {
  const problems: string[] = [];
  const owner = await db
    .selectFrom('users')
    .select('id')
    .where('role', '=', 'owner')
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const notes = await db
    .selectFrom('notifications')
    .select('id')
    .where('targetUserId', '=', owner.id)
    .where('createdAt', '>=', since.toISOString())
    .execute();
  const topics = service.requests.map((r) => String(r.headers.topic ?? ''));
  const byTopic = new Map<string, number>();
  for (const t of topics) byTopic.set(t, (byTopic.get(t) ?? 0) + 1);
  const lost = notes.filter((n) => !byTopic.has(`notification-${n.id}`));
  // Others reach the owner too (those to every admin): each message must be of a notification.
  const all = new Set((await db.selectFrom('notifications').select('id').execute()).map((n) => `notification-${n.id}`));
  const foreign = [...byTopic.keys()].filter((t) => !all.has(t));
  const resent = [...byTopic.values()].filter((n) => n > 1).length;
  if (lost.length)
    problems.push(`push: ${lost.length} notification(s) never pushed: ${lost.map((n) => n.id).join(', ')}`);
  if (foreign.length) problems.push(`push: messages of no notification: ${foreign.join(', ')}`);
  log(
    `push: ${notes.length} notification(s), ${topics.length} message(s) (${await retried(db, 'push-send')} delivery job(s) taken over after a kill); ${resent} sent again, ` +
      'each under the Topic of its first copy (a push service replaces it)',
  );
  return problems;
}
