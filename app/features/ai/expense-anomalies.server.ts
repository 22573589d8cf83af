// The expense-anomalies job's work (docs/anomalies.md): the findings of the longest window (90
// days) for every company, computed from bounded reads and stored as a new generation that
// readers switch to when it is complete. Nothing is done while the books are unchanged.
// Each step is one small indexed query followed by a pause for the event loop, so in embedded
// mode (jobs inside the web process) requests keep being answered while it runs:
// - a category's usual amount: its most recent BASELINE_SIZE expenses (all departments), from the
//   (category, date, amount) index alone, whatever the size of its history;
// - the window two days at a time through the (company, date) index: unusual amounts against
//   those baselines, the same charge twice (same day, so a chunk holds both), the day's spending;
// - a first payment: an expense of at least the threshold that is the company's earliest payment
//   to its vendor, at any date, by one probe per vendor of the (company, normalised vendor,
//   date, id) index.
import { sql } from 'kysely';
import { dialectOf } from '../../../db/dialect.ts';
import type { Db } from '../../platform/context.ts';
import {
  baselineOf,
  DEFAULT_NEW_VENDOR_THRESHOLD_CENTS,
  duplicates,
  firstPayment,
  SEVERITY_RANK,
  unusualAmount,
  vendorKey,
  type AnomalyFinding,
  type Baseline,
  type ExpenseFact,
} from './stats/outliers.ts';
import { expensesToken } from '../finance/index.server.ts';
import { claimLease } from '../../platform/work-lease.server.ts';

/** The longest window a reader may ask for: what every run computes. */
export const ANOMALY_WINDOW_DAYS = 90;
/** A category's usual amount is taken from this many of its most recent expenses. */
export const BASELINE_SIZE = 1000;
/** Runs take at most this share of the time: the next waits 1/share − 1 times the last one's length. */
const DUTY_CYCLE = 0.1;
const CHUNK_DAYS = 2;
const INSERT_BATCH = 100;
const LEASE_KEY = 'expense-anomalies:all';

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const addDays = (day: string, days: number) => isoDay(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS);
/** The first day of a window of `days` days ending on `now`'s day (UTC). */
export const windowStart = (now: Date, days: number) =>
  isoDay(Date.parse(`${isoDay(now.getTime())}T00:00:00Z`) - (days - 1) * DAY_MS);

/** Lets the event loop answer requests between two steps of a run. */
const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

const dayOf = (db: Db) =>
  dialectOf(db) === 'postgres' ? sql<string>`to_char(e.expense_date, 'YYYY-MM-DD')` : sql<string>`e.expense_date`;
/** The vendor as the index has it (migration 0023): the probes must use the very same expression. */
const vendorKeyOf = (alias: string) => sql<string>`lower(trim(${sql.ref(`${alias}.vendor`)}))`;

export interface AnomalyRun {
  generation: number;
  booksToken: string;
  windowStart: string;
  startedAt: string;
  computedAt: string;
  findings: number;
}

