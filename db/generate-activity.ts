// The people and the history around a generated book (`finhub db generate`, db/generate.ts):
// users (db/generate-people.ts), the audit trail of their work with data versions, and the
// notifications they were sent (db/generate-notifications.ts). Per N actual expenses: N/5000
// users (at most 200), N audit entries, N/10 data versions and N/20 notifications (ACTIVITY_RATIOS).
//
// The audit trail is written from the rows as loaded: the generated rows (ids above the marks
// taken before the load) are read back in id order and an even share of them get a create entry
// naming a writer of their company with the row as new data, some of those an edit (old and new
// data, the change map, versions 1 and 2). Deletes name ids past the last row (the id sequence is
// moved beyond them, as deleted rows leave it behind). Sign-ins, sign-outs and failed sign-ins
// fill the rest. During a large load the trail's secondary indexes are dropped and its triggers
// off; afterwards the indexes are re-created and its counts (audit_counts) counted again. The
// other tables keep their triggers. Deterministic for a given seed and book.
import { recountAuditEntries } from './audit-counts.ts';
import type { DatabaseHandle } from './client.ts';
import { AUDIT_SINK as AUDIT, postgresConn, sqliteConn, VERSIONS_SINK as VERSIONS, Writer } from './generate-bulk.ts';
import { writeNotifications } from './generate-notifications.ts';
import {
  AGENTS,
  chooser,
  createUsers,
  pick,
  sessionIdOf,
  type Person,
  type Rng,
  type Role,
} from './generate-people.ts';
import { mulberry32 } from './seed/demo.ts';

export type ActivityTable = 'users' | 'audit_logs' | 'data_versions' | 'notifications';

/**
 * The people stop growing at a finance team's size: a group's staff does not grow with its books,
 * so a bigger book is the same team's longer history, not more people.
 */
export const MAX_GENERATED_USERS = 200;

/** Rows per generated actual expense (users: up to MAX_GENERATED_USERS). */
export const ACTIVITY_RATIOS: Record<ActivityTable, number> = {
  users: 1 / 5000,
  audit_logs: 1,
  data_versions: 1 / 10,
  notifications: 1 / 20,
};

/** The generated tables whose rows the audit trail is about. */
const BOOK_TABLES = ['actual_expenses', 'budgets', 'revenue_projections', 'actual_revenue'] as const;

/** The highest id of each book table before a load: rows above it are the generated ones. */
export type BookMarks = Record<(typeof BOOK_TABLES)[number], number>;

export interface ActivityOptions {
  /** The generated actual expenses the activity is scaled to. */
  rows: number;
  seed: number;
  marks: BookMarks;
  url?: string;
  /** Audit entries from which the load drops the trail's indexes and triggers (default 50,000). */
  bulkFrom?: number;
  onProgress?: (progress: { table: ActivityTable; done: number; total: number }) => void;
  log?: (line: string) => void;
}

const DAY = 86_400_000;
/** Rows read back per query. */
const PAGE = 5000;

export async function bookMarks(handle: DatabaseHandle): Promise<BookMarks> {
  const marks = {} as BookMarks;
  const names = {
    actual_expenses: 'actualExpenses',
    budgets: 'budgets',
    revenue_projections: 'revenueProjections',
    actual_revenue: 'actualRevenue',
  } as const;
  for (const table of BOOK_TABLES) {
    const row = await handle.db
      .selectFrom(names[table])
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    marks[table] = Number(row?.id ?? 0);
  }
  return marks;
}

const camelKeys = new Map<string, string>();
const camelKey = (key: string) => {
  let camel = camelKeys.get(key);
  if (camel === undefined) camelKeys.set(key, (camel = key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())));
  return camel;
};

/** An edit of one field: the row before it (old) and the change map. */
function edit(
  rng: Rng,
  row: Record<string, unknown>,
): { old: Record<string, unknown>; changes: Record<string, { old: unknown; new: unknown }> } {
  const amount = Number(row.amountCents);
  const old = { ...row };
  if (rng() < 0.75 || !row.description) {
    const before = Math.max(100, Math.round((amount * (0.8 + rng() * 0.4)) / 100) * 100);
    old.amountCents = before === amount ? amount + 100 : before;
    return { old, changes: { amountCents: { old: old.amountCents, new: amount } } };
  }
  old.description = `${row.description as string} (draft)`;
  return { old, changes: { description: { old: old.description, new: row.description } } };
}

/** How many rows of each activity table go with `rows` generated actual expenses. */
export function activityCounts(rows: number): Record<ActivityTable, number> {
  const ceil = (ratio: number) => Math.ceil(rows * ratio);
  return {
    users: Math.min(ceil(ACTIVITY_RATIOS.users), MAX_GENERATED_USERS),
    audit_logs: ceil(ACTIVITY_RATIOS.audit_logs),
    data_versions: ceil(ACTIVITY_RATIOS.data_versions),
    notifications: ceil(ACTIVITY_RATIOS.notifications),
  };
}

