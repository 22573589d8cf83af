// Large, realistic data sets for benchmarks: `finhub db generate --rows N` and bench/ share this.
//
// Adds N actual-expense rows plus proportional planning rows (one budget per 10 expenses, one
// revenue projection per 20, one actual-revenue entry per 10). Values come from the demo seed's
// generator (buildDemoRows: every company's categories with their vendors and descriptions,
// revenue sources and customer references) with amounts and days varied over the 36 months
// ending today. Deterministic for a given seed and table size.
//
// Speed: the rows do not go through Kysely. SQLite: better-sqlite3 on the same file, 100-row
// INSERT statements in transactions of 50,000 rows, `synchronous=OFF` and foreign keys off
// during the load (`foreign_key_check` afterwards), the table's secondary indexes and
// triggers (row counts, month totals and plans: migrations 0003, 0022) dropped and re-created
// with their own SQL, row_counts and the month aggregates recomputed. Actual expenses come in
// date order (as they would be entered), which makes the index re-creation about twice as fast.
// PostgreSQL: `INSERT … SELECT FROM unnest($1::int[], …)` in batches, indexes dropped and
// re-created, user triggers off and row_counts and the month aggregates recomputed in the same
// transaction, then VACUUM (ANALYZE) of every table the load touched: the planner's statistics,
// and a visibility map that lets counts and covering indexes skip the table's pages.
// Then the people and history around the book (db/generate-activity.ts): users, the audit
// trail of their work with data versions, and notifications.
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { DatabaseHandle } from './client.ts';
import { AGGREGATE_TABLES, aggregateRebuildStatements } from './aggregates.ts';
import { dayRecountStatements } from './day-counts.ts';
import { bookMarks, generateActivity, type ActivityTable } from './generate-activity.ts';
import { ftsTable, postgresRebuildStatements, SEARCH_INDEXES, sqliteRebuildStatement } from './search-index.ts';
import { buildDemoRows, loadDemoReference, MONTH_NAMES, mulberry32 } from './seed/demo.ts';

export type GeneratedTable = 'actual_expenses' | 'budgets' | 'revenue_projections' | 'actual_revenue';

/** Planning rows per actual-expense row. */
export const RELATED_RATIOS: Record<Exclude<GeneratedTable, 'actual_expenses'>, number> = {
  budgets: 1 / 10,
  revenue_projections: 1 / 20,
  actual_revenue: 1 / 10,
};

export interface GenerateOptions {
  /** Actual-expense rows to add. */
  rows: number;
  /** Also add the proportional budgets and revenue rows (default true). */
  related?: boolean;
  /** PRNG seed (default: derived from the table's current size, so repeated runs differ). */
  seed?: number;
  /** Rows per transaction (SQLite) or statement (PostgreSQL). */
  batch?: number;
  /** PostgreSQL connection URL (when the handle is PostgreSQL). */
  url?: string;
  onProgress?: (progress: { table: GeneratedTable | ActivityTable; done: number; total: number }) => void;
  log?: (line: string) => void;
}

export interface GenerateResult {
  dialect: 'sqlite' | 'postgres';
  location: string;
  inserted: Record<GeneratedTable | ActivityTable, number>;
  /** All tables, indexes and counts included. */
  seconds: number;
  /** Rows (all tables) per second of the whole run, index re-creation included. */
  rowsPerSecond: number;
}

type Cell = number | string | null;
/** SQLite: rows per multi-row INSERT (× ≤ 12 columns, far below the 32,766 parameter limit). */
const ROWS_PER_STATEMENT = 100;
type Rng = () => number;

interface TableSpec {
  table: GeneratedTable;
  columns: string[];
  /** PostgreSQL array types for unnest, one per column. */
  types: string[];
  next: () => Cell[];
}

const pad = (n: number) => String(n).padStart(2, '0');
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The 36-month window ending today (UTC), in whole days. */
function window36(now = new Date()) {
  const end = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 35, 1);
  return { start, end, days: Math.round((end - start) / 86_400_000) + 1, today: isoDay(end) };
}

