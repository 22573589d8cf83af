// Bench data: N actual-expense rows (default 1,000,000) in a SQLite data directory, or in
// PostgreSQL when DATABASE_URL / --database-url is a postgres:// URL.
//
//   npx node bench/seed-expenses.ts [--data-dir /tmp/finhub-bench] [--rows 1000000] [--database-url postgres://…]
//
// First the app's own start-up steps (prepareDatabase: migrations, reference seed without demo
// figures, the owner account), then the rows: realistic values copied from the demo seed's
// generator (vendors, descriptions, receipt numbers of every company's categories) with the
// amount and day varied, spread over the 36 months ending today. Re-runnable: a table that
// already has ≥ N rows is left alone, a smaller one is topped up to N.
//
// SQLite: better-sqlite3 directly, one prepared INSERT, transactions of 50,000 rows, the
// table's secondary indexes dropped during the load and re-created afterwards (same SQL, read
// from sqlite_master). PostgreSQL: INSERT … SELECT FROM unnest($1::int[], …) in batches.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { createDatabase, isPostgresUrl } from '../db/client.ts';
import { prepareDatabase } from '../db/prepare.ts';
import { buildDemoRows, loadDemoReference, mulberry32 } from '../db/seed/demo.ts';
import { argValue, BENCH_OWNER_EMAIL, BENCH_OWNER_PASSWORD, DEFAULT_DATA_DIR, DEFAULT_ROWS, loadProgress, numberArg } from './constants.ts';

export interface SeedOptions {
  dataDir: string;
  databaseUrl?: string;
  rows: number;
  batch?: number;
  log?: (line: string) => void;
}

export interface SeedResult {
  dialect: 'sqlite' | 'postgres';
  location: string;
  before: number;
  inserted: number;
  total: number;
  seconds: number;
  /** Whole load including index re-creation. */
  rowsPerSecond: number;
}

const COLUMNS = [
  'company_id', 'department_id', 'category_id', 'amount_cents', 'expense_date', 'description',
  'vendor', 'receipt_number', 'created_by', 'created_at', 'updated_at',
] as const;

type Row = [number, number, number, number, string, string, string | null, string | null, number | null, string, string];

interface Template {
  companyId: number;
  departmentId: number;
  categoryId: number;
  amountCents: number;
  description: string;
  vendor: string | null;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * Row templates: the demo generator's expenses (every company's categories that have a
 * department), plus categories without a department (Miscellaneous) booked to any department.
 */
async function loadTemplates(handle: ReturnType<typeof createDatabase>): Promise<Template[]> {
  const reference = await loadDemoReference(handle.db);
  const demo = buildDemoRows(reference, new Date()).actualExpenses;
  const templates: Template[] = demo.map((r) => ({
    companyId: r.companyId,
    departmentId: r.departmentId,
    categoryId: r.categoryId,
    amountCents: Number(r.amountCents),
    // "Monthly payroll, March 2025": the month is put back from the row's own date.
    description: r.description.replace(/, [A-Z][a-z]+ \d{4}$/, ''),
    vendor: r.vendor ?? null,
  }));
  const departments = await handle.db.selectFrom('departments').select('id').orderBy('id').execute();
  const covered = new Set(templates.map((t) => t.categoryId));
  let d = 0;
  for (const category of reference.categories) {
    if (covered.has(category.id)) continue;
    for (const description of ['Sundry expenses', 'Petty cash reimbursement', 'Bank charges', 'Courier and postage']) {
      for (const vendor of ['General supplier', 'Local merchant', null]) {
        templates.push({
          companyId: category.companyId,
          departmentId: category.departmentId ?? departments[d++ % departments.length].id,
          categoryId: category.id,
          amountCents: 45_000,
          description,
          vendor,
        });
      }
    }
  }
  if (templates.length === 0) throw new Error('no expense categories: the reference seed did not run');
  return templates;
}

