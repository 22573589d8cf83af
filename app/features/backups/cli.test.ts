// `finhub backups` on every test database (TEST_DIALECTS: SQLite, and PostgreSQL when
// TEST_DATABASE_URL is set): list, create (table selection, unknown tables), verify by id and by
// file (a damaged file exits 1), restore (refused without --yes off a terminal; --overwrite
// brings deleted and changed rows back and reports its safety backup) and delete. Most commands
// run in process; create and restore of a file also run as the real bin in a subprocess.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../platform/context.ts';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { finhub, finhubProcess } from '../../../cli/test-helpers.ts';

describe.each(TEST_DIALECTS)('finhub backups on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let tmp: string;
  const run = (args: string[]) => finhub(database, args);

  /** The expenses as they are now: what a restore must bring back. */
  const expenses = () =>
    db.selectFrom('actualExpenses').select(['id', 'amountCents', 'description', 'expenseDate']).orderBy('id').execute();
  const backupRow = (id: number) => db.selectFrom('backups').selectAll().where('id', '=', id).executeTakeFirst();
  const backupCount = async () =>
    Number(
      (
        await db
          .selectFrom('backups')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** Made by the first test: expenses and categories, with the expenses as they were then. */
  let main: { id: number; file: string; expenses: Awaited<ReturnType<typeof expenses>>; rows: number };

  const CREATED = /^Backup #(\d+) completed: (\d+) rows, [\d.]+ (?:Bytes|KB|MB), (\S+)\n$/;

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    db = database.db;
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'finhub-backups-'));
    const category = await db
      .selectFrom('expenseCategories')
      .select(['id', 'companyId', 'departmentId'])
      .where('departmentId', 'is not', null)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    for (let day = 1; day <= 6; day++) {
      await db
        .insertInto('actualExpenses')
        .values({
          companyId: category.companyId,
          departmentId: category.departmentId!,
          categoryId: category.id,
          amountCents: 10_000 * day,
          expenseDate: `2026-04-0${day}`,
          description: `Expense ${day}`,
          createdBy: null,
        })
        .execute();
    }
  });
  afterAll(async () => {
    await database?.destroy();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('lists nothing on a new database, then the backup made with --tables (either spelling)', async () => {
    const empty = await run(['--json', 'backups', 'list']);
    expect(empty.code, empty.stderr).toBe(0);
    expect(JSON.parse(empty.stdout)).toEqual([]);
    const emptyPlain = await run(['backups', 'list']);
    expect(emptyPlain.stdout).toMatch(/^ID\s+Status\s+Type\s+Name\s+Created\s+Size\s+Rows\s+Tables\n$/);

    const before = await expenses();
    const categories = Number(
      (
        await db
          .selectFrom('expenseCategories')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const created = await run([
      'backups',
      'create',
      '--name',
      'Expenses',
      '--description',
      'from the CLI test',
      '--tables',
      'actual_expenses, expenseCategories',
    ]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toBe('');
    const [, id, rows, file] = CREATED.exec(created.stdout) ?? [];
    expect(created.stdout).toMatch(CREATED);
    expect(Number(rows)).toBe(before.length + categories);
    expect(path.dirname(file)).toBe(path.join(database.dataDir, 'backups'));
    expect(fs.existsSync(file)).toBe(true);
    main = { id: Number(id), file, expenses: before, rows: Number(rows) };
    expect(await backupRow(main.id)).toMatchObject({
      name: 'Expenses',
      description: 'from the CLI test',
      type: 'manual',
      status: 'completed',
      recordCount: main.rows,
      includeAuditLogs: false,
      includeVersions: false,
      tableCounts: { expenseCategories: categories, actualExpenses: before.length },
    });
    const audit = await db
      .selectFrom('auditLogs')
      .selectAll()
      .where('tableName', '=', 'backups')
      .where('recordId', '=', main.id)
      .where('action', '=', 'create')
      .executeTakeFirstOrThrow();
    expect(audit.actorLabel).toBe('cli');

    const plain = await run(['backups', 'list']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).not.toMatch(/\u001b\[/);
    const lines = plain.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(
      new RegExp(
        `^\\s*${main.id}\\s+completed\\s+manual\\s+Expenses\\s+\\d{4}-\\d\\d-\\d\\dT\\S+\\s+[\\d.]+ (Bytes|KB)\\s+${main.rows}\\s+2$`,
      ),
    );
    const json = await run(['backups', 'list', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject([
      {
        id: main.id,
        name: 'Expenses',
        status: 'completed',
        tables: ['expenseCategories', 'actualExpenses'],
        recordCount: main.rows,
      },
    ]);
  });

  it('an unknown table is a usage error naming the valid ones; --json create gives the backup', async () => {
    const count = await backupCount();
    for (const tables of ['actual_expenses,bogus', 'user_settings', ',']) {
      const result = await run(['backups', 'create', '--tables', tables]);
      expect(result.code, tables).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('actual_expenses, revenue_projections');
    }
    expect((await run(['backups', 'create', '--tables', 'actual_expenses,bogus'])).stderr).toMatch(
      /^error: Unknown table 'bogus' in --tables\. Tables: companies, departments, users, expense_categories, budgets, /,
    );
    expect(await backupCount()).toBe(count);

    const json = await run([
      '--json',
      'backups',
      'create',
      '--tables',
      'companies',
      '--include-audit',
      '--include-versions',
    ]);
    expect(json.code, json.stderr).toBe(0);
    const body = JSON.parse(json.stdout);
    expect(body).toMatchObject({
      status: 'completed',
      type: 'manual',
      tables: ['companies', 'auditLogs', 'dataVersions'],
      includeAuditLogs: true,
      includeVersions: true,
    });
    expect(body.name).toMatch(/^Manual Backup \d{4}-/);
    expect(fs.existsSync(body.file)).toBe(true);
  });

  it('verifies by id and by file path; a flipped byte is invalid (exit code 1)', async () => {
    const byId = await run(['backups', 'verify', String(main.id)]);
    expect(byId.code, byId.stderr).toBe(0);
    expect(byId.stdout).toBe('valid\n');
    const byFile = await run(['backups', 'verify', main.file]);
    expect(byFile.code, byFile.stderr).toBe(0);
    expect(byFile.stdout).toBe('valid\n');
    expect(JSON.parse((await run(['--json', 'backups', 'verify', main.file])).stdout)).toEqual({
      file: main.file,
      valid: true,
    });

    const damaged = path.join(tmp, 'damaged.jsonl.gz');
    const bytes = fs.readFileSync(main.file);
    bytes[Math.floor(bytes.length / 2)] ^= 0xff;
    fs.writeFileSync(damaged, bytes);
    const invalid = await run(['backups', 'verify', damaged]);
    expect(invalid.code).toBe(1);
    expect(invalid.stdout).toMatch(/^invalid: \S.*\n$/);
    expect(invalid.stderr).toBe('');
    const invalidJson = await run(['--json', 'backups', 'verify', damaged]);
    expect(invalidJson.code).toBe(1);
    expect(JSON.parse(invalidJson.stdout)).toMatchObject({ file: damaged, valid: false, reason: expect.any(String) });

    // The same damage in a backup's own file: its SHA-256 no longer matches.
    const made = JSON.parse((await run(['--json', 'backups', 'create', '--tables', 'departments'])).stdout);
    const own = fs.readFileSync(made.file);
    own[Math.floor(own.length / 2)] ^= 0xff;
    fs.writeFileSync(made.file, own);
    const changed = await run(['backups', 'verify', String(made.id)]);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toBe('invalid: The file has changed since the backup was made (SHA-256 differs)\n');

    const missing = await run(['backups', 'verify', '99999999']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('error: No backup #99999999\n');
    const noFile = await run(['backups', 'verify', path.join(tmp, 'nothing.gz')]);
    expect(noFile.code).toBe(1);
    expect(noFile.stdout).toBe('invalid: The backup file is missing\n');
  });

  it('refuses to restore without --yes when there is no terminal, and changes nothing', async () => {
    const [first, second] = main.expenses;
    await db.deleteFrom('actualExpenses').where('id', 'in', [first.id, second.id]).execute();
    const before = await expenses();
    const count = await backupCount();
    for (const args of [
      ['backups', 'restore', String(main.id), '--overwrite'],
      ['--json', 'backups', 'restore', String(main.id)],
      ['backups', 'restore', main.file],
    ]) {
      const refused = await run(args);
      expect(refused.code, args.join(' ')).toBe(2);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toMatch(
        /^error: Not restoring (backup #\d+ "Expenses"|the backup file \S+): there is no terminal to confirm on\. Pass --yes to go ahead\.\n$/,
      );
    }
    expect(await expenses()).toEqual(before);
    expect(await backupCount()).toBe(count);
    const missing = await run(['backups', 'restore', '99999999', '--yes']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('error: No backup #99999999\n');
  });

  it('restores deleted and changed rows with --yes --overwrite, reports the safety backup, audited as cli', async () => {
    // Since the backup: two expenses deleted (previous test), one changed, one added.
    const changed = main.expenses[2];
    await db
      .updateTable('actualExpenses')
      .set({ description: 'Changed after the backup', amountCents: 1 })
      .where('id', '=', changed.id)
      .execute();
    const added = main.expenses[3];
    await db
      .insertInto('actualExpenses')
      .values({
        ...(await db
          .selectFrom('actualExpenses')
          .select(['companyId', 'departmentId', 'categoryId'])
          .where('id', '=', added.id)
          .executeTakeFirstOrThrow()),
        amountCents: 99,
        expenseDate: '2026-04-30',
        description: 'Added after the backup',
        createdBy: null,
      })
      .execute();
    const current = (await expenses()).length;

    const result = await run(['backups', 'restore', String(main.id), '--yes', '--overwrite']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^Restoring backup #${main.id} "Expenses", made \\d{4}-`));
    expect(lines[1]).toBe(
      `${main.rows} rows in 2 tables: expense_categories ${main.rows - main.expenses.length}, actual_expenses ${main.expenses.length}`,
    );
    expect(lines[2]).toMatch(/^Overwrite: /);
    expect(lines[3]).toBe(`Restored backup #${main.id} "Expenses": ${main.rows} rows in 2 tables, overwriting`);
    const safetyId = Number(/^Safety backup #(\d+) holds the data as it was before/.exec(lines[4])?.[1]);
    expect(safetyId).toBeGreaterThan(main.id);
    expect(lines[5]).toMatch(/^Table\s+Rows\s+Written\s+Deleted$/);
    expect(lines[6]).toMatch(/^expense_categories\s+\d+\s+\d+\s+0$/);
    expect(lines[7]).toMatch(
      new RegExp(`^actual_expenses\\s+${main.expenses.length}\\s+${main.expenses.length}\\s+1$`),
    );

    // The data is the backup's again: deleted rows back with their ids, the change undone, the addition gone.
    expect(await expenses()).toEqual(main.expenses);
    // The safety backup holds the data as it was just before.
    expect(await backupRow(safetyId)).toMatchObject({
      type: 'automated',
      status: 'completed',
      tableCounts: { actualExpenses: current },
    });
    expect((await run(['backups', 'verify', String(safetyId)])).stdout).toBe('valid\n');
    const audit = await db
      .selectFrom('auditLogs')
      .selectAll()
      .where('tableName', '=', 'backups')
      .where('action', '=', 'restore')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({
      recordId: main.id,
      actorLabel: 'cli',
      userId: null,
      reason: `Restored backup #${main.id}`,
    });

    // --json gives the service's result.
    const json = await run(['--json', 'backups', 'restore', String(main.id), '--yes']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      restored: true,
      backupId: main.id,
      overwrite: false,
      safetyBackupId: null,
      rows: main.rows,
    });
  });

  it('the real bin creates a backup and restores its file, end to end', async () => {
    const created = await finhubProcess(database, [
      '--json',
      'backups',
      'create',
      '--tables',
      'actual_expenses',
      '--name',
      'From a subprocess',
    ]);
    expect(created.code, created.stderr).toBe(0);
    const backup = JSON.parse(created.stdout);
    expect(backup).toMatchObject({ name: 'From a subprocess', status: 'completed', recordCount: main.expenses.length });
    const gone = main.expenses[0];
    await db.deleteFrom('actualExpenses').where('id', '=', gone.id).execute();

    const refused = await finhubProcess(database, ['backups', 'restore', backup.file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Pass --yes');
    const restored = await finhubProcess(database, ['backups', 'restore', backup.file, '--yes']);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stderr).toBe('');
    expect(restored.stdout).toContain(
      `Restored the backup file ${backup.file}: ${main.expenses.length} rows in 1 table\n`,
    );
    expect(restored.stdout).toMatch(new RegExp(`\\nactual_expenses\\s+${main.expenses.length}\\s+1\\s+0\\n$`));
    expect(await expenses()).toEqual(main.expenses);
  }, 60_000);

  it('deletes a backup and its file with --yes; asks first', async () => {
    const backup = JSON.parse(
      (await run(['--json', 'backups', 'create', '--tables', 'companies', '--name', 'Short-lived'])).stdout,
    );
    expect(fs.existsSync(backup.file)).toBe(true);
    const refused = await run(['backups', 'delete', String(backup.id)]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `error: Not deleting backup #${backup.id} "Short-lived": there is no terminal to confirm on. Pass --yes to go ahead.\n`,
    );
    expect(await backupRow(backup.id)).toBeDefined();
    expect(fs.existsSync(backup.file)).toBe(true);

    const deleted = await run(['backups', 'delete', String(backup.id), '--yes']);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toBe(`Deleted backup #${backup.id} "Short-lived" and its file\n`);
    expect(await backupRow(backup.id)).toBeUndefined();
    expect(fs.existsSync(backup.file)).toBe(false);
    const audit = await db
      .selectFrom('auditLogs')
      .selectAll()
      .where('tableName', '=', 'backups')
      .where('recordId', '=', backup.id)
      .where('action', '=', 'delete')
      .executeTakeFirstOrThrow();
    expect(audit.actorLabel).toBe('cli');

    const again = await run(['backups', 'delete', String(backup.id), '--yes']);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`error: No backup #${backup.id}\n`);
    expect((await run(['backups', 'delete', 'latest', '--yes'])).code).toBe(2);
  });
});
