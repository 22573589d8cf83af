// Bench data: N actual-expense rows (default 1,000,000) in a SQLite data directory, or in
// PostgreSQL when DATABASE_URL / --database-url is a postgres:// URL.
//
//   npx node bench/seed-expenses.ts [--data-dir /tmp/finhub-bench] [--rows 1000000] [--database-url postgres://…]
//
// First the app's own start-up steps (prepareDatabase: migrations, reference seed without demo
// figures, the owner account), then the rows from the shared generator (db/generate.ts, the
// one behind `finhub db generate`), actual expenses only. Re-runnable: a table that already
// has ≥ N rows is left alone, a smaller one is topped up to N.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createDatabase, isPostgresUrl } from '../db/client.ts';
import { generateData } from '../db/generate.ts';
import { prepareDatabase } from '../app/features/system/bootstrap.server.ts';
import {
  argValue,
  BENCH_OWNER_EMAIL,
  BENCH_OWNER_PASSWORD,
  DEFAULT_DATA_DIR,
  DEFAULT_ROWS,
  loadProgress,
  numberArg,
} from './constants.ts';

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

export async function seedExpenses(options: SeedOptions): Promise<SeedResult> {
  const log = options.log ?? ((line: string) => console.log(line));
  const url = isPostgresUrl(options.databaseUrl) ? options.databaseUrl : undefined;
  const handle = createDatabase({ url, dataDir: options.dataDir });
  try {
    const prepared = await prepareDatabase(handle, {
      seedDemo: false,
      owner: { email: BENCH_OWNER_EMAIL, password: BENCH_OWNER_PASSWORD },
    });
    if (prepared.seeded.length) log('[seed] empty database: reference data seeded (no demo figures)');
    if (prepared.owner.created) log(`[seed] owner ${prepared.owner.email} created`);
    const counted = await handle.db
      .selectFrom('actualExpenses')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const before = Number(counted.n);
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
      log(
        `[seed] ${handle.location} already has ${before.toLocaleString('en-US')} actual expenses (≥ ${options.rows.toLocaleString('en-US')}): nothing to do`,
      );
      return result(0, 0);
    }
    const missing = options.rows - before;
    log(`[seed] inserting ${missing.toLocaleString('en-US')} actual expenses into ${handle.location}`);
    const started = performance.now();
    const batch = options.batch ?? (url ? 10_000 : 50_000);
    const generated = await generateData(handle, {
      rows: missing,
      related: false,
      url,
      batch,
      onProgress: ({ done, total }) => {
        if (done % (batch * 4) === 0 || done === total) log(loadProgress(done, started));
      },
    });
    const done = result(missing, generated.seconds);
    log(
      `[seed] ${missing.toLocaleString('en-US')} rows in ${generated.seconds.toFixed(1)} s: ${done.rowsPerSecond.toLocaleString('en-US')} rows/s (indexes included); table now ${done.total.toLocaleString('en-US')} rows`,
    );
    return done;
  } finally {
    await handle.close();
  }
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
