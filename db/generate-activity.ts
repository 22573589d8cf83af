// The people and the history around a generated book (`finhub db generate`, db/generate.ts):
// users of every role spread over the companies, the audit trail of their work (creates of the
// generated rows, edits with their data versions, deletes, sign-ins and sign-outs), and the
// notifications they were sent with who has read them. Per N actual expenses: N/5000 users,
// N audit entries, N/10 data versions and N/20 notifications (ACTIVITY_RATIOS).
//
// The audit trail is written from the rows as loaded: each generated row (id above the mark
// taken before the load) is read back in id order and a share of them get a create entry
// naming a writer of their company with the row as new data, some of those an edit (old and
// new data, the change map, version 1 and 2). Deletes name ids past the last row (the id
// sequence is moved beyond them, as deleted rows leave it). Notifications live 90 days like the
// app's own (the purge job removes expired ones), so most fall in the last 90 days.
//
// Speed: like the book's loader: multi-row INSERTs on better-sqlite3 (PostgreSQL: INSERT …
// SELECT FROM unnest in one transaction), the audit trail's secondary indexes dropped during a
// large load and re-created after. Triggers stay on (whatever keeps counts of these tables
// keeps them during the load too). Deterministic for a given seed and book.
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { DatabaseHandle } from './client.ts';
import { mulberry32 } from './seed/demo.ts';

export type ActivityTable = 'users' | 'audit_logs' | 'data_versions' | 'notifications';

/** Rows per generated actual expense. */
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
  onProgress?: (progress: { table: ActivityTable; done: number; total: number }) => void;
  log?: (line: string) => void;
}

type Cell = number | string | boolean | null;
type Rng = () => number;
type ColumnType = 'int' | 'text' | 'jsonb' | 'timestamptz' | 'boolean';
interface Sink {
  table: string;
  columns: [string, ColumnType][];
}

const DAY = 86_400_000;
const PAGE = 5000;
const FLUSH = 5000;
/** SQLite: rows per multi-row INSERT (× ≤ 20 columns, far below the parameter limit). */
const ROWS_PER_STATEMENT = 100;

export async function bookMarks(handle: DatabaseHandle): Promise<BookMarks> {
  const marks = {} as BookMarks;
  const names = { actual_expenses: 'actualExpenses', budgets: 'budgets', revenue_projections: 'revenueProjections', actual_revenue: 'actualRevenue' } as const;
  for (const table of BOOK_TABLES) {
    const row = await handle.db.selectFrom(names[table]).select((eb) => eb.fn.max('id').as('id')).executeTakeFirst();
    marks[table] = Number(row?.id ?? 0);
  }
  return marks;
}

// ---------------------------------------------------------------------------------------------
// Connections: the same few operations on better-sqlite3 and pg

interface Conn {
  all(text: string, params?: Cell[]): Promise<Record<string, unknown>[]>;
  run(text: string, params?: Cell[]): Promise<void>;
  insert(sink: Sink, rows: Cell[][]): Promise<void>;
  /** Drops the table's secondary indexes; returns what re-creates them. */
  dropIndexes(table: string): Promise<string[]>;
  end(ok: boolean): Promise<void>;
}

function sqliteConn(file: string): Conn {
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  // Generated data: no fsync per batch; the final checkpoint makes it durable.
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144');
  const statements = new Map<string, SQLite.Statement>();
  const prepare = (text: string) => {
    let statement = statements.get(text);
    if (!statement) statements.set(text, (statement = db.prepare(text)));
    return statement;
  };
  const bind = (params: Cell[]) => params.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : p));
  return {
    async all(text, params = []) {
      return prepare(text).all(bind(params)) as Record<string, unknown>[];
    },
    async run(text, params = []) {
      prepare(text).run(bind(params));
    },
    async insert(sink, rows) {
      const names = sink.columns.map(([name]) => name).join(', ');
      const tuple = `(${sink.columns.map(() => '?').join(', ')})`;
      const many = prepare(`INSERT INTO ${sink.table} (${names}) VALUES ${Array(ROWS_PER_STATEMENT).fill(tuple).join(', ')}`);
      const one = prepare(`INSERT INTO ${sink.table} (${names}) VALUES ${tuple}`);
      db.transaction(() => {
        let i = 0;
        for (; i + ROWS_PER_STATEMENT <= rows.length; i += ROWS_PER_STATEMENT) many.run(bind(rows.slice(i, i + ROWS_PER_STATEMENT).flat()));
        for (; i < rows.length; i++) one.run(bind(rows[i]));
      })();
    },
    async dropIndexes(table) {
      const indexes = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL").all(table) as { name: string; sql: string }[];
      for (const index of indexes) db.exec(`DROP INDEX "${index.name}"`);
      return indexes.map((i) => i.sql);
    },
    async end() {
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.close();
    },
  };
}