/** A whole month (first and last day) chosen uniformly within the window. */
function monthAt(rng: Rng, start: number) {
  const base = new Date(start);
  const offset = Math.floor(rng() * 36);
  const y = base.getUTCFullYear();
  const m = base.getUTCMonth() + offset;
  const first = Date.UTC(y, m, 1);
  const last = Date.UTC(y, m + 1, 0);
  const d = new Date(first);
  return {
    first: isoDay(first),
    last: isoDay(last),
    firstMs: first,
    label: `${MONTH_NAMES[d.getUTCMonth()]} ${d.getUTCFullYear()}`,
  };
}

/**
 * Generated plans are approved ones: active, the past ones too, since a plan stays in force for
 * its months ('expired' means withdrawn or superseded, not over: docs/plans.md).
 */
const PLAN_STATUS = 'active';
/** Entered some hours to a few days after the day it is about. */
const createdAfter = (rng: Rng, ms: number) =>
  new Date(ms + Math.floor((8 + rng() * 72) * 3_600_000) + Math.floor(rng() * 3_600_000)).toISOString();
/** Log-normal spread around 1 (many small, a few large). */
const spread = (rng: Rng, sigma: number) => Math.exp((rng() + rng() + rng() - 1.5) * sigma);

interface Templates {
  expenses: {
    companyId: number;
    departmentId: number;
    categoryId: number;
    amountCents: number;
    description: string;
    vendor: string | null;
  }[];
  budgets: { companyId: number; departmentId: number; categoryId: number; amountCents: number; description: string }[];
  revenue: { companyId: number; source: string; amountCents: number; entries: string[]; customers: string[] }[];
  createdBy: number | null;
}

/**
 * Row templates: the demo generator's rows (every company's categories that have a department,
 * every revenue source), plus categories without a department (Miscellaneous) booked to any
 * department.
 */
