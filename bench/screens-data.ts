// The screens bench's data: a database as a user would have it after `finhub db seed --demo`
// (the app's start-up steps with the demo figures, plus the bench owner) and then
// `finhub db generate --rows N` (db/generate.ts: N actual expenses and everything that comes
// with them). Made once per database and size and kept: SQLite in /tmp/finhub-screens-sqlite-1m,
// PostgreSQL in a database finhub_screens_1m (its secrets in /tmp/finhub-screens-pg-1m). A
// marker file records a finished load; a directory or database without it is made again.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { createDatabase } from '../db/client.ts';
import { generateData, type GenerateResult } from '../db/generate.ts';
import { prepareDatabase } from '../app/features/system/bootstrap.server.ts';
import { BENCH_OWNER_EMAIL, BENCH_OWNER_PASSWORD, loadProgress } from './constants.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface BenchDatabase {
  dialect: Dialect;
  rows: number;
  /** DATA_DIR of the server (SQLite's file, generated secrets, the marker). */
  dataDir: string;
  /** PostgreSQL only: the database's URL. */
  databaseUrl?: string;
}

export interface DataReport {
  /** The marker: what was loaded and how long it took. */
  format: number;
  rows: number;
  preparedAt: string;
  seedSeconds: number;
  generate: GenerateResult | null;
  /** Rows per table after the load. */
  tables: Record<string, number>;
}

const MARKER = 'screens-data.json';
/** Raised when what `finhub db generate` makes changes: older directories are made again. */
const FORMAT = 2;

/** 1000000 → '1m', 250000 → '250k'. */
export function sizeLabel(rows: number): string {
  if (rows >= 1_000_000 && rows % 1_000_000 === 0) return `${rows / 1_000_000}m`;
  if (rows >= 1_000 && rows % 1_000 === 0) return `${rows / 1_000}k`;
  return String(rows);
}

/** Where a database of this dialect and size lives (`adminUrl`: any database of the PostgreSQL server). */
export function benchDatabase(dialect: Dialect, rows: number, adminUrl: string, base = os.tmpdir()): BenchDatabase {
  const label = sizeLabel(rows);
  if (dialect === 'sqlite') return { dialect, rows, dataDir: path.join(base, `finhub-screens-sqlite-${label}`) };
  const url = new URL(adminUrl);
  url.pathname = `/finhub_screens_${label}`;
  return { dialect, rows, dataDir: path.join(base, `finhub-screens-pg-${label}`), databaseUrl: url.toString() };
}

export function readMarker(target: BenchDatabase): DataReport | null {
  const file = path.join(target.dataDir, MARKER);
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as DataReport) : null;
}

const COUNTED = [
  'actual_expenses',
  'budgets',
  'revenue_projections',
  'actual_revenue',
  'audit_logs',
  'data_versions',
  'notifications',
  'users',
];

/** Makes the database unless its marker says it is there; returns the marker. */
export async function prepareBenchData(
  target: BenchDatabase,
  adminUrl: string,
  log: (line: string) => void,
): Promise<DataReport> {
  const existing = readMarker(target);
  if (existing && existing.rows === target.rows && existing.format === FORMAT) {
    log(
      `[data] ${target.databaseUrl ? new URL(target.databaseUrl).pathname.slice(1) : target.dataDir}: ready (${Object.entries(
        existing.tables,
      )
        .map(([t, n]) => `${t} ${n.toLocaleString('en-US')}`)
        .join(', ')})`,
    );
    return existing;
  }
  if (!path.basename(target.dataDir).startsWith('finhub-screens-'))
    throw new Error(`refusing to remake ${target.dataDir}: not a bench directory`);
  // Private like the app's own files (the server warns about anything else under DATA_DIR).
  process.umask(0o077);
  fs.rmSync(target.dataDir, { recursive: true, force: true });
  fs.mkdirSync(target.dataDir, { recursive: true, mode: 0o700 });
  if (target.databaseUrl) {
    const name = new URL(target.databaseUrl).pathname.slice(1);
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.query(`CREATE DATABASE "${name}"`);
    } finally {
      await admin.end();
    }
  }
  const handle = createDatabase({ url: target.databaseUrl, dataDir: target.dataDir });
  try {
    const started = performance.now();
    await prepareDatabase(handle, {
      seedDemo: true,
      owner: { email: BENCH_OWNER_EMAIL, password: BENCH_OWNER_PASSWORD },
    });
    const seedSeconds = (performance.now() - started) / 1000;
    log(
      `[data] demo data seeded in ${seedSeconds.toFixed(1)} s; generating ${target.rows.toLocaleString('en-US')} rows (finhub db generate)`,
    );
    // Each table's rate from its own first batch on.
    const tableStarted = new Map<string, number>();
    const generate =
      target.rows > 0
        ? await generateData(handle, {
            rows: target.rows,
            url: target.databaseUrl,
            log: (line) => log(`  ${line}`),
            onProgress: ({ table, done, total }) => {
              if (!tableStarted.has(table)) tableStarted.set(table, performance.now());
              if (done === total || done % 200_000 === 0)
                log(
                  `  ${table}: ${loadProgress(done, tableStarted.get(table)!).trim()} of ${total.toLocaleString('en-US')}`,
                );
            },
          })
        : null;
    if (generate)
      log(
        `[data] generated in ${generate.seconds.toFixed(1)} s (${generate.rowsPerSecond.toLocaleString('en-US')} rows/s)`,
      );
    const tables: Record<string, number> = {};
    for (const table of COUNTED) {
      const { rows } = await sql.raw<{ n: number | string }>(`select count(*) as n from ${table}`).execute(handle.db);
      tables[table] = Number(rows[0].n);
    }
    const report: DataReport = {
      format: FORMAT,
      rows: target.rows,
      preparedAt: new Date().toISOString(),
      seedSeconds,
      generate,
      tables,
    };
    fs.writeFileSync(path.join(target.dataDir, MARKER), JSON.stringify(report, null, 2));
    return report;
  } finally {
    await handle.close();
  }
}
