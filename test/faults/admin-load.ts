// Admins under the load: each asks for a backup and waits for it to end, syncs the load's
// endpoint (a remote on loopback) and waits for that, reads its notifications, keeps its last
// few backups (deleting older ones, as an admin keeps within the quota), then pauses. Afterwards
// (checkAdminWork): every backup and sync run an answer acknowledged is recorded once and ended
// well, each completed backup's notification reached its admin once, and the remote's records
// are imported once however often they were synced.
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import { fakeServer, type FakeServer } from './fake-server.ts';
import { createSyncEndpoint } from './backups-and-syncs.ts';
import { outcomeOf, type Outcome, type Session } from './load.ts';

/** Backups an admin keeps; older completed ones are deleted. */
const KEEP_BACKUPS = 3;
export const LOAD_SYNC_RECORDS = 20;
const SYNC_SOURCE = 'Fault load sync';

export interface AdminJournal {
  backups: { name: string; id: number | null; outcome: Outcome; deleted: boolean }[];
  syncs: { endpointId: number; logId: number | null; outcome: Outcome }[];
  /** The completed backups whose notification an admin's client read, by backup name: how often it was listed (or repeated). */
  notified: Map<string, number>;
}

/** The remote of the load's syncs: each admin's endpoint reads its own orders. */
export async function syncRemote(): Promise<FakeServer> {
  return fakeServer(50, (url) => {
    const admin = /^\/v1\/orders\/(\w+)$/.exec(url)?.[1];
    if (!admin) return { status: 404 };
    const data = Array.from({ length: LOAD_SYNC_RECORDS }, (_, i) => ({
      ref: `fault-load-${admin}-${i}`,
      amount: 10 + i,
      day: '2026-11-02',
      source: `${SYNC_SOURCE} ${admin}`,
    }));
    return { status: 200, json: { data } };
  });
}

/**
 * An admin's endpoint (of the owner's making) on the remote: one per admin, since a sync of an
 * endpoint that is running already does not start.
 */
