// `finhub import` on every test dialect: a check, an import, refused rows and exit codes for
// cron, a file imported twice; and the all-or-nothing rule under a crash: the real bin killed
// in the middle of an import leaves no row, no audit entry and no version behind, the
// recovery sweep marks the import failed, and the same file then imports once.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { BIN, cliEnv, finhub } from '../../../cli/test-helpers.ts';
import { waitFor } from '../../../test/wait.ts';
import { failInterruptedImports } from './imports.server.ts';
import { otherReaders } from '../../platform/i18n/refusal-words.ts';
import { catalogTranslator } from '../shell/catalog-files.server.ts';
import { INTERRUPTED } from '../system/system.server.ts';

describe.each(TEST_DIALECTS)('finhub import on %s', (dialect) => {
  let database: TestDatabase;
  let dir: string;
  let names: { company: string; department: string; category: string };
  const run = (args: string[]) => finhub(database, args);
  const budgetCount = async () =>
    Number(
      (
        await database.db
          .selectFrom('budgets')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const header = 'Company,Department,Category,Amount,Period,Start Date,End Date,Status';
  const line = (amount: string) =>
    `${names.company},${names.department},${names.category},${amount},monthly,2026-01-01,2026-01-31,active`;
  const write = (name: string, lines: string[], head = header) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, [head, ...lines].join('\r\n') + '\r\n');
    return file;
  };
  const expenseCount = async () =>
    Number(
      (
        await database.db
          .selectFrom('actualExpenses')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'finhub-import-'));
    const category = await database.db
      .selectFrom('expenseCategories as c')
      .innerJoin('companies as co', 'co.id', 'c.companyId')
      .innerJoin('departments as d', 'd.id', 'c.departmentId')
      .select(['c.name as category', 'co.name as company', 'd.name as department'])
      .orderBy('c.id')
      .executeTakeFirstOrThrow();
    names = category;
  });
  afterAll(async () => {
    await database?.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('checks, imports, reports refused rows, and exits 0 only when every row went in', async () => {
    const before = await budgetCount();
    const good = write('good.csv', [line('10'), line('20.50')]);
    const check = await run(['import', 'budgets', good, '--dry-run']);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toMatch(/^import #\d+ checked: 2 of 2 rows are valid\n$/);
    expect(await budgetCount()).toBe(before);

    const done = await run(['import', 'budgets', good]);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toMatch(/^import #\d+ completed: 2 rows added\n$/);
    expect(await budgetCount()).toBe(before + 2);
    const entries = await database.db
      .selectFrom('auditLogs')
      .select(['actorLabel', 'reason'])
      .where('tableName', '=', 'budgets')
      .where('reason', 'like', '%good.csv')
      .execute();
    expect(entries).toHaveLength(2);
    expect(entries[0].actorLabel).toBe('cli');

    // The same file again: refused (exit 1) unless --allow-duplicate.
    const twice = await run(['import', 'budgets', good]);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('This file was already imported into Budget Planning');
    expect(await budgetCount()).toBe(before + 2);

    const mixed = write('mixed.csv', [line('5'), line('-5'), line('abc')]);
    const all = await run(['import', 'budgets', mixed]);
    expect(all.code).toBe(1);
    expect(all.stderr).toContain('line 3: amount: Amount must be a positive number');
    expect(all.stderr).toContain('line 4: amount: Amount must be a positive number');
    expect(all.stdout).toContain('failed: Nothing was imported: 2 of 3 rows are invalid');
    expect(await budgetCount()).toBe(before + 2);
    const some = await run(['import', 'budgets', mixed, '--skip-invalid', '--json']);
    expect(some.code).toBe(1);
    expect(JSON.parse(some.stdout)).toMatchObject({ status: 'completed', created: 1, invalid: 2 });
    expect(await budgetCount()).toBe(before + 3);

    const usage = await run(['import', 'audit_logs', good]);
    expect(usage.code).toBe(2);
    expect((await run(['import', 'budgets', path.join(dir, 'missing.csv')])).code).toBe(2);
  });

  it('a crash in the middle writes nothing; the import is then marked failed and runs again once', async () => {
    // Big enough to be killed while it runs (seconds on either database), small enough to import again quickly.
    const rows = dialect === 'postgres' ? 20_000 : 40_000;
    const day = (i: number) =>
      `20${10 + (i % 16)}-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`;
    const big = write(
      'big.csv',
      Array.from(
        { length: rows },
        (_, i) =>
          `${names.company},${names.department},${names.category},${(i % 9000) + 1}.${String(i % 100).padStart(2, '0')},${day(i)},Expense ${i}`,
      ),
      'Company,Department,Category,Amount,Expense Date,Description',
    );
    const before = await expenseCount();
    const auditsBefore = Number(
      (
        await database.db
          .selectFrom('auditLogs')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const child = spawn(process.execPath, [BIN, 'import', 'actual_expenses', big], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...cliEnv(database, {}) },
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    let importId = 0;
    await waitFor(
      async () => {
        const row = await database.db
          .selectFrom('imports')
          .select(['id', 'status'])
          .where('fileName', '=', 'big.csv')
          .executeTakeFirst();
        importId = row?.status === 'running' ? row.id : 0;
        return importId > 0;
      },
      { timeout: 30_000, interval: 20 },
    );
    await new Promise((resolve) => setTimeout(resolve, 400));
    child.kill('SIGKILL');
    await exited;
    const left = await database.db.selectFrom('imports').select('status').where('id', '=', importId).executeTakeFirst();
    // Killed while it ran (it did not get to finish first).
    expect(left?.status).toBe('running');
    expect(await expenseCount()).toBe(before);
    const audits = Number(
      (
        await database.db
          .selectFrom('auditLogs')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(audits).toBe(auditsBefore);
    expect(
      await database.db.selectFrom('dataVersions').select('id').where('comment', 'like', '%big.csv').execute(),
    ).toEqual([]);

    const readers = otherReaders(catalogTranslator());
    expect(await failInterruptedImports(database.db, INTERRUPTED, undefined, readers)).toEqual([importId]);
    const failed = await database.db
      .selectFrom('imports')
      .select(['error', 'errorTexts'])
      .where('id', '=', importId)
      .executeTakeFirstOrThrow();
    expect(failed.error).toBe('Interrupted by restart: nothing was written');
    expect(JSON.parse(failed.errorTexts!)).toMatchObject({
      de: 'Durch einen Neustart unterbrochen: Es wurde nichts geschrieben',
    });
    const again = await run(['import', 'actual_expenses', big]);
    expect(again.code, again.stderr).toBe(0);
    expect(await expenseCount()).toBe(before + rows);
  }, 120_000);
});