/** A deterministic stream of rows: day uniform over the 36 months ending today. */
function rowGenerator(templates: Template[], createdBy: number | null, seed: number) {
  const rng = mulberry32(seed);
  const now = new Date();
  const end = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 35, 1);
  const days = Math.round((end - start) / 86_400_000) + 1;
  let receipt = 100_000 + Math.floor(seed % 100_000);
  return (): Row => {
    const t = templates[Math.floor(rng() * templates.length)];
    const ms = start + Math.floor(rng() * days) * 86_400_000;
    const date = new Date(ms);
    const y = date.getUTCFullYear();
    const m = date.getUTCMonth() + 1;
    const expenseDate = `${y}-${pad(m)}-${pad(date.getUTCDate())}`;
    // The demo amounts are a category's monthly total; single entries are a share of it
    // (log-normal spread: many small invoices, a few large ones), at least $5.
    const gauss = rng() + rng() + rng() - 1.5;
    const amountCents = Math.max(500, Math.round((t.amountCents / 40) * Math.exp(gauss * 1.6)));
    const vendor = t.vendor;
    receipt += 1 + Math.floor(rng() * 3);
    const receiptNumber = rng() < 0.15 ? null : `${vendor ? 'INV' : 'RCT'}-${String(y).slice(2)}${pad(m)}-${receipt}`;
    // Entered some hours to a few days after the expense.
    const created = new Date(ms + Math.floor((8 + rng() * 72) * 3_600_000) + Math.floor(rng() * 3_600_000)).toISOString();
    const description = `${t.description}, ${MONTHS[m - 1]} ${y}`;
    return [t.companyId, t.departmentId, t.categoryId, amountCents, expenseDate, description, vendor, receiptNumber, createdBy, created, created];
  };
}

async function ownerId(handle: ReturnType<typeof createDatabase>): Promise<number | null> {
  const row = await handle.db.selectFrom('users').select('id').where('role', '=', 'owner').orderBy('id').limit(1).executeTakeFirst();
  return row?.id ?? null;
}