async function loadTemplates(handle: DatabaseHandle): Promise<Templates> {
  const reference = await loadDemoReference(handle.db);
  if (reference.categories.length === 0)
    throw new Error('No expense categories: seed the database first (finhub db seed)');
  const demo = buildDemoRows(reference, new Date());
  const stripMonth = (text: string) => text.replace(/,? (for )?[A-Z][a-z]+ \d{4}$/, '');
  const expenses: Templates['expenses'] = demo.actualExpenses.map((r) => ({
    companyId: r.companyId,
    departmentId: r.departmentId,
    categoryId: r.categoryId,
    amountCents: Number(r.amountCents),
    description: stripMonth(r.description),
    vendor: r.vendor ?? null,
  }));
  const departments = await handle.db.selectFrom('departments').select('id').orderBy('id').execute();
  const covered = new Set(expenses.map((t) => t.categoryId));
  let d = 0;
  for (const category of reference.categories) {
    if (covered.has(category.id)) continue;
    for (const description of ['Sundry expenses', 'Petty cash reimbursement', 'Bank charges', 'Courier and postage']) {
      for (const vendor of ['General supplier', 'Local merchant', null]) {
        expenses.push({
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
  // One monthly budget per planned category (its latest plan; a quarter's or a year's amount by its months).
  const monthsOf = (b: { startDate: string; endDate: string }) =>
    (Number(b.endDate.slice(0, 4)) - Number(b.startDate.slice(0, 4))) * 12 +
    Number(b.endDate.slice(5, 7)) -
    Number(b.startDate.slice(5, 7)) +
    1;
  const latestPlans = new Map(demo.budgets.map((b) => [b.categoryId, b]));
  const budgets = [...latestPlans.values()].map((b) => ({
    companyId: b.companyId,
    departmentId: b.departmentId,
    categoryId: b.categoryId,
    amountCents: Math.round(Number(b.amountCents) / monthsOf(b)),
    description: (b.description ?? '').replace(/ (annual )?budget\b.*$/, ' budget'),
  }));
  const bySource = new Map<string, Templates['revenue'][number]>();
  for (const p of demo.revenueProjections) {
    const key = `${p.companyId}:${p.source}`;
    if (!bySource.has(key))
      bySource.set(key, {
        companyId: p.companyId,
        source: p.source,
        amountCents: Number(p.amountCents),
        entries: [],
        customers: [],
      });
  }
  for (const r of demo.actualRevenue) {
    const t = bySource.get(`${r.companyId}:${r.source}`);
    if (!t) continue;
    if (r.description && t.entries.length < 8) {
      const entry = stripMonth(r.description);
      if (!t.entries.includes(entry)) t.entries.push(entry);
    }
    if (r.customerReference && !t.customers.includes(r.customerReference)) t.customers.push(r.customerReference);
  }
  const owner = await handle.db
    .selectFrom('users')
    .select('id')
    .where('role', '=', 'owner')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return {
    expenses,
    budgets: budgets.length ? budgets : [],
    revenue: [...bySource.values()],
    createdBy: owner?.id ?? null,
  };
}

function expenseSpec(t: Templates, seed: number, rows: number): TableSpec {
  const rng = mulberry32(seed);
  const { start, days } = window36();
  let receipt = 100_000 + (seed % 100_000);
  // Rows come in date order (as they would be entered), spread evenly over the window: the
  // date-led indexes then grow at their end instead of being rebuilt after the load.
  let n = 0;
  return {
    table: 'actual_expenses',
    columns: [
      'company_id',
      'department_id',
      'category_id',
      'amount_cents',
      'expense_date',
      'description',
      'vendor',
      'receipt_number',
      'created_by',
      'created_at',
      'updated_at',
    ],
    types: ['int', 'int', 'int', 'bigint', 'date', 'text', 'text', 'text', 'int', 'timestamptz', 'timestamptz'],
    next() {
      const e = t.expenses[Math.floor(rng() * t.expenses.length)];
      const ms = start + Math.min(days - 1, Math.floor((n++ * days) / rows)) * 86_400_000;
      const date = new Date(ms);
      const y = date.getUTCFullYear();
      const m = date.getUTCMonth() + 1;
      // The demo amounts are a category's monthly total; single entries are a share of it, ≥ $5.
      const amountCents = Math.max(500, Math.round((e.amountCents / 40) * spread(rng, 1.6)));
      receipt += 1 + Math.floor(rng() * 3);
      const receiptNumber =
        rng() < 0.15 ? null : `${e.vendor ? 'INV' : 'RCT'}-${String(y).slice(2)}${pad(m)}-${receipt}`;
      const created = createdAfter(rng, ms);
      return [
        e.companyId,
        e.departmentId,
        e.categoryId,
        amountCents,
        isoDay(ms),
        `${e.description}, ${MONTH_NAMES[m - 1]} ${y}`,
        e.vendor,
        receiptNumber,
        t.createdBy,
        created,
        created,
      ];
    },
  };
}

function budgetSpec(t: Templates, seed: number): TableSpec {
  const rng = mulberry32(seed ^ 0x5bd1e995);
  const { start } = window36();
  return {
    table: 'budgets',
    columns: [
      'company_id',
      'department_id',
      'category_id',
      'amount_cents',
      'period',
      'start_date',
      'end_date',
      'description',
      'status',
      'created_by',
      'created_at',
      'updated_at',
    ],
    types: ['int', 'int', 'int', 'bigint', 'text', 'date', 'date', 'text', 'text', 'int', 'timestamptz', 'timestamptz'],
    next() {
      const b = t.budgets[Math.floor(rng() * t.budgets.length)];
      const month = monthAt(rng, start);
      const amountCents = Math.max(10_000, Math.round((b.amountCents * spread(rng, 0.3)) / 10_000) * 10_000);
      const created = createdAfter(rng, month.firstMs - 20 * 86_400_000);
      return [
        b.companyId,
        b.departmentId,
        b.categoryId,
        amountCents,
        'monthly',
        month.first,
        month.last,
        `${b.description} for ${month.label}`,
        PLAN_STATUS,
        t.createdBy,
        created,
        created,
      ];
    },
  };
}

function projectionSpec(t: Templates, seed: number): TableSpec {
  const rng = mulberry32(seed ^ 0x27d4eb2f);
  const { start } = window36();
  return {
    table: 'revenue_projections',
    columns: [
      'company_id',
      'source',
      'amount_cents',
      'period',
      'start_date',
      'end_date',
      'description',
      'status',
      'created_by',
      'created_at',
      'updated_at',
    ],
    types: ['int', 'text', 'bigint', 'text', 'date', 'date', 'text', 'text', 'int', 'timestamptz', 'timestamptz'],
    next() {
      const r = t.revenue[Math.floor(rng() * t.revenue.length)];
      const month = monthAt(rng, start);
      const amountCents = Math.max(100_000, Math.round((r.amountCents * spread(rng, 0.2)) / 100_000) * 100_000);
      const created = createdAfter(rng, month.firstMs - 30 * 86_400_000);
      return [
        r.companyId,
        r.source,
        amountCents,
        'monthly',
        month.first,
        month.last,
        `${r.source} projection for ${month.label}`,
        PLAN_STATUS,
        t.createdBy,
        created,
        created,
      ];
    },
  };
}

function revenueSpec(t: Templates, seed: number): TableSpec {
  const rng = mulberry32(seed ^ 0x165667b1);
  const { start, days } = window36();
  return {
    table: 'actual_revenue',
    columns: [
      'company_id',
      'source',
      'amount_cents',
      'revenue_date',
      'description',
      'customer_reference',
      'created_by',
      'created_at',
      'updated_at',
    ],
    types: ['int', 'text', 'bigint', 'date', 'text', 'text', 'int', 'timestamptz', 'timestamptz'],
    next() {
      const r = t.revenue[Math.floor(rng() * t.revenue.length)];
      const ms = start + Math.floor(rng() * days) * 86_400_000;
      const date = new Date(ms);
      const amountCents = Math.max(1_000, Math.round((r.amountCents / 30) * spread(rng, 1.2)));
      const entry = r.entries.length ? r.entries[Math.floor(rng() * r.entries.length)] : r.source;
      const description = rng() < 0.08 ? null : `${entry}, ${MONTH_NAMES[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
      const customer = r.customers.length && rng() >= 0.15 ? r.customers[Math.floor(rng() * r.customers.length)] : null;
      const created = createdAfter(rng, ms);
      return [r.companyId, r.source, amountCents, isoDay(ms), description, customer, t.createdBy, created, created];
    },
  };
}

type Plan = { spec: TableSpec; rows: number }[];

function insertSqlite(file: string, plan: Plan, batch: number, options: GenerateOptions): void {
  const db = new SQLite(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 5000');
    // A bulk load of generated data: no fsync per batch; the final checkpoint makes it durable.
    db.pragma('synchronous = OFF');
    // References are checked once after the load (foreign_key_check), not row by row.
    db.pragma('foreign_keys = OFF');
    db.pragma('cache_size = -262144');
    const hasRowCounts = !!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'row_counts'").get();
    const hasAggregates = !!db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'expense_month_totals'")
      .get();
    for (const { spec, rows } of plan) {
      if (rows <= 0) continue;
      const schema = db
        .prepare(
          "SELECT type, name, sql FROM sqlite_master WHERE type IN ('index', 'trigger') AND tbl_name = ? AND sql IS NOT NULL",
        )
        .all(spec.table) as { type: 'index' | 'trigger'; name: string; sql: string }[];
      // Re-creating indexes costs in proportion to the whole table: worth it for a large load
      // relative to what is there already, not for a small top-up of a big table.
      const existing = (db.prepare(`SELECT count(*) AS n FROM ${spec.table}`).get() as { n: number }).n;
      const bulk = rows >= 50_000 && rows >= existing / 2;
      const indexes = bulk ? schema.filter((s) => s.type === 'index') : [];
      // The row-count triggers cost a sizeable share of a load; off when row_counts is recomputed after it.
      const triggers = bulk && hasRowCounts ? schema.filter((s) => s.type === 'trigger') : [];
      for (const s of [...indexes, ...triggers]) db.exec(`DROP ${s.type.toUpperCase()} "${s.name}"`);
      try {
        // Many rows per statement: better-sqlite3's per-call cost dominates single-row inserts.
        const tuple = `(${spec.columns.map(() => '?').join(', ')})`;
        const text = (n: number) =>
          `INSERT INTO ${spec.table} (${spec.columns.join(', ')}) VALUES ${Array(n).fill(tuple).join(', ')}`;
        const insertMany = db.prepare(text(ROWS_PER_STATEMENT));
        const insertOne = db.prepare(text(1));
        const load = db.transaction((count: number) => {
          let i = 0;
          const params: Cell[] = [];
          for (; i + ROWS_PER_STATEMENT <= count; i += ROWS_PER_STATEMENT) {
            params.length = 0;
            for (let r = 0; r < ROWS_PER_STATEMENT; r++) params.push(...spec.next());
            insertMany.run(params);
          }
          for (; i < count; i++) insertOne.run(spec.next());
        });
        for (let done = 0; done < rows;) {
          const count = Math.min(batch, rows - done);
          load(count);
          done += count;
          options.onProgress?.({ table: spec.table, done, total: rows });
        }
      } finally {
        const t = performance.now();
        for (const s of [...indexes, ...triggers]) db.exec(s.sql);
        options.log?.(
          `${spec.table}: ${indexes.length} indexes and ${triggers.length} triggers re-created in ${((performance.now() - t) / 1000).toFixed(2)} s`,
        );
        if (triggers.length) {
          // The search index's triggers were off too: read it again from the rows.
          const rebuild = sqliteRebuildStatement(spec.table);
          if (rebuild) db.exec(rebuild);
          db.transaction(() => {
            db.prepare('DELETE FROM row_counts WHERE table_name = ?').run(spec.table);
            db.prepare(
              `INSERT INTO row_counts (table_name, company_id, row_count) SELECT ?, company_id, count(*) FROM ${spec.table} GROUP BY company_id`,
            ).run(spec.table);
            // So were its month totals' or plans' (migration 0022).
            if (hasAggregates)
              for (const statement of aggregateRebuildStatements(spec.table, 'sqlite')) db.exec(statement);
          })();
        }
      }
      const problems = db.prepare('SELECT count(*) AS n FROM pragma_foreign_key_check(?)').get(spec.table) as {
        n: number;
      };
      if (problems.n) throw new Error(`${problems.n} generated ${spec.table} rows violate foreign keys`);
    }
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

async function insertPostgres(url: string, plan: Plan, batch: number, options: GenerateOptions): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows: countColumns } = await client.query(
      `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'row_counts'`,
    );
    const names = new Set(countColumns.map((c: { column_name: string }) => c.column_name));
    const canRecount = ['table_name', 'company_id', 'row_count'].every((c) => names.has(c));
    // The pg_trgm extension's schema, quoted (search tables, migration 0015).
    const { rows: trigramRows } = await client.query<{ schema: string }>(
      `SELECT quote_ident(n.nspname) AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'`,
    );
    const trigrams = trigramRows[0]?.schema;
    const hasTable = async (name: string) =>
      (await client.query(`SELECT to_regclass($1) IS NOT NULL AS present`, [name])).rows[0].present === true;
    const hasChangeTokens = await hasTable('change_tokens');
    const hasDayCounts = await hasTable('day_counts');
    const hasAggregates = await hasTable('expense_month_totals');
    await client.query('BEGIN');
    for (const { spec, rows } of plan) {
      if (rows <= 0) continue;
      const bulk = rows >= 50_000;
      const { rows: indexes } = await client.query<{ indexname: string; indexdef: string }>(
        `SELECT i.indexname, i.indexdef FROM pg_indexes i
          WHERE i.schemaname = current_schema() AND i.tablename = $1
            AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
        [spec.table],
      );
      const { rows: triggers } = await client.query(
        `SELECT tgname FROM pg_trigger WHERE tgrelid = $1::regclass AND NOT tgisinternal`,
        [spec.table],
      );
      const recount = bulk && canRecount && triggers.length > 0;
      if (recount) await client.query(`ALTER TABLE ${spec.table} DISABLE TRIGGER USER`);
      if (bulk) for (const index of indexes) await client.query(`DROP INDEX "${index.indexname}"`);
      const text = `INSERT INTO ${spec.table} (${spec.columns.join(', ')}) SELECT * FROM unnest(${spec.types.map((t, i) => `$${i + 1}::${t}[]`).join(', ')})`;
      for (let done = 0; done < rows;) {
        const count = Math.min(batch, rows - done);
        const columns: Cell[][] = spec.columns.map(() => new Array(count));
        for (let i = 0; i < count; i++) {
          const row = spec.next();
          for (let c = 0; c < row.length; c++) columns[c][i] = row[c];
        }
        await client.query(text, columns);
        done += count;
        options.onProgress?.({ table: spec.table, done, total: rows });
      }
      if (bulk) for (const index of indexes) await client.query(index.indexdef);
      if (recount) {
        await client.query(`ALTER TABLE ${spec.table} ENABLE TRIGGER USER`);
        // The change token's trigger was off too (migration 0014): the rows changed.
        if (hasChangeTokens)
          await client.query(`UPDATE change_tokens SET token = gen_random_uuid() WHERE table_name = $1`, [spec.table]);
        // So were its day counts' (migration 0017).
        if (hasDayCounts) for (const statement of dayRecountStatements(spec.table)) await client.query(statement);
        // And its month totals' or plans' (migration 0022).
        if (hasAggregates)
          for (const statement of aggregateRebuildStatements(spec.table, 'postgres')) await client.query(statement);
        await client.query(`DELETE FROM row_counts WHERE table_name = $1`, [spec.table]);
        await client.query(
          `INSERT INTO row_counts (table_name, company_id, row_count) SELECT $1, company_id, count(*) FROM ${spec.table} GROUP BY company_id`,
          [spec.table],
        );
        // So was the search table's (migration 0015): read it again from the rows.
        const index = SEARCH_INDEXES[spec.table];
        if (index && trigrams && (await hasTable(ftsTable(index))))
          for (const statement of postgresRebuildStatements(index, trigrams)) await client.query(statement);
      }
    }
    await client.query('COMMIT');
    const loaded = plan.filter(({ rows }) => rows > 0).map(({ spec }) => spec.table);
    if (loaded.length) {
      const extra = hasAggregates ? AGGREGATE_TABLES : [];
      for (const table of [...loaded, ...extra, 'row_counts']) await client.query(`VACUUM (ANALYZE) ${table}`);
    }
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}

/**
 * Adds generated rows to a migrated and seeded database. The handle is used for reading the
 * reference data only; the rows go through a separate connection (see the top of the file).
 */
export async function generateData(handle: DatabaseHandle, options: GenerateOptions): Promise<GenerateResult> {
  if (!Number.isSafeInteger(options.rows) || options.rows < 0) throw new Error('rows must be a whole number ≥ 0');
  if (handle.dialect === 'postgres' && !options.url)
    throw new Error('generateData on PostgreSQL needs the connection URL');
  const templates = await loadTemplates(handle);
  const before = Number(
    (
      await handle.db
        .selectFrom('actualExpenses')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  const seed = options.seed ?? 20261122 + before;
  const related = options.related !== false;
  const plan: Plan = [{ spec: expenseSpec(templates, seed, options.rows), rows: options.rows }];
  if (related) {
    if (templates.budgets.length)
      plan.push({ spec: budgetSpec(templates, seed), rows: Math.ceil(options.rows * RELATED_RATIOS.budgets) });
    if (templates.revenue.length) {
      plan.push({
        spec: projectionSpec(templates, seed),
        rows: Math.ceil(options.rows * RELATED_RATIOS.revenue_projections),
      });
      plan.push({ spec: revenueSpec(templates, seed), rows: Math.ceil(options.rows * RELATED_RATIOS.actual_revenue) });
    }
  }
  const started = performance.now();
  const marks = related ? await bookMarks(handle) : null;
  if (handle.dialect === 'postgres') await insertPostgres(options.url!, plan, options.batch ?? 10_000, options);
  else insertSqlite(handle.location, plan, options.batch ?? 50_000, options);
  const activity = marks
    ? await generateActivity(handle, {
        rows: options.rows,
        seed,
        marks,
        url: options.url,
        onProgress: options.onProgress,
        log: options.log,
      })
    : null;
  const seconds = (performance.now() - started) / 1000;
  const inserted = {
    actual_expenses: 0,
    budgets: 0,
    revenue_projections: 0,
    actual_revenue: 0,
    users: 0,
    audit_logs: 0,
    data_versions: 0,
    notifications: 0,
  } as Record<GeneratedTable | ActivityTable, number>;
  for (const { spec, rows } of plan) inserted[spec.table] = Math.max(0, rows);
  if (activity) Object.assign(inserted, activity);
  return {
    dialect: handle.dialect,
    location: handle.location,
    inserted,
    seconds,
    rowsPerSecond: seconds > 0 ? Math.round(Object.values(inserted).reduce((a, b) => a + b, 0) / seconds) : 0,
  };
}
