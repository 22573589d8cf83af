// The load of the fault suite: signed-in users through the front door. Editors create, change
// and delete their own expenses and budgets; viewers read lists, the dashboard, exports and their
// notifications (admins' backups and syncs are in admin-load.ts). Every write is
// journalled with its outcome: acknowledged (2xx), refused (a 4xx the client caused) or unknown
// (the answer never came, or a 5xx): the verification (verify.ts) holds the database to it.
import { setTimeout as sleep } from 'node:timers/promises';

export type Outcome = 'ok' | 'unknown' | 'refused';

/** The tables the editors write, by their API path. */
export const LOAD_TABLES = { actual_expenses: '/api/actual-expenses', budgets: '/api/budgets' } as const;
export type LoadTable = keyof typeof LOAD_TABLES;

/** One write of one expense or budget, known by its description (unique per client and row). */
export interface JournalEntry {
  table: LoadTable;
  key: string;
  op: 'create' | 'update' | 'delete';
  /** The amount the write sets (create, update). */
  amount: number | null;
  /** The row's id when an answer gave it. */
  id: number | null;
  outcome: Outcome;
  at: number;
}

/** A request that did not succeed, when it failed and how. */
export interface Failure {
  at: number;
  path: string;
  method: string;
  status: number | 'network';
}

export interface LoadStats {
  requests: number;
  failures: Failure[];
  /** Answer times in ms of requests that succeeded, with when they started (percentiles per window). */
  timings: { at: number; ms: number }[];
}

export class Session {
  cookie = '';
  readonly origin: string;
  /** Where its requests are counted (the set-up's, then the run's). */
  stats: LoadStats;
  /** The last request found no server listening (the connection was refused: it never ran). */
  unreached = false;
  constructor(origin: string, stats: LoadStats) {
    this.origin = origin;
    this.stats = stats;
  }

  async request(method: string, path: string, body?: unknown): Promise<Response | null> {
    const at = Date.now();
    this.stats.requests++;
    this.unreached = false;
    try {
      const response = await fetch(`${this.origin}${path}`, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...(method === 'GET' ? {} : { Origin: this.origin }),
          ...(this.cookie ? { Cookie: this.cookie } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
      // The body is read in full: a response cut off in the middle is a failure too.
      const text = await response.text();
      const ms = Date.now() - at;
      if (response.ok) this.stats.timings.push({ at, ms });
      else this.stats.failures.push({ at: Date.now(), path, method, status: response.status });
      const bodyless = response.status === 204 || response.status === 205 || response.status === 304;
      return new Response(bodyless ? null : text, {
        status: response.status,
        headers: response.headers,
      });
    } catch (error) {
      this.unreached = (error as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED';
      this.stats.failures.push({ at: Date.now(), path, method, status: 'network' });
      return null;
    }
  }

  async signIn(email: string, password: string): Promise<void> {
    for (let attempt = 0; attempt < 20; attempt++) {
      const response = await this.request('POST', '/api/auth/login', { email, password });
      const cookie = response?.headers.getSetCookie().find((c) => c.startsWith('__session='));
      if (response?.status === 200 && cookie) {
        this.cookie = cookie.split(';')[0];
        return;
      }
      await sleep(250);
    }
    throw new Error(`${email} could not sign in`);
  }
}

/** What an editor writes against: its expense category and department. */
export interface Books {
  departmentId: number;
  categoryId: number;
}

/** A refused connection never ran the request; a lost or failed answer may have followed a commit. */
export const outcomeOf = (session: Session, response: Response | null): Outcome =>
  response === null
    ? session.unreached
      ? 'refused'
      : 'unknown'
    : response.status >= 500
      ? 'unknown'
      : response.ok
        ? 'ok'
        : 'refused';

/** 1.00 to 10,000.00, made from whole cents (so it prints with at most 2 decimals). */
const randomAmount = () => (100 + Math.floor(Math.random() * 999_900)) / 100;

/** The body of a new row of `table` whose description is `key`. */
function newRow(table: LoadTable, books: Books, key: string, amount: number) {
  return table === 'budgets'
    ? { ...books, amount, period: 'monthly', startDate: '2026-11-01', endDate: '2026-11-30', description: key }
    : { ...books, amount, expenseDate: '2026-11-27', description: key, vendor: 'Fault Suite' };
}

/**
 * An editor (each pauses about `pauseMs` between requests, half to one and a half times it, as
 * people do): creates expenses and (a third of the time) budgets, changes the amount of one of
 * its rows or deletes one, and sometimes reads its list. Runs until `until`; the journal gets
 * every write.
 */
export async function runEditor(
  session: Session,
  name: string,
  books: Books,
  journal: JournalEntry[],
  until: () => boolean,
  pauseMs: number,
): Promise<void> {
  const live: { table: LoadTable; key: string; id: number }[] = [];
  let seq = 0;
  while (!until()) {
    const roll = Math.random();
    if (roll < 0.5 || live.length === 0) {
      const table: LoadTable = Math.random() < 1 / 3 ? 'budgets' : 'actual_expenses';
      const key = `fault-${name}-${++seq}`;
      const amount = randomAmount();
      const at = Date.now();
      const response = await session.request('POST', LOAD_TABLES[table], newRow(table, books, key, amount));
      const outcome = outcomeOf(session, response);
      const id = outcome === 'ok' ? Number(((await response!.json()) as { id: number }).id) : null;
      journal.push({ table, key, op: 'create', amount, id, outcome, at });
      if (id !== null) live.push({ table, key, id });
    } else if (roll < 0.8) {
      const row = live[Math.floor(Math.random() * live.length)];
      const amount = randomAmount();
      const at = Date.now();
      const response = await session.request('PUT', `${LOAD_TABLES[row.table]}/${row.id}`, { amount });
      journal.push({ ...row, op: 'update', amount, outcome: outcomeOf(session, response), at });
    } else if (roll < 0.9) {
      const [row] = live.splice(Math.floor(Math.random() * live.length), 1);
      const at = Date.now();
      const response = await session.request('DELETE', `${LOAD_TABLES[row.table]}/${row.id}`);
      journal.push({ ...row, op: 'delete', amount: null, outcome: outcomeOf(session, response), at });
    } else {
      const table: LoadTable = Math.random() < 0.5 ? 'budgets' : 'actual_expenses';
      await session.request('GET', `${LOAD_TABLES[table]}?q=${encodeURIComponent(`fault-${name}-`)}&limit=20`);
    }
    await sleep(pauseMs * (0.5 + Math.random()));
  }
}

const VIEWER_READS = [
  '/api/actual-expenses?limit=50',
  '/api/budgets?limit=50',
  '/api/dashboard',
  '/api/notifications/count',
  '/export/actual-expenses?q=fault-e1-',
  '/actual-expenses',
];

/** A viewer: reads lists, the dashboard, its notifications, an export and a screen, until `until`. */
export async function runViewer(session: Session, until: () => boolean, pauseMs: number): Promise<void> {
  let i = Math.floor(Math.random() * VIEWER_READS.length);
  while (!until()) {
    await session.request('GET', VIEWER_READS[i++ % VIEWER_READS.length]);
    await sleep(pauseMs * (0.5 + Math.random()));
  }
}