function insertSqlite(file: string, rows: number, next: () => Row, batch: number, log: (s: string) => void): void {
  const db = new SQLite(file);
  try {
    db.pragma('journal_mode = WAL');
    // A bulk load of throw-away data: no fsync per batch; the final checkpoint makes it durable.
    db.pragma('synchronous = OFF');
    db.pragma('foreign_keys = ON');
    db.pragma('cache_size = -262144');
    const indexes = db
      .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'actual_expenses' AND sql IS NOT NULL")
      .all() as { name: string; sql: string }[];
    const dropIndexes = rows >= 100_000;
    if (dropIndexes) for (const index of indexes) db.exec(`DROP INDEX "${index.name}"`);
    const insert = db.prepare(`INSERT INTO actual_expenses (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`);
    const load = db.transaction((count: number) => {
      for (let i = 0; i < count; i++) insert.run(next());
    });
    const started = performance.now();
    for (let done = 0; done < rows; ) {
      const count = Math.min(batch, rows - done);
      load(count);
      done += count;
      if (done % (batch * 4) === 0 || done === rows) log(loadProgress(done, started));
    }
    if (dropIndexes) {
      const t = performance.now();
      for (const index of indexes) db.exec(index.sql);
      log(`  re-created ${indexes.length} indexes in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    }
    const problems = db.prepare('SELECT count(*) AS n FROM pragma_foreign_key_check(?)').get('actual_expenses') as { n: number };
    if (problems.n) throw new Error(`${problems.n} rows violate foreign keys`);
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

async function insertPostgres(url: string, rows: number, next: () => Row, batch: number, log: (s: string) => void): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows: indexes } = await client.query<{ indexname: string; indexdef: string }>(
      `SELECT i.indexname, i.indexdef FROM pg_indexes i
        WHERE i.schemaname = current_schema() AND i.tablename = 'actual_expenses'
          AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
    );
    const dropIndexes = rows >= 100_000;
    // The app's per-row triggers (row_counts, migration 0003) cut a bulk load on PostgreSQL
    // to about a third (13k vs 35k rows/s here): off during the load, and the table's counts
    // recomputed in the same transaction. Only when row_counts has the known shape; otherwise
    // the triggers stay on. (On SQLite they cost ~30% and stay on.)
    const { rows: triggers } = await client.query(`SELECT tgname FROM pg_trigger WHERE tgrelid = 'actual_expenses'::regclass AND NOT tgisinternal`);
    const { rows: countColumns } = await client.query(
      `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'row_counts'`,
    );
    const names = new Set(countColumns.map((c: { column_name: string }) => c.column_name));
    const recount = triggers.length > 0 && ['table_name', 'company_id', 'row_count'].every((c) => names.has(c));
    await client.query('BEGIN');
    if (recount) await client.query('ALTER TABLE actual_expenses DISABLE TRIGGER USER');
    if (dropIndexes) for (const index of indexes) await client.query(`DROP INDEX "${index.indexname}"`);
    const types = ['int', 'int', 'int', 'bigint', 'date', 'text', 'text', 'text', 'int', 'timestamptz', 'timestamptz'];
    const text = `INSERT INTO actual_expenses (${COLUMNS.join(', ')})
      SELECT * FROM unnest(${types.map((t, i) => `$${i + 1}::${t}[]`).join(', ')})`;
    const started = performance.now();
    for (let done = 0; done < rows; ) {
      const count = Math.min(batch, rows - done);
      const columns: unknown[][] = COLUMNS.map(() => new Array(count));
      for (let i = 0; i < count; i++) {
        const row = next();
        for (let c = 0; c < row.length; c++) columns[c][i] = row[c];
      }
      await client.query(text, columns);
      done += count;
      if (done % (batch * 4) === 0 || done === rows) log(loadProgress(done, started));
    }
    if (dropIndexes) {
      const t = performance.now();
      for (const index of indexes) await client.query(index.indexdef);
      log(`  re-created ${indexes.length} indexes in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    }
    if (recount) {
      await client.query('ALTER TABLE actual_expenses ENABLE TRIGGER USER');
      await client.query(`DELETE FROM row_counts WHERE table_name = 'actual_expenses'`);
      await client.query(`INSERT INTO row_counts (table_name, company_id, row_count)
        SELECT 'actual_expenses', company_id, count(*) FROM actual_expenses GROUP BY company_id`);
      log(`  row_counts recomputed (${triggers.map((t: { tgname: string }) => t.tgname).join(', ')} were off during the load)`);
    }
    await client.query('COMMIT');
    // Autovacuum would do this shortly after a load of this size anyway.
    await client.query('ANALYZE actual_expenses');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}

export async function seedExpenses(options: SeedOptions): Promise<SeedResult> {
  const log = options.log ?? ((line: string) => console.log(line));
  const url = isPostgresUrl(options.databaseUrl) ? options.databaseUrl : undefined;
  const handle = createDatabase({ url, dataDir: options.dataDir });
  let before: number;
  let templates: Template[];
  let createdBy: number | null;
  try {
    const prepared = await prepareDatabase(handle, {
      seedDemo: false,
      owner: { email: BENCH_OWNER_EMAIL, password: BENCH_OWNER_PASSWORD },
    });
    if (prepared.seeded.length) log('[seed] empty database: reference data seeded (no demo figures)');
    if (prepared.owner.created) log(`[seed] owner ${prepared.owner.email} created`);
    const counted = await handle.db.selectFrom('actualExpenses').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    before = Number(counted.n);
    templates = await loadTemplates(handle);
    createdBy = await ownerId(handle);
  } finally {
    await handle.close();
  }

  const result = (inserted: number, seconds: number): SeedResult => ({
    dialect: url ? 'postgres' : 'sqlite',
    location: handle.location,
    before,
    inserted,
    total: before + inserted,
    seconds,
    rowsPerSecond: seconds > 0 ? Math.round(inserted / seconds) : 0,
  });
  if (before >= options.rows) {
    log(`[seed] ${handle.location} already has ${before.toLocaleString('en-US')} actual expenses (≥ ${options.rows.toLocaleString('en-US')}): nothing to do`);
    return result(0, 0);
  }

  const missing = options.rows - before;
  log(`[seed] inserting ${missing.toLocaleString('en-US')} actual expenses into ${handle.location} (${templates.length} row templates)`);
  const next = rowGenerator(templates, createdBy, 20261122 + before);
  const started = performance.now();
  if (url) await insertPostgres(url, missing, next, options.batch ?? 10_000, log);
  else insertSqlite(path.join(options.dataDir, 'finhub.db'), missing, next, options.batch ?? 50_000, log);
  const seconds = (performance.now() - started) / 1000;
  const done = result(missing, seconds);
  log(`[seed] ${missing.toLocaleString('en-US')} rows in ${seconds.toFixed(1)} s: ${done.rowsPerSecond.toLocaleString('en-US')} rows/s (indexes included); table now ${done.total.toLocaleString('en-US')} rows`);
  return done;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const argv = process.argv.slice(2);
  seedExpenses({
    dataDir: path.resolve(argValue(argv, 'data-dir') ?? process.env.DATA_DIR ?? DEFAULT_DATA_DIR),
    databaseUrl: argValue(argv, 'database-url') ?? process.env.DATABASE_URL,
    rows: numberArg(argv, 'rows', DEFAULT_ROWS),
    batch: argValue(argv, 'batch') ? numberArg(argv, 'batch', 50_000) : undefined,
  }).catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
