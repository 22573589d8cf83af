// Search and deep pages of the Actual Expenses list at a million rows, on SQLite or
// PostgreSQL: the service call behind both the screen and the API (listRecords: the exact count
// and one page of 10), each variant repeated, median and p90. Also amounts typed into the search
// and the Company filter, alone and with a search.
//
//   npx node bench/search-pages.ts                                   # SQLite in /tmp/finhub-bench (seeded by seed-expenses.ts)
//   npx node bench/search-pages.ts --database-url postgres://postgres@127.0.0.1:5432/test --schema finhub_bench
//   npx node bench/search-pages.ts --iterations 15 --json bench/results/search.json
//
// It opens the data as it is (no migrations): the same script measures a build without the
// search index when copied into that build's checkout.
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { createDatabase } from '../db/client.ts';
import { actualExpenses } from '../app/features/resources.ts';
import type { ServiceContext } from '../app/platform/context.ts';
import { apiListQuery } from '../app/platform/resources/list-query.ts';
import { listRecords } from '../app/platform/resources/resources.server.ts';
import { findUserById } from '../app/features/users/user-queries.server.ts';
import { argValue, DEFAULT_DATA_DIR, numberArg } from './constants.ts';
import { createRuntime } from '../app/platform/runtime.ts';

/** Searches a finance user types: vendors, words of descriptions, receipt numbers, a month, a name, nothing. */
export const SEARCH_TERMS = [
  'Azure',
  'payroll',
  'Harbour Point',
  'Webber',
  'water and',
  'managed data',
  'INV-2312',
  'RCT-24',
  '2025-03',
  'December 2023',
  'Finance',
  'Legal Fees',
  'no such vendor',
];

/** Pages of 10 (the screens' page size), from the first to the last of 1M rows. */
const PAGES = [1, 2, 100, 10_000, 25_000, 50_000, 75_000, 99_999, 100_000];

interface Sample {
  name: string;
  total: number;
  medianMs: number;
  p90Ms: number;
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const iterations = numberArg(argv, 'iterations', 11);
  let url = argValue(argv, 'database-url') ?? process.env.DATABASE_URL ?? undefined;
  const schema = argValue(argv, 'schema');
  if (url && schema) {
    const u = new URL(url);
    u.searchParams.set('options', `-c search_path=${schema}`);
    url = u.toString();
  }
  const dataDir = path.resolve(argValue(argv, 'data-dir') ?? DEFAULT_DATA_DIR);
  const handle = createDatabase({ url, dataDir });
  try {
    const owner = await handle.db
      .selectFrom('users')
      .select('id')
      .where('role', '=', 'owner')
      .orderBy('id')
      .limit(1)
      .executeTakeFirstOrThrow();
    const ctx: ServiceContext = {
      db: handle.db,
      actor: { kind: 'user', user: (await findUserById(handle.db, owner.id))! },
      meta: {},
      runtime: createRuntime(),
    };
    const measure = async (name: string, params: string, before?: () => Promise<unknown>): Promise<Sample> => {
      const query = apiListQuery(actualExpenses, new URLSearchParams(params));
      const { total } = await listRecords(ctx, actualExpenses, query); // warm-up
      const samples: number[] = [];
      for (let i = 0; i < iterations; i++) {
        await before?.();
        const t = performance.now();
        await listRecords(ctx, actualExpenses, query);
        samples.push(performance.now() - t);
      }
      const sample = { name, total, medianMs: quantile(samples, 0.5), p90Ms: quantile(samples, 0.9) };
      console.log(
        `  ${name.padEnd(34)} ${String(total).padStart(9)} rows  median ${sample.medianMs.toFixed(1).padStart(7)} ms  p90 ${sample.p90Ms.toFixed(1).padStart(7)} ms`,
      );
      return sample;
    };
    const dialect = url ? 'postgres' : 'sqlite';
    console.log(`[bench] ${dialect}, listRecords of actual expenses, ${iterations} runs each`);
    console.log('search (?q=…, count + first page of 10):');
    const searches: Sample[] = [];
    const pages: Sample[] = [];
    for (const term of SEARCH_TERMS)
      searches.push(await measure(`q=${term}`, `limit=10&q=${encodeURIComponent(term)}`));
    // An amount as typed (exact cents, both spellings), and one that is in the books.
    const booked = await handle.db
      .selectFrom('actualExpenses')
      .select('amountCents')
      .where('id', '=', 500_000)
      .executeTakeFirst();
    const bookedAmount = booked ? (Number(booked.amountCents) / 100).toFixed(2) : '1234.56';
    for (const term of ['1234.56', '1,234.56', bookedAmount])
      searches.push(await measure(`q=${term} (amount)`, `limit=10&q=${encodeURIComponent(term)}`));
    console.log('one company (?companyId=…, the Company filter of the list):');
    const company = await handle.db
      .selectFrom('companies')
      .select('id')
      .where('name', '=', 'One Network')
      .executeTakeFirst();
    if (company) {
      pages.push(await measure('company: first page', `limit=10&companyId=${company.id}`));
      pages.push(await measure('company: page 10,000', `limit=10&offset=99990&companyId=${company.id}`));
      searches.push(await measure('company + q=payroll', `limit=10&companyId=${company.id}&q=payroll`));
      searches.push(await measure(`company + q=${bookedAmount}`, `limit=10&companyId=${company.id}&q=${bookedAmount}`));
    }
    console.log('pages of 10 (?page=N):');
    for (const page of PAGES) pages.push(await measure(`page ${page}`, `limit=10&offset=${(page - 1) * 10}`));
    pages.push(await measure('page 50,000 by amount', `limit=10&offset=499990&sortBy=amount&sortOrder=desc`));
    // A statement that writes the table (and changes no row) before each run: on PostgreSQL the
    // first deep page after a write finds the list's anchors again (page-anchors.server.ts).
    const write = () => sql`update actual_expenses set vendor = vendor where id = -1`.execute(handle.db);
    pages.push(await measure('page 50,000 right after a write', `limit=10&offset=499990`, write));
    pages.push(
      await measure(
        'page 50,000 by amount after a write',
        `limit=10&offset=499990&sortBy=amount&sortOrder=desc`,
        write,
      ),
    );
    pages.push(await measure('page 2,000 of q=payroll', `limit=10&offset=19990&q=payroll`));
    const searchMedian = quantile(
      searches.map((s) => s.medianMs),
      0.5,
    );
    const worstPage = Math.max(...pages.map((p) => p.medianMs));
    console.log(
      `[bench] search: median of the medians ${searchMedian.toFixed(1)} ms, slowest ${Math.max(...searches.map((s) => s.medianMs)).toFixed(1)} ms; slowest page ${worstPage.toFixed(1)} ms`,
    );
    const json = argValue(argv, 'json');
    if (json)
      fs.writeFileSync(
        json,
        JSON.stringify({ dialect, iterations, searches, pages, searchMedian, worstPage }, null, 2),
      );
  } finally {
    await handle.close();
  }
}

await main();