export async function generateActivity(
  handle: DatabaseHandle,
  options: ActivityOptions,
): Promise<Record<ActivityTable, number>> {
  const rng = mulberry32(options.seed ^ 0x3c6ef372);
  const now = Date.now();
  const start = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth() - 35, 1);
  const counts = activityCounts(options.rows);
  if (options.rows <= 0) return { users: 0, audit_logs: 0, data_versions: 0, notifications: 0 };

  const { people, rows: userRows } = await createUsers(handle, counts.users, rng, start, now);
  options.onProgress?.({ table: 'users', done: people.length, total: counts.users });
  const everyone = await handle.db.selectFrom('users').select(['id', 'role', 'companyId', 'username']).execute();
  // Whoever may write enters rows: the generated accounts and those already there.
  const earlier: Person[] = everyone
    .filter((u) => u.role !== 'viewer' && !people.some((p) => p.id === u.id))
    .map((u) => ({
      id: u.id,
      username: u.username,
      email: '',
      role: u.role as Role,
      companyId: u.companyId,
      isActive: true,
      createdMs: 0,
      ip: `10.${20 + (u.companyId ?? 0)}.${(u.id >> 8) & 255}.${u.id & 255}`,
      agent: AGENTS[u.id % AGENTS.length],
      weight: 1,
      logins: 0,
      lastLoginMs: 0,
    }));
  const writers = [...people.filter((p) => p.role !== 'viewer'), ...earlier];
  const writersOf = new Map<number | null, Person[]>();
  for (const p of writers) writersOf.set(p.companyId, [...(writersOf.get(p.companyId) ?? []), p]);
  const groupWriters = writersOf.get(null) ?? writers;
  const writerFor = (companyId: number | null, atMs: number): Person | undefined => {
    const pool =
      companyId !== null && writersOf.has(companyId) && rng() < 0.8 ? writersOf.get(companyId)! : groupWriters;
    for (let attempt = 0; attempt < 3; attempt++) {
      const p = pool[Math.floor(rng() * pool.length)];
      if (p && p.createdMs <= atMs) return p;
    }
    return pool.reduce<Person | undefined>((a, b) => (!a || b.createdMs < a.createdMs ? b : a), undefined);
  };

  const conn = options.url ? await postgresConn(options.url) : sqliteConn(handle.location);
  const total: Record<string, number> = {
    audit_logs: counts.audit_logs,
    data_versions: counts.data_versions,
    notifications: counts.notifications,
  };
  const writer = new Writer(conn, (table, done) => {
    if (table in total) options.onProgress?.({ table: table as ActivityTable, done, total: total[table] });
  });
  let ok = false;
  let triggersWereOff = false;
  try {
    // Large loads re-create the audit trail's indexes once instead of updating them per row,
    // and count again what its triggers keep (a trigger per row costs more than the row).
    const existing = Number((await conn.all('SELECT count(*) AS n FROM audit_logs'))[0].n);
    const bulk = counts.audit_logs >= (options.bulkFrom ?? 50_000) && counts.audit_logs >= existing / 2;
    const recreate = bulk ? await conn.dropIndexes('audit_logs') : [];
    const retrigger = bulk ? await conn.dropTriggers('audit_logs') : [];

    const audit = (e: {
      table: string;
      recordId: number | null;
      action: string;
      old?: unknown;
      data?: unknown;
      changes?: unknown;
      user: Person | null;
      userId?: number | null;
      label?: string;
      atMs: number;
      reason?: string | null;
      companyId: number | null;
      session?: boolean;
    }) =>
      writer.push(AUDIT, [
        e.table,
        e.recordId,
        e.action,
        e.old === undefined ? null : JSON.stringify(e.old),
        e.data === undefined ? null : JSON.stringify(e.data),
        e.changes === undefined ? null : JSON.stringify(e.changes),
        e.userId !== undefined ? e.userId : (e.user?.id ?? null),
        e.label ?? e.user?.username ?? 'system',
        new Date(e.atMs).toISOString(),
        e.user
          ? rng() < 0.9
            ? e.user.ip
            : `192.0.2.${1 + Math.floor(rng() * 254)}`
          : `198.51.100.${1 + Math.floor(rng() * 254)}`,
        e.user ? e.user.agent : pick(rng, AGENTS),
        e.reason ?? null,
        e.user && e.session !== false ? sessionIdOf(e.user.id, Math.floor(e.atMs / DAY)) : null,
        e.companyId,
      ]);
    const version = (
      table: string,
      recordId: number,
      n: number,
      data: unknown,
      by: Person | null,
      atMs: number,
      action: string,
      active: boolean,
      companyId: number | null,
    ) =>
      writer.push(VERSIONS, [
        table,
        recordId,
        n,
        JSON.stringify(data),
        by?.id ?? null,
        new Date(atMs).toISOString(),
        action,
        null,
        active,
        companyId,
      ]);

    // The budget of each kind of entry; what the book cannot take goes to sign-ins.
    let versionsLeft = counts.data_versions;
    let auditLeft = counts.audit_logs;
    const creator = everyone.find((u) => u.role === 'owner');
    for (const row of userRows) {
      if (auditLeft <= 0) break;
      const atMs = Date.parse(row.createdAt as string);
      await audit({
        table: 'users',
        recordId: row.id as number,
        action: 'create',
        data: row,
        changes: Object.fromEntries(Object.entries(row).map(([k, v]) => [k, { old: null, new: v }])),
        user: null,
        userId: creator?.id ?? null,
        label: creator?.username ?? 'system',
        atMs,
        reason: 'User created',
        companyId: row.companyId as number | null,
        session: false,
      });
      auditLeft--;
      if (versionsLeft > 0) {
        await version('users', row.id as number, 1, row, null, atMs, 'create', true, row.companyId as number | null);
        versionsLeft--;
      }
    }
    const signIns = Math.round(auditLeft * 0.1);
    const deletes = Math.round(auditLeft * 0.01);
    const updates = Math.min(Math.floor(versionsLeft / 2), auditLeft - signIns - deletes);
    let singleVersions = versionsLeft - 2 * updates;
    const marks = options.marks;
    const available: Record<string, number> = {};
    for (const table of BOOK_TABLES)
      available[table] = Number(
        (await conn.all(`SELECT count(*) AS n FROM ${table} WHERE id > ?`, [marks[table]]))[0].n,
      );
    const bookRows = Object.values(available).reduce((a, b) => a + b, 0);
    let createsLeft = Math.min(bookRows, Math.max(0, auditLeft - signIns - deletes - updates));
    let updatesLeft = Math.min(updates, createsLeft);
    singleVersions += 2 * (updates - updatesLeft);
    let seen = 0;
    const deletable: Record<string, unknown>[] = [];
    let expensesSeen = 0;

    // Creates (and some edits) of the generated rows, chosen evenly over the book (selection sampling).
    for (const table of BOOK_TABLES) {
      let last = marks[table];
      for (;;) {
        const page = await conn.all(`SELECT * FROM ${table} WHERE id > ? ORDER BY id LIMIT ${PAGE}`, [last]);
        if (!page.length) break;
        last = Number(page[page.length - 1].id);
        for (const raw of page) {
          const remaining = bookRows - seen++;
          if (createsLeft <= 0 || rng() * remaining >= createsLeft) continue;
          const row = Object.fromEntries(Object.entries(raw).map(([k, v]) => [camelKey(k), v]));
          const id = Number(row.id);
          const companyId = row.companyId === null ? null : Number(row.companyId);
          const atMs = Date.parse(row.createdAt as string);
          const by = writerFor(companyId, atMs) ?? null;
          // A uniform sample of the expenses (reservoir) to model the deleted ones on.
          if (table === 'actual_expenses') {
            expensesSeen++;
            if (deletable.length < 1000) deletable.push(row);
            else if (rng() * expensesSeen < 1000) deletable[Math.floor(rng() * 1000)] = row;
          }
          const edited = updatesLeft > 0 && rng() * createsLeft < updatesLeft;
          createsLeft--;
          const change = edited ? edit(rng, row) : null;
          const created = change ? change.old : row;
          await audit({
            table,
            recordId: id,
            action: 'create',
            data: created,
            changes: Object.fromEntries(Object.entries(created).map(([k, v]) => [k, { old: null, new: v }])),
            user: by,
            atMs,
            companyId,
          });
          if (change) {
            updatesLeft--;
            const editMs = Math.min(now - 3_600_000, atMs + Math.floor((1 + rng() * 45) * DAY));
            const editor = writerFor(companyId, editMs) ?? by;
            await audit({
              table,
              recordId: id,
              action: 'update',
              old: change.old,
              data: row,
              changes: change.changes,
              user: editor,
              atMs: editMs,
              reason: rng() < 0.3 ? 'Corrected after review' : null,
              companyId,
            });
            await version(table, id, 1, change.old, by, atMs, 'create', false, companyId);
            await version(table, id, 2, row, editor, editMs, 'update', true, companyId);
          } else if (singleVersions > 0) {
            singleVersions--;
            await version(table, id, 1, row, by, atMs, 'create', true, companyId);
          }
        }
      }
    }
    await writer.flush(VERSIONS);
    const written = () => writer.written.get('audit_logs') ?? 0;
    await writer.flush(AUDIT);

    // Deletes: rows entered and removed again, their ids left behind the last row.
    const deleteCount = Math.min(deletes, counts.audit_logs - written() - signIns);
    if (deleteCount > 0 && deletable.length) {
      const top = Number((await conn.all('SELECT max(id) AS id FROM actual_expenses'))[0].id ?? 0);
      for (let i = 0; i < deleteCount; i++) {
        const template = deletable[Math.floor(rng() * deletable.length)];
        const id = top + 1 + i;
        const createdMs = Date.parse(template.createdAt as string) + Math.floor(rng() * 3_600_000);
        const atMs = Math.min(now - 3_600_000, createdMs + Math.floor((0.1 + rng() * 20) * DAY));
        const companyId = Number(template.companyId);
        await audit({
          table: 'actual_expenses',
          recordId: id,
          action: 'delete',
          old: {
            ...template,
            id,
            createdAt: new Date(createdMs).toISOString(),
            updatedAt: new Date(createdMs).toISOString(),
          },
          user: writerFor(companyId, atMs) ?? null,
          atMs,
          reason: rng() < 0.5 ? 'Duplicate entry' : null,
          companyId,
        });
      }
      if (options.url)
        await conn.run(`SELECT setval(pg_get_serial_sequence('actual_expenses', 'id'), ?)`, [top + deleteCount]);
      else {
        await conn.run(
          "INSERT INTO sqlite_sequence (name, seq) SELECT 'actual_expenses', 0 WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'actual_expenses')",
        );
        await conn.run("UPDATE sqlite_sequence SET seq = max(seq, CAST(? AS INTEGER)) WHERE name = 'actual_expenses'", [
          top + deleteCount,
        ]);
      }
    }
    await writer.flush(AUDIT);

    // Sign-ins, sign-outs and failed attempts fill the rest of the trail.
    const rest = counts.audit_logs - written();
    const choose = chooser(people.length ? people : []);
    const failures = Math.round(rest * 0.05);
    const signOuts = Math.round(rest * 0.35);
    const logins = rest - failures - signOuts;
    for (let i = 0, outs = 0; i < logins && people.length; i++) {
      const p = choose(rng)!;
      const from = Math.max(start, p.createdMs);
      const atMs = from + Math.floor(rng() * Math.max(1, now - 3_600_000 - from));
      p.logins++;
      p.lastLoginMs = Math.max(p.lastLoginMs, atMs);
      await audit({
        table: 'users',
        recordId: p.id,
        action: 'login',
        user: p,
        atMs,
        reason: rng() < 0.2 ? 'Signed in (remember me)' : 'Signed in',
        companyId: null,
      });
      // As many sign-outs as there are left, spread over the sign-ins.
      if (outs < signOuts && rng() * (logins - i) < signOuts - outs) {
        outs++;
        await audit({
          table: 'users',
          recordId: p.id,
          action: 'logout',
          user: p,
          atMs: Math.min(now - 60_000, atMs + Math.floor((1 + rng() * 7) * 3_600_000)),
          reason: 'Signed out',
          companyId: null,
        });
      }
    }
    for (let i = 0; i < failures; i++) {
      const p = people.length && rng() < 0.9 ? choose(rng) : undefined;
      const atMs = start + Math.floor(rng() * (now - start));
      await audit({
        table: 'users',
        recordId: p?.id ?? null,
        action: 'login_failed',
        data: { email: p ? p.email : `unknown${Math.floor(rng() * 1000)}@example.com` },
        user: null,
        userId: p?.id ?? null,
        label: 'system',
        atMs,
        reason: p ? 'Wrong password' : 'Unknown e-mail address',
        companyId: null,
      });
    }
    await writer.flush();
    const t = performance.now();
    for (const statement of [...recreate, ...retrigger]) await conn.run(statement);
    if (recreate.length)
      options.log?.(
        `audit_logs: ${recreate.length} indexes re-created in ${((performance.now() - t) / 1000).toFixed(2)} s`,
      );
    triggersWereOff = retrigger.length > 0;

    await writeNotifications(conn, writer, rng, { count: counts.notifications, people, everyone, now, start });
    await writer.flush();
    ok = true;
  } finally {
    await conn.end(ok);
  }
  if (triggersWereOff) await recountAuditEntries(handle.db);
  // Each account's sign-in figures follow from its sign-ins.
  for (const p of people) {
    if (!p.logins) continue;
    const last = new Date(p.lastLoginMs).toISOString();
    await handle.db
      .updateTable('users')
      .set({ loginCount: p.logins, lastLoginAt: last, lastActivityAt: last })
      .where('id', '=', p.id)
      .execute();
  }
  return {
    users: people.length,
    audit_logs: writer.written.get('audit_logs') ?? 0,
    data_versions: writer.written.get('data_versions') ?? 0,
    notifications: writer.written.get('notifications') ?? 0,
  };
}