/** Dates and instants as the app returns them (YYYY-MM-DD, ISO UTC), 64-bit integers as numbers. */
const PG_TYPES = {
  getTypeParser(oid: number, format?: string) {
    if (oid === 1082) return (value: string) => value;
    if (oid === 1184 || oid === 1114) return (value: string) => new Date(value).toISOString();
    if (oid === 20) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

async function postgresConn(url: string): Promise<Conn> {
  const client = new pg.Client({ connectionString: url, types: PG_TYPES as pg.CustomTypesConfig });
  await client.connect();
  await client.query('BEGIN');
  const numbered = (text: string) => {
    let n = 0;
    return text.replace(/\?/g, () => `$${++n}`);
  };
  return {
    async all(text, params = []) {
      return (await client.query(numbered(text), params)).rows;
    },
    async run(text, params = []) {
      await client.query(numbered(text), params);
    },
    async insert(sink, rows) {
      const columns: Cell[][] = sink.columns.map(() => new Array(rows.length));
      for (let r = 0; r < rows.length; r++) for (let c = 0; c < sink.columns.length; c++) columns[c][r] = rows[r][c];
      const unnest = sink.columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ');
      await client.query(`INSERT INTO ${sink.table} (${sink.columns.map(([name]) => name).join(', ')}) SELECT * FROM unnest(${unnest})`, columns);
    },
    async dropIndexes(table) {
      const { rows } = await client.query<{ indexname: string; indexdef: string }>(
        `SELECT i.indexname, i.indexdef FROM pg_indexes i
          WHERE i.schemaname = current_schema() AND i.tablename = $1
            AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
        [table],
      );
      for (const index of rows) await client.query(`DROP INDEX "${index.indexname}"`);
      return rows.map((r) => r.indexdef);
    },
    async end(ok) {
      try {
        await client.query(ok ? 'COMMIT' : 'ROLLBACK');
        if (ok) for (const table of ['users', 'audit_logs', 'data_versions', 'notifications', 'user_notification_settings']) await client.query(`ANALYZE ${table}`);
      } finally {
        await client.end();
      }
    },
  };
}

/** Buffers rows per table and writes them in batches. */
class Writer {
  private readonly buffers = new Map<Sink, Cell[][]>();
  readonly written = new Map<string, number>();
  private readonly conn: Conn;
  private readonly progress: (table: string, done: number) => void;
  constructor(conn: Conn, progress: (table: string, done: number) => void) {
    this.conn = conn;
    this.progress = progress;
  }
  async push(sink: Sink, row: Cell[]): Promise<void> {
    let buffer = this.buffers.get(sink);
    if (!buffer) this.buffers.set(sink, (buffer = []));
    buffer.push(row);
    if (buffer.length >= FLUSH) await this.flush(sink);
  }
  async flush(sink?: Sink): Promise<void> {
    for (const [s, rows] of this.buffers) {
      if ((sink && s !== sink) || rows.length === 0) continue;
      await this.conn.insert(s, rows);
      const done = (this.written.get(s.table) ?? 0) + rows.length;
      this.written.set(s.table, done);
      this.progress(s.table, done);
      rows.length = 0;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The tables written

const AUDIT: Sink = {
  table: 'audit_logs',
  columns: [['table_name', 'text'], ['record_id', 'int'], ['action', 'text'], ['old_data', 'jsonb'], ['new_data', 'jsonb'], ['changes', 'jsonb'], ['user_id', 'int'], ['actor_label', 'text'], ['timestamp', 'timestamptz'], ['ip_address', 'text'], ['user_agent', 'text'], ['reason', 'text'], ['session_id', 'text'], ['company_id', 'int']],
};
const VERSIONS: Sink = {
  table: 'data_versions',
  columns: [['table_name', 'text'], ['record_id', 'int'], ['version', 'int'], ['data', 'jsonb'], ['created_by', 'int'], ['created_at', 'timestamptz'], ['action', 'text'], ['comment', 'text'], ['is_active', 'boolean'], ['company_id', 'int']],
};
const NOTIFICATIONS: Sink = {
  table: 'notifications',
  columns: [['title', 'text'], ['message', 'text'], ['type', 'text'], ['priority', 'text'], ['category', 'text'], ['target_company_id', 'int'], ['target_department_id', 'int'], ['target_user_role', 'text'], ['target_user_id', 'int'], ['target_group_wide', 'boolean'], ['action_url', 'text'], ['action_text', 'text'], ['related_table', 'text'], ['related_record_id', 'int'], ['is_active', 'boolean'], ['expires_at', 'timestamptz'], ['created_by', 'int'], ['updated_by', 'int'], ['created_at', 'timestamptz'], ['updated_at', 'timestamptz']],
};
const READ_STATES: Sink = {
  table: 'user_notification_settings',
  columns: [['user_id', 'int'], ['notification_id', 'int'], ['is_read', 'boolean'], ['read_at', 'timestamptz'], ['is_dismissed', 'boolean'], ['dismissed_at', 'timestamptz']],
};

// ---------------------------------------------------------------------------------------------
// Users

type Role = 'owner' | 'admin' | 'editor' | 'viewer';
interface Person {
  id: number;
  username: string;
  email: string;
  role: Role;
  companyId: number | null;
  isActive: boolean;
  createdMs: number;
  ip: string;
  agent: string;
  /** Relative share of sign-ins and edits. */
  weight: number;
  logins: number;
  lastLoginMs: number;
}

const FIRST_NAMES = ['Olivia', 'Liam', 'Emma', 'Noah', 'Ava', 'Lucas', 'Sofia', 'Mateo', 'Mia', 'Elias', 'Amelia', 'Leon', 'Chloé', 'Hugo', 'Zoe', 'Adam', 'Léa', 'Omar', 'Nina', 'Ivan', 'Sara', 'Jonas', 'Maya', 'Arjun', 'Priya', 'Wei', 'Yuki', 'Fatima', 'Diego', 'Laura', 'Marco', 'Anna', 'Pierre', 'Inês', 'Tomás', 'Elena', 'Kofi', 'Amara', 'Lars', 'Ingrid'];
const LAST_NAMES = ['Smith', 'García', 'Müller', 'Martin', 'Rossi', 'Kowalski', 'Nguyen', 'Okafor', 'Silva', 'Dubois', 'Jensen', 'Novak', 'Cohen', 'Haddad', 'Tanaka', 'Patel', 'Kim', 'Schmidt', 'López', 'Moreau', 'Berg', 'Costa', 'Ivanova', 'Mensah', 'Larsen', 'Fischer', 'Romero', 'Weber', 'Santos', 'Ahmed'];
const POSITIONS: Record<Role, string[]> = {
  owner: ['Group CFO', 'Chief Executive Officer'],
  admin: ['Finance Systems Administrator', 'Head of Finance Operations', 'IT Administrator', 'Financial Controller'],
  editor: ['Accountant', 'Financial Analyst', 'Accounts Payable Clerk', 'Budget Controller', 'Revenue Analyst', 'Payroll Specialist'],
  viewer: ['Department Manager', 'Internal Auditor', 'Business Analyst', 'Sales Manager', 'Operations Manager', 'Project Manager'],
};
const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
];
const FLAGS = ['can_access_financial_data', 'can_access_subscriber_data', 'can_access_api_integrations', 'can_access_analytics', 'can_access_audit_logs', 'can_access_backups', 'can_create', 'can_edit', 'can_delete', 'can_manage_users'];
/** Flags some users of a role hold beyond its baseline, and how often. */
const EXTRA_FLAGS: Record<Role, [string, number][]> = {
  owner: [],
  admin: [],
  editor: [['can_delete', 0.3], ['can_access_analytics', 0.25], ['can_access_audit_logs', 0.1]],
  viewer: [['can_access_analytics', 0.15], ['can_access_audit_logs', 0.05]],
};
const WEIGHT: Record<Role, number> = { owner: 2, admin: 3, editor: 6, viewer: 1 };

const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)];
const ascii = (text: string) => text.normalize('NFD').replace(/[^A-Za-z]/g, '').toLowerCase();
const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

function roleOf(rng: Rng): Role {
  const r = rng();
  return r < 0.01 ? 'owner' : r < 0.06 ? 'admin' : r < 0.41 ? 'editor' : 'viewer';
}

/** A session id per user and day (a working day's entries share their session). */
function sessionIdOf(userId: number, dayNumber: number): string {
  const rng = mulberry32(Math.imul(userId, 0x9e3779b1) ^ dayNumber);
  const hex = Array.from({ length: 4 }, () => Math.floor(rng() * 2 ** 32).toString(16).padStart(8, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A stored argon2id hash of a password nobody knows: the account exists but cannot sign in. */
function unusableHash(rng: Rng): string {
  const b64 = (n: number) => Buffer.from(Array.from({ length: n }, () => Math.floor(rng() * 256))).toString('base64').replace(/=+$/, '');
  return `$argon2id$v=19$m=19456,t=2,p=1$${b64(16)}$${b64(32)}`;
}

async function createUsers(handle: DatabaseHandle, count: number, rng: Rng, start: number, now: number): Promise<{ people: Person[]; rows: Record<string, unknown>[] }> {
  if (count <= 0) return { people: [], rows: [] };
  const companies = await handle.db.selectFrom('companies').select(['id', 'name']).orderBy('id').execute();
  const taken = await handle.db.selectFrom('users').select(['username', 'email']).execute();
  const usernames = new Set(taken.map((u) => u.username.toLowerCase()));
  const emails = new Set(taken.map((u) => u.email.toLowerCase()));
  const owner = await handle.db.selectFrom('users').select('id').where('role', '=', 'owner').orderBy('id').limit(1).executeTakeFirst();
  const values: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const role = roleOf(rng);
    const scoped = role === 'owner' ? false : role === 'admin' ? rng() < 0.5 : rng() < 0.85;
    const company = scoped && companies.length ? pick(rng, companies) : null;
    const first = pick(rng, FIRST_NAMES);
    const last = pick(rng, LAST_NAMES);
    let username = `${ascii(first)}.${ascii(last)}`;
    for (let n = 2; usernames.has(username); n++) username = `${ascii(first)}.${ascii(last)}${n}`;
    usernames.add(username);
    const domain = company ? `${slug(company.name)}.example` : 'group.example';
    let email = `${username}@${domain}`;
    for (let n = 2; emails.has(email); n++) email = `${username}${n}@${domain}`;
    emails.add(email);
    // Most accounts predate the generated history; some joined during it.
    const createdMs = rng() < 0.8 ? start - Math.floor(rng() * 365) * DAY : start + Math.floor(rng() * (now - start) * 0.9);
    const created = new Date(createdMs + Math.floor(rng() * DAY)).toISOString();
    const flags = Object.fromEntries(FLAGS.map((f) => [f, false]));
    for (const [flag, share] of EXTRA_FLAGS[role]) if (rng() < share) flags[flag] = true;
    values.push({
      username,
      email,
      password_hash: unusableHash(rng),
      role,
      full_name: `${first} ${last}`,
      position: pick(rng, POSITIONS[role]),
      phone_number: rng() < 0.6 ? `+1 555 ${String(100 + Math.floor(rng() * 900))} ${String(1000 + Math.floor(rng() * 9000))}` : null,
      is_active: rng() < 0.92,
      is_temporary_password: false,
      password_change_required: false,
      password_changed_at: created,
      company_id: company?.id ?? null,
      created_by: owner?.id ?? null,
      created_at: created,
      updated_at: created,
      ...flags,
    });
  }
  // Through Kysely (its plugins store booleans and names as each dialect wants): a few hundred rows.
  const camel = (row: Record<string, unknown>) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), v]));
  const inserted: { id: number }[] = [];
  for (let i = 0; i < values.length; i += 100) {
    inserted.push(...(await handle.db.insertInto('users').values(values.slice(i, i + 100).map(camel) as never).returning('id').execute()));
  }
  const people = values.map((v, i) => ({
    id: inserted[i].id,
    username: v.username as string,
    email: v.email as string,
    role: v.role as Role,
    companyId: v.company_id as number | null,
    isActive: v.is_active as boolean,
    createdMs: Date.parse(v.created_at as string),
    ip: `10.${20 + ((v.company_id as number | null) ?? 0)}.${(inserted[i].id >> 8) & 255}.${inserted[i].id & 255}`,
    agent: AGENTS[inserted[i].id % AGENTS.length],
    weight: WEIGHT[v.role as Role] * (v.is_active ? 1 : 0.2),
    logins: 0,
    lastLoginMs: 0,
  }));
  const rows = values.map((v, i) => {
    const { password_hash: _secret, ...rest } = v;
    return camel({ id: inserted[i].id, ...rest, last_login_at: null, last_activity_at: null, login_count: 0, total_session_duration: 0, average_session_duration: 0 });
  });
  return { people, rows };
}

/** Weighted choice among people. */
function chooser(people: Person[]): (rng: Rng) => Person | undefined {
  const total = people.reduce((sum, p) => sum + p.weight, 0);
  return (rng) => {
    let r = rng() * total;
    for (const p of people) if ((r -= p.weight) < 0) return p;
    return people[people.length - 1];
  };
}

// ---------------------------------------------------------------------------------------------
// The history

const camelKey = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** An edit of one field: the row before it (old) and the change map. */
function edit(rng: Rng, row: Record<string, unknown>): { old: Record<string, unknown>; changes: Record<string, { old: unknown; new: unknown }> } {
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

export async function generateActivity(handle: DatabaseHandle, options: ActivityOptions): Promise<Record<ActivityTable, number>> {
  const rng = mulberry32(options.seed ^ 0x3c6ef372);
  const now = Date.now();
  const start = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth() - 35, 1);
  const ceil = (ratio: number) => Math.ceil(options.rows * ratio);
  const counts: Record<ActivityTable, number> = { users: ceil(ACTIVITY_RATIOS.users), audit_logs: ceil(ACTIVITY_RATIOS.audit_logs), data_versions: ceil(ACTIVITY_RATIOS.data_versions), notifications: ceil(ACTIVITY_RATIOS.notifications) };
  if (options.rows <= 0) return { users: 0, audit_logs: 0, data_versions: 0, notifications: 0 };

  const { people, rows: userRows } = await createUsers(handle, counts.users, rng, start, now);
  options.onProgress?.({ table: 'users', done: people.length, total: counts.users });
  const everyone = await handle.db.selectFrom('users').select(['id', 'role', 'companyId', 'username']).execute();
  // Whoever may write enters rows: the generated accounts and those already there.
  const earlier: Person[] = everyone
    .filter((u) => u.role !== 'viewer' && !people.some((p) => p.id === u.id))
    .map((u) => ({ id: u.id, username: u.username, email: '', role: u.role as Role, companyId: u.companyId, isActive: true, createdMs: 0, ip: `10.${20 + (u.companyId ?? 0)}.${(u.id >> 8) & 255}.${u.id & 255}`, agent: AGENTS[u.id % AGENTS.length], weight: 1, logins: 0, lastLoginMs: 0 }));
  const writers = [...people.filter((p) => p.role !== 'viewer'), ...earlier];
  const writersOf = new Map<number | null, Person[]>();
  for (const p of writers) writersOf.set(p.companyId, [...(writersOf.get(p.companyId) ?? []), p]);
  const groupWriters = writersOf.get(null) ?? writers;
  const writerFor = (companyId: number | null, atMs: number): Person | undefined => {
    const pool = companyId !== null && writersOf.has(companyId) && rng() < 0.8 ? writersOf.get(companyId)! : groupWriters;
    for (let attempt = 0; attempt < 3; attempt++) {
      const p = pool[Math.floor(rng() * pool.length)];
      if (p && p.createdMs <= atMs) return p;
    }
    return pool.reduce<Person | undefined>((a, b) => (!a || b.createdMs < a.createdMs ? b : a), undefined);
  };

  const conn = options.url ? await postgresConn(options.url) : sqliteConn(handle.location);
  const total: Record<string, number> = { audit_logs: counts.audit_logs, data_versions: counts.data_versions, notifications: counts.notifications };
  const writer = new Writer(conn, (table, done) => {
    if (table in total) options.onProgress?.({ table: table as ActivityTable, done, total: total[table] });
  });
  let ok = false;
  try {
    // Large loads re-create the audit trail's indexes once instead of updating them per row.
    const existing = Number((await conn.all('SELECT count(*) AS n FROM audit_logs'))[0].n);
    const recreate = counts.audit_logs >= 50_000 && counts.audit_logs >= existing / 2 ? await conn.dropIndexes('audit_logs') : [];

    const audit = (e: { table: string; recordId: number | null; action: string; old?: unknown; data?: unknown; changes?: unknown; user: Person | null; userId?: number | null; label?: string; atMs: number; reason?: string | null; companyId: number | null; session?: boolean }) =>
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
        e.user ? (rng() < 0.9 ? e.user.ip : `192.0.2.${1 + Math.floor(rng() * 254)}`) : `198.51.100.${1 + Math.floor(rng() * 254)}`,
        e.user ? e.user.agent : pick(rng, AGENTS),
        e.reason ?? null,
        e.user && e.session !== false ? sessionIdOf(e.user.id, Math.floor(e.atMs / DAY)) : null,
        e.companyId,
      ]);
    const version = (table: string, recordId: number, n: number, data: unknown, by: Person | null, atMs: number, action: string, active: boolean, companyId: number | null) =>
      writer.push(VERSIONS, [table, recordId, n, JSON.stringify(data), by?.id ?? null, new Date(atMs).toISOString(), action, null, active, companyId]);

    // The budget of each kind of entry; what the book cannot take goes to sign-ins.
    let versionsLeft = counts.data_versions;
    let auditLeft = counts.audit_logs;
    const creator = everyone.find((u) => u.role === 'owner');
    for (const row of userRows) {
      if (auditLeft <= 0) break;
      const atMs = Date.parse(row.createdAt as string);
      await audit({ table: 'users', recordId: row.id as number, action: 'create', data: row, changes: Object.fromEntries(Object.entries(row).map(([k, v]) => [k, { old: null, new: v }])), user: null, userId: creator?.id ?? null, label: creator?.username ?? 'system', atMs, reason: 'User created', companyId: row.companyId as number | null, session: false });
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
    for (const table of BOOK_TABLES) available[table] = Number((await conn.all(`SELECT count(*) AS n FROM ${table} WHERE id > ?`, [marks[table]]))[0].n);
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
          await audit({ table, recordId: id, action: 'create', data: created, changes: Object.fromEntries(Object.entries(created).map(([k, v]) => [k, { old: null, new: v }])), user: by, atMs, companyId });
          if (change) {
            updatesLeft--;
            const editMs = Math.min(now - 3_600_000, atMs + Math.floor((1 + rng() * 45) * DAY));
            const editor = writerFor(companyId, editMs) ?? by;
            await audit({ table, recordId: id, action: 'update', old: change.old, data: row, changes: change.changes, user: editor, atMs: editMs, reason: rng() < 0.3 ? 'Corrected after review' : null, companyId });
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
        await audit({ table: 'actual_expenses', recordId: id, action: 'delete', old: { ...template, id, createdAt: new Date(createdMs).toISOString(), updatedAt: new Date(createdMs).toISOString() }, user: writerFor(companyId, atMs) ?? null, atMs, reason: rng() < 0.5 ? 'Duplicate entry' : null, companyId });
      }
      if (options.url) await conn.run(`SELECT setval(pg_get_serial_sequence('actual_expenses', 'id'), ?)`, [top + deleteCount]);
      else {
        await conn.run("INSERT INTO sqlite_sequence (name, seq) SELECT 'actual_expenses', 0 WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'actual_expenses')");
        await conn.run("UPDATE sqlite_sequence SET seq = max(seq, CAST(? AS INTEGER)) WHERE name = 'actual_expenses'", [top + deleteCount]);
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
      await audit({ table: 'users', recordId: p.id, action: 'login', user: p, atMs, reason: rng() < 0.2 ? 'Signed in (remember me)' : 'Signed in', companyId: null });
      // As many sign-outs as there are left, spread over the sign-ins.
      if (outs < signOuts && rng() * (logins - i) < signOuts - outs) {
        outs++;
        await audit({ table: 'users', recordId: p.id, action: 'logout', user: p, atMs: Math.min(now - 60_000, atMs + Math.floor((1 + rng() * 7) * 3_600_000)), reason: 'Signed out', companyId: null });
      }
    }
    for (let i = 0; i < failures; i++) {
      const p = people.length && rng() < 0.9 ? choose(rng) : undefined;
      const atMs = start + Math.floor(rng() * (now - start));
      await audit({ table: 'users', recordId: p?.id ?? null, action: 'login_failed', data: { email: p ? p.email : `unknown${Math.floor(rng() * 1000)}@example.com` }, user: null, userId: p?.id ?? null, label: 'system', atMs, reason: p ? 'Wrong password' : 'Unknown e-mail address', companyId: null });
    }
    await writer.flush();
    const t = performance.now();
    for (const statement of recreate) await conn.run(statement);
    if (recreate.length) options.log?.(`audit_logs: ${recreate.length} indexes re-created in ${((performance.now() - t) / 1000).toFixed(2)} s`);

    await writeNotifications(conn, writer, rng, { count: counts.notifications, people, everyone, now, start });
    await writer.flush();
    ok = true;
  } finally {
    await conn.end(ok);
  }
  // Each account's sign-in figures follow from its sign-ins.
  for (const p of people) {
    if (!p.logins) continue;
    const last = new Date(p.lastLoginMs).toISOString();
    await handle.db.updateTable('users').set({ loginCount: p.logins, lastLoginAt: last, lastActivityAt: last }).where('id', '=', p.id).execute();
  }
  return {
    users: people.length,
    audit_logs: writer.written.get('audit_logs') ?? 0,
    data_versions: writer.written.get('data_versions') ?? 0,
    notifications: writer.written.get('notifications') ?? 0,
  };
}

// ---------------------------------------------------------------------------------------------
// Notifications, worded as the app words them (app/services/notification-events.server.ts)

interface NotificationContext {
  count: number;
  people: Person[];
  everyone: { id: number; role: string; companyId: number | null; username: string }[];
  now: number;
  start: number;
}

async function writeNotifications(conn: Conn, writer: Writer, rng: Rng, c: NotificationContext): Promise<void> {
  if (c.count <= 0) return;
  const before = Number((await conn.all('SELECT max(id) AS id FROM notifications'))[0].id ?? 0);
  const users = c.everyone;
  const groupAdmins = users.filter((u) => (u.role === 'admin' || u.role === 'owner') && u.companyId === null);
  const companies = [...new Set(users.map((u) => u.companyId).filter((id): id is number => id !== null))];
  const LIFETIME = 90 * DAY;
  // Kept per notification: who it reached, to give some of them a read state.
  const reached: { createdMs: number; readers: number[] }[] = [];
  for (let i = 0; i < c.count; i++) {
    // Most are recent (they expire after 90 days); some never expire.
    const lasting = rng() < 0.15;
    const createdMs = lasting ? c.start + Math.floor(rng() * (c.now - c.start)) : c.now - Math.floor(rng() * (LIFETIME - DAY));
    const created = new Date(createdMs).toISOString();
    const expires = lasting ? null : new Date(createdMs + LIFETIME).toISOString();
    const kind = rng();
    const user = users[Math.floor(rng() * users.length)];
    const company = companies.length ? companies[Math.floor(rng() * companies.length)] : null;
    let row: Cell[];
    let readers: number[];
    const base = (title: string, message: string, type: string, priority: string, category: string, to: { companyId?: number | null; role?: string | null; userId?: number | null; groupWide?: boolean }, actionUrl: string, actionText: string, relatedTable: string | null, relatedRecordId: number | null): Cell[] => [
      title, message, type, priority, category, to.companyId ?? null, null, to.role ?? null, to.userId ?? null, to.groupWide ?? false, actionUrl, actionText, relatedTable, relatedRecordId, true, expires, null, null, created, created,
    ];
    if (kind < 0.3) {
      const ok = rng() < 0.95;
      const name = `Scheduled backup ${new Date(createdMs).toISOString().slice(0, 10)}`;
      row = base(ok ? 'Backup completed' : 'Backup failed', ok ? `The backup "${name}" is complete (${(1_000_000 + Math.floor(rng() * 3_000_000)).toLocaleString('en-US')} records).` : `The backup "${name}" failed: disk quota exceeded`, ok ? 'success' : 'error', ok ? 'low' : 'high', 'system', { role: 'admin', groupWide: true }, '/backup-recovery', 'Open Backup & Recovery', 'backups', 1 + Math.floor(rng() * 1000));
      readers = groupAdmins.map((u) => u.id);
    } else if (kind < 0.5) {
      const target = c.people.length ? c.people[Math.floor(rng() * c.people.length)] : user;
      row = base('User created', `${pick(rng, groupAdmins)?.username ?? 'owner'} created the account ${target.username} (${target.role}).`, 'info', 'medium', 'user', target.companyId === null ? { role: 'admin', groupWide: true } : { role: 'admin', companyId: target.companyId }, `/user-management?q=${encodeURIComponent(target.username)}`, 'Open user management', 'users', target.id);
      readers = users.filter((u) => (u.role === 'admin' || u.role === 'owner') && (u.companyId === null || u.companyId === target.companyId)).map((u) => u.id);
    } else if (kind < 0.7) {
      const bySelf = rng() < 0.8;
      row = base('Password changed', bySelf ? 'Your password was changed and your other sessions were signed out. If this was not you, tell your administrator at once.' : 'Your password was set by an administrator; you will choose a new one when you next sign in. If you did not expect this, tell your administrator.', bySelf ? 'success' : 'warning', bySelf ? 'medium' : 'high', 'security', { userId: user.id }, '/profile', 'View profile', 'users', user.id);
      readers = [user.id];
    } else if (kind < 0.85) {
      row = base('API sync failed', `${pick(rng, ['Stripe', 'Salesforce', 'NetSuite', 'Twilio'])} · ${pick(rng, ['Payouts', 'Invoices', 'Subscribers', 'Usage'])}: request timed out after 30 s`, 'error', 'high', 'api', { role: 'admin', groupWide: true }, '/api-integrations?tab=logs', 'Open the sync logs', 'api_integration_sync_logs', 1 + Math.floor(rng() * 5000));
      readers = groupAdmins.map((u) => u.id);
    } else if (kind < 0.95) {
      const who = pick(rng, c.people.length ? c.people : users);
      row = base('Security anomaly detected', `${who.username} deleted ${5 + Math.floor(rng() * 6)} records within 10 minutes. This may indicate unauthorized access or data manipulation.`, 'warning', 'high', 'security', company === null ? { role: 'admin', groupWide: true } : { role: 'admin', companyId: company }, '/audit-trail?tab=anomalies', 'Review anomalies', 'security_anomalies', null);
      readers = users.filter((u) => (u.role === 'admin' || u.role === 'owner') && (u.companyId === null || u.companyId === company)).map((u) => u.id);
    } else {
      row = base('Background job failed', 'The integration-sync job failed after all its retries: connect ETIMEDOUT', 'error', 'high', 'system', { role: 'admin', groupWide: true }, '/system-monitoring', 'Open system monitoring', null, null);
      readers = groupAdmins.map((u) => u.id);
    }
    await writer.push(NOTIFICATIONS, row);
    reached.push({ createdMs, readers });
  }
  await writer.flush(NOTIFICATIONS);
  // Read and dismissed states: most of what is older than a few days has been read.
  const ids = (await conn.all('SELECT id FROM notifications WHERE id > ? ORDER BY id', [before])).map((r) => Number(r.id));
  for (let i = 0; i < reached.length && i < ids.length; i++) {
    const r = reached[i];
    if (c.now - r.createdMs < 3 * DAY) continue;
    for (const userId of r.readers) {
      if (rng() >= 0.85) continue;
      const readMs = Math.min(c.now, r.createdMs + Math.floor(rng() * 2 * DAY));
      const dismissed = rng() < 0.1;
      await writer.push(READ_STATES, [userId, ids[i], true, new Date(readMs).toISOString(), dismissed, dismissed ? new Date(readMs + 60_000).toISOString() : null]);
    }
  }
}