/** The latest complete run: what readers see (null before the first one). */
export async function currentRun(db: Db): Promise<AnomalyRun | null> {
  const row = await db
    .selectFrom('expenseAnomalyRuns')
    .selectAll()
    .where('computedAt', 'is not', null)
    .orderBy('generation', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { ...row, computedAt: row.computedAt! } : null;
}

export interface RefreshOptions {
  /** The day the window ends on (default: now). */
  now?: Date;
  /** Run even when the books did not change, or the last run ended a moment ago. */
  force?: boolean;
  thresholdCents?: number;
}

export type RefreshResult =
  | { skipped: 'unchanged' | 'recent' | 'running' }
  | { skipped: null; generation: number; findings: number; companies: number; seconds: number };

/** Computes and stores the findings when the books changed since the current run (the job). */
export async function refreshExpenseAnomalies(db: Db, options: RefreshOptions = {}): Promise<RefreshResult> {
  const now = options.now ?? new Date();
  const start = windowStart(now, ANOMALY_WINDOW_DAYS);
  const token = await expensesToken(db);
  const current = await currentRun(db);
  if (!options.force && current) {
    if (current.booksToken === token && current.windowStart <= start) return { skipped: 'unchanged' };
    const ended = Date.parse(current.computedAt);
    const took = Math.max(0, ended - Date.parse(current.startedAt));
    if (Date.now() < ended + took * (1 / DUTY_CYCLE - 1)) return { skipped: 'recent' };
  }
  const lease = await claimLease(db, LEASE_KEY);
  if (!lease) return { skipped: 'running' };
  try {
    const began = Date.now();
    const last = await db
      .selectFrom('expenseAnomalyRuns')
      .select((eb) => eb.fn.max('generation').as('generation'))
      .executeTakeFirst();
    const generation = Number(last?.generation ?? 0) + 1;
    await db
      .insertInto('expenseAnomalyRuns')
      .values({
        generation,
        booksToken: token,
        windowStart: start,
        startedAt: new Date(began).toISOString(),
        computedAt: null,
      })
      .execute();
    const companies = await db.selectFrom('companies').select('id').orderBy('id').execute();
    let findings = 0;
    for (const { id } of companies) {
      findings += await storeCompany(
        db,
        generation,
        id,
        start,
        options.thresholdCents ?? DEFAULT_NEW_VENDOR_THRESHOLD_CENTS,
      );
    }
    await db
      .updateTable('expenseAnomalyRuns')
      .set({ computedAt: new Date().toISOString(), findings })
      .where('generation', '=', generation)
      .execute();
    // The previous generation stays until the next run: a reader that has just read its number still finds its rows.
    await dropGenerations(
      db,
      companies.map((c) => c.id),
      (g) => g !== generation && g !== current?.generation,
    );
    return { skipped: null, generation, findings, companies: companies.length, seconds: (Date.now() - began) / 1000 };
  } finally {
    await lease.release();
  }
}

interface DayFigures {
  departmentId: number;
  day: string;
  spentCents: number;
  findings: number;
  largestCents: number | null;
}

/** One company's findings and days of the window, stored under `generation`; returns how many findings. */
async function storeCompany(
  db: Db,
  generation: number,
  companyId: number,
  start: string,
  thresholdCents: number,
): Promise<number> {
  const baselines = await categoryBaselines(db, companyId);
  const firstOf = firstPayments(db, companyId);
  const found: AnomalyFinding[] = [];
  const days = new Map<string, DayFigures>();
  // From the window's first day to the company's last (future days included), skipping days without expenses.
  let from = await nextDayWithExpenses(db, companyId, start);
  while (from !== null) {
    const to = addDays(from, CHUNK_DAYS);
    const rows: ExpenseFact[] = (
      await db
        .selectFrom('actualExpenses as e')
        .select(['e.id', 'e.categoryId', 'e.departmentId', 'e.amountCents', dayOf(db).as('expenseDate'), 'e.vendor'])
        .where('e.companyId', '=', companyId)
        .where('e.expenseDate', '>=', from)
        .where('e.expenseDate', '<', to)
        .execute()
    ).map((r) => ({ ...r, amountCents: Number(r.amountCents) }));
    for (const e of rows) {
      const key = `${e.departmentId}|${e.expenseDate}`;
      const figures = days.get(key) ?? {
        departmentId: e.departmentId,
        day: e.expenseDate,
        spentCents: 0,
        findings: 0,
        largestCents: null,
      };
      figures.spentCents += e.amountCents;
      days.set(key, figures);
      const baseline = baselines.get(e.categoryId);
      const unusual = baseline ? unusualAmount(e, baseline) : null;
      if (unusual) found.push(unusual);
    }
    found.push(...duplicates(rows, thresholdCents));
    await pause();
    for (const e of rows) {
      if (e.amountCents < thresholdCents || !vendorKey(e.vendor)) continue;
      if ((await firstOf(e.vendor!)) === e.id) found.push(firstPayment(e, thresholdCents));
    }
    await pause();
    from = await nextDayWithExpenses(db, companyId, to);
  }
  for (const f of found) {
    const figures = days.get(`${f.departmentId}|${f.date}`)!;
    figures.findings += 1;
    figures.largestCents = Math.max(figures.largestCents ?? 0, f.amountCents);
  }
  for (let i = 0; i < found.length; i += INSERT_BATCH) {
    await db
      .insertInto('expenseAnomalies')
      .values(
        found.slice(i, i + INSERT_BATCH).map((f) => ({
          generation,
          expenseId: f.expenseId,
          anomalyType: f.anomalyType,
          companyId,
          departmentId: f.departmentId,
          categoryId: f.categoryId,
          severity: f.severity,
          severityRank: SEVERITY_RANK[f.severity],
          amountCents: f.amountCents,
          expectedCents: f.expectedCents,
          deviation: f.deviation,
          expenseDate: f.date,
          explanation: f.explanation,
          explanationText: JSON.stringify(f.explanationText),
        })),
      )
      .execute();
    await pause();
  }
  const dayRows = [...days.values()];
  for (let i = 0; i < dayRows.length; i += INSERT_BATCH) {
    await db
      .insertInto('expenseAnomalyDays')
      .values(dayRows.slice(i, i + INSERT_BATCH).map((d) => ({ generation, companyId, ...d })))
      .execute();
    await pause();
  }
  return found.length;
}

/** The company's first day with expenses on or after `day` (null: none), from the (company, date) index. */
async function nextDayWithExpenses(db: Db, companyId: number, day: string): Promise<string | null> {
  const row = await db
    .selectFrom('actualExpenses')
    .select((eb) => eb.fn.min('expenseDate').as('day'))
    .where('companyId', '=', companyId)
    .where('expenseDate', '>=', day)
    .executeTakeFirst();
  return row?.day ? String(row.day).slice(0, 10) : null;
}

/** Each category's usual amount from its most recent expenses (none for a category too small or too even to judge). */
async function categoryBaselines(db: Db, companyId: number): Promise<Map<number, Baseline>> {
  const categories = await db
    .selectFrom('expenseCategories')
    .select('id')
    .where('companyId', '=', companyId)
    .orderBy('id')
    .execute();
  const baselines = new Map<number, Baseline>();
  for (const { id } of categories) {
    const recent = await db
      .selectFrom('actualExpenses')
      .select('amountCents')
      .where('categoryId', '=', id)
      .orderBy('expenseDate', 'desc')
      .orderBy('amountCents', 'desc')
      .limit(BASELINE_SIZE)
      .execute();
    const baseline = baselineOf(recent.map((r) => Number(r.amountCents)));
    if (baseline) baselines.set(id, baseline);
    await pause();
  }
  return baselines;
}

/**
 * The company's first payment to a vendor (earliest day, then lowest id), by one probe of the
 * (company, normalised vendor, date, id) index, remembered for the run: each vendor is looked
 * up once, however many of its payments the window holds.
 */
function firstPayments(db: Db, companyId: number): (vendor: string) => Promise<number | null> {
  const known = new Map<string, Promise<number | null>>();
  return (vendor) => {
    let first = known.get(vendor);
    if (!first) {
      first = db
        .selectFrom('actualExpenses as p')
        .select('p.id')
        .where('p.companyId', '=', companyId)
        .where(vendorKeyOf('p'), '=', sql<string>`lower(trim(${vendor}))`)
        .orderBy('p.expenseDate')
        .orderBy('p.id')
        .limit(1)
        .executeTakeFirst()
        .then((row) => row?.id ?? null);
      known.set(vendor, first);
    }
    return first;
  };
}

/** Deletes the findings and days of the generations `drop` picks in small steps (company, severity), and their runs. */
async function dropGenerations(db: Db, companyIds: number[], drop: (generation: number) => boolean): Promise<void> {
  const runs = await db.selectFrom('expenseAnomalyRuns').select('generation').execute();
  for (const { generation } of runs.filter((r) => drop(r.generation))) {
    for (const companyId of companyIds) {
      for (const rank of Object.values(SEVERITY_RANK)) {
        await db
          .deleteFrom('expenseAnomalies')
          .where('generation', '=', generation)
          .where('companyId', '=', companyId)
          .where('severityRank', '=', rank)
          .execute();
        await pause();
      }
      await db
        .deleteFrom('expenseAnomalyDays')
        .where('generation', '=', generation)
        .where('companyId', '=', companyId)
        .execute();
      await pause();
    }
    // Rows of companies deleted since (none normally: their rows went with them).
    await db.deleteFrom('expenseAnomalies').where('generation', '=', generation).execute();
    await db.deleteFrom('expenseAnomalyDays').where('generation', '=', generation).execute();
    await db.deleteFrom('expenseAnomalyRuns').where('generation', '=', generation).execute();
  }
}
