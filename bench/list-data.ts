// The data of the list and export benches (bench/list-page.ts, bench/export.ts): the real setup,
// as bench/screens.ts makes it (its prepareBenchData: demo data, then `finhub db generate --rows
// N` with the budgets, revenue, users, audit trail, versions and notifications that come with
// it), in a database of their own: the list bench adds its 2,000 signed-in viewers for the API
// load, and either bench may run its server and job engine while the screens bench runs its own.
// SQLite in /tmp/finhub-screens-list-sqlite-1m; PostgreSQL a database finhub_screens_list_1m
// on the server of `adminUrl` (its secrets in /tmp/finhub-screens-list-pg-1m).
import os from 'node:os';
import path from 'node:path';
import { sizeLabel, type BenchDatabase, type Dialect } from './screens-data.ts';

export function listBenchDatabase(dialect: Dialect, rows: number, adminUrl: string): BenchDatabase {
  const label = sizeLabel(rows);
  const dataDir = path.join(os.tmpdir(), `finhub-screens-list-${dialect === 'sqlite' ? 'sqlite' : 'pg'}-${label}`);
  if (dialect === 'sqlite') return { dialect, rows, dataDir };
  const url = new URL(adminUrl);
  url.pathname = `/finhub_screens_list_${label}`;
  return { dialect, rows, dataDir, databaseUrl: url.toString() };
}