export async function prepareSyncEndpoint(
  json: (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>,
  remote: FakeServer,
  companyId: number,
  admin: string,
): Promise<number> {
  return createSyncEndpoint(json, {
    sourceName: `Fault load remote ${admin} ${Date.now()}`,
    baseUrl: `${remote.origin}/v1`,
    name: `Fault load orders ${admin}`,
    path: `/orders/${admin}`,
    companyId,
  });
}

/** GETs `path` until `done` says so of its JSON (or the load ends); failed reads are retried. */
async function pollUntil(session: Session, path: string, done: (body: any) => boolean, until: () => boolean) {
  while (!until()) {
    const response = await session.request('GET', path);
    if (response?.ok && done(await response.json())) return;
    await sleep(250);
  }
}

export async function runAdmin(
  session: Session,
  name: string,
  endpointId: number,
  journal: AdminJournal,
  until: () => boolean,
  pauseMs: number,
): Promise<void> {
  const prefix = `fault-load-${name}-`;
  const mine = journal.backups.filter((b) => b.name.startsWith(prefix));
  let n = 0;
  while (!until()) {
    // One backup per admin at a time: wait until none of its own is in progress (one whose
    // answer was lost included), then ask for the next.
    await pollUntil(
      session,
      '/api/backups?limit=50',
      (rows: { name: string; status: string }[]) =>
        !rows.some((b) => b.name.startsWith(prefix) && b.status === 'in_progress'),
      until,
    );
    if (until()) break;
    const backup = {
      name: `${prefix}${++n}`,
      id: null as number | null,
      outcome: 'unknown' as Outcome,
      deleted: false,
    };
    const asked = await session.request('POST', '/api/backups', { name: backup.name });
    backup.outcome = outcomeOf(session, asked);
    if (backup.outcome === 'ok') backup.id = Number(((await asked!.json()) as { id: number }).id);
    journal.backups.push(backup);
    mine.push(backup);

    const started = await session.request('POST', `/api/api-integration-sync/${endpointId}`, {});
    const sync = { endpointId, logId: null as number | null, outcome: outcomeOf(session, started) };
    if (sync.outcome === 'ok') sync.logId = Number(((await started!.json()) as { syncLog: { id: number } }).syncLog.id);
    journal.syncs.push(sync);
    if (sync.logId !== null)
      await pollUntil(
        session,
        `/api/api-integration-sync-logs?endpointId=${endpointId}&limit=20`,
        (rows: { id: number; status: string }[]) => rows.some((r) => r.id === sync.logId && r.status !== 'running'),
        until,
      );

    await readNotifications(session, journal);
    // Older completed backups go, as an admin keeps within the quota.
    const kept = mine.filter((b) => b.id !== null && !b.deleted);
    for (const old of kept.slice(0, Math.max(0, kept.length - KEEP_BACKUPS))) {
      const current = await session.request('GET', `/api/backups/${old.id}`);
      if (!current?.ok || ((await current.json()) as { status: string }).status !== 'completed') continue;
      const deleted = await session.request('DELETE', `/api/backups/${old.id}`);
      if (deleted?.ok) old.deleted = true;
    }
    await sleep(pauseMs * (0.5 + Math.random()));
  }
}

/** The admin's notifications of completed backups, as its client lists them (the API names the backup in the message). */
async function readNotifications(session: Session, journal: AdminJournal) {
  const response = await session.request('GET', '/api/notifications?category=system&limit=100');
  if (!response?.ok) return;
  const seen = new Map<string, number>();
  for (const n of (await response.json()) as { title: string; message: string; repeatCount: number }[]) {
    const name = /^The backup "(.+)" is complete/.exec(n.message)?.[1];
    if (n.title === 'Backup completed' && name) seen.set(name, (seen.get(name) ?? 0) + n.repeatCount);
  }
  for (const [name, times] of seen) journal.notified.set(name, Math.max(journal.notified.get(name) ?? 0, times));
}

/**
 * After the load (and its retried jobs) settled: the admins' backups, syncs and notifications
 * against what their clients were told. `admins` are the admins' sessions, which read their
 * notifications one last time.
 */
export async function checkAdminWork(
  db: Kysely<Database>,
  backupDir: string,
  journal: AdminJournal,
  admins: Session[],
  log: (line: string) => void,
): Promise<string[]> {
  const problems: string[] = [];
  const names = journal.backups.map((b) => b.name);
  const rows = names.length
    ? await db.selectFrom('backups').select(['id', 'name', 'status', 'fileName']).where('name', 'in', names).execute()
    : [];
  const files = fs.readdirSync(backupDir);
  for (const asked of journal.backups) {
    const found = rows.filter((r) => r.name === asked.name);
    if (found.length > 1) problems.push(`backup ${asked.name}: recorded ${found.length} times`);
    if (asked.outcome !== 'ok') continue;
    const [row] = found;
    if (asked.deleted) {
      if (row) problems.push(`backup ${asked.name}: deleted (acknowledged) but still recorded`);
      continue;
    }
    if (!row) problems.push(`backup ${asked.name}: acknowledged, never recorded`);
    else if (row.status !== 'completed') problems.push(`backup ${asked.name}: ended ${row.status}`);
    else if (!row.fileName || !files.includes(row.fileName)) problems.push(`backup ${asked.name}: its file is missing`);
  }
  for (const admin of admins) await readNotifications(admin, journal);
  const completed = rows.filter((r) => r.status === 'completed');
  const notes = completed.length
    ? await db
        .selectFrom('notifications')
        .select(['relatedRecordId'])
        .where('relatedTable', '=', 'backups')
        .where('title', '=', 'Backup completed')
        .where(
          'relatedRecordId',
          'in',
          completed.map((r) => r.id),
        )
        .execute()
    : [];
  for (const row of completed) {
    const stored = notes.filter((n) => n.relatedRecordId === row.id).length;
    if (stored !== 1) problems.push(`backup ${row.name}: ${stored} completion notifications`);
    if (journal.notified.get(row.name) !== 1)
      problems.push(
        `backup ${row.name}: its admin's client listed its notification ${journal.notified.get(row.name) ?? 0} times`,
      );
  }

  const endpoints = [...new Set(journal.syncs.map((sync) => sync.endpointId))];
  const logs = endpoints.length
    ? await db
        .selectFrom('apiIntegrationSyncLogs')
        .select(['id', 'endpointId', 'status'])
        .where('endpointId', 'in', endpoints)
        .execute()
    : [];
  const logIds = journal.syncs.flatMap((sync) => (sync.logId === null ? [] : [sync.logId]));
  for (const id of logIds) {
    const found = logs.find((l) => l.id === id);
    if (!found) problems.push(`sync #${id}: acknowledged, never recorded`);
    else if (found.status !== 'success') problems.push(`sync #${id}: ended ${found.status}`);
  }
  const unanswered = journal.syncs.filter((sync) => sync.outcome === 'unknown').length;
  if (logs.length > logIds.length + unanswered)
    problems.push(`sync: ${logs.length} runs recorded for ${logIds.length + unanswered} asked for`);
  let synced = 0;
  for (const endpointId of endpoints) {
    const keys = await db
      .selectFrom('apiIntegrationRecords')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.count<number>('externalKey').distinct().as('distinct')])
      .where('endpointId', '=', endpointId)
      .executeTakeFirstOrThrow();
    // An endpoint none of whose syncs was answered may not have run at all.
    const answered = journal.syncs.some((sync) => sync.endpointId === endpointId && sync.logId !== null);
    if (!answered && Number(keys.n) === 0) continue;
    if (Number(keys.n) !== LOAD_SYNC_RECORDS || Number(keys.distinct) !== LOAD_SYNC_RECORDS)
      problems.push(
        `sync of endpoint #${endpointId}: ${keys.n} record keys (${keys.distinct} distinct) for ${LOAD_SYNC_RECORDS} remote records`,
      );
    synced += 1;
  }

  // Each remote record once, however often it was synced (a sync imports into actual revenue).
  const imported = Number(
    (
      await db
        .selectFrom('actualRevenue')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('source', 'like', `${SYNC_SOURCE} %`)
        .executeTakeFirstOrThrow()
    ).n,
  );
  if (imported !== synced * LOAD_SYNC_RECORDS)
    problems.push(`sync: ${imported} imported rows for ${synced} × ${LOAD_SYNC_RECORDS} remote records`);
  const acked = journal.backups.filter((b) => b.outcome === 'ok');
  log(
    `admins: ${journal.backups.length} backups asked for (${acked.length} acknowledged, ${acked.filter((b) => b.deleted).length} deleted later), ` +
      `${completed.length} kept and completed, each notified once: ${completed.every((r) => journal.notified.get(r.name) === 1) ? 'yes' : 'NO'}; ` +
      `${journal.syncs.length} syncs asked for (${logIds.length} acknowledged), ${imported} rows imported for ${synced} × ${LOAD_SYNC_RECORDS} remote records`,
  );
  return problems;
}
