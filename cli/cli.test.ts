// The `finhub` CLI on every test database (TEST_DIALECTS: SQLite, and PostgreSQL when
// TEST_DATABASE_URL is set): exit codes, non-TTY output, --json, refusal without --yes,
// temporary passwords, CSV export round trips, data generation. Most commands run in process
// (`runCli` with an injected environment and captured output: no Node start-up per command);
// a few run the real bin as a subprocess: --help/--version and an exit code, one export end to
// end per database, and jobs status against an engine hosted by another process. Generation
// speed is a benchmark (bench/generate.ts), not a test.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login } from '../app/features/auth/auth.server.ts';
import { totpCode } from '../app/features/auth/two-factor-codes.server.ts';
import {
  confirmTwoFactorSetup,
  startTwoFactorSetup,
  twoFactorStatus,
} from '../app/features/auth/two-factor-state.server.ts';
import type { Db } from '../app/platform/context.ts';
import { systemActor } from '../app/platform/context.ts';
import { createRecord, deleteRecord, updateRecord } from '../app/platform/resources/resource-writes.server.ts';
import { createSession } from '../app/platform/session/sessions.server.ts';
import { findResource } from '../app/features/resources.ts';
import { userContext, noEngine } from '../test/context.ts';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../test/database.ts';
import { parseCsv } from '../test/csv.ts';
import { createTestUser } from '../test/users.ts';
import { JobEngine } from '../app/platform/jobs/engine.ts';
import { appJobs, JOBS } from '../app/features/jobs.ts';
import { dropSchema, testConfig, waitFor } from '../worker/test-helpers.ts';
import { withTestJobs } from '../worker/test-jobs.ts';
import { finhub, finhubProcess } from './test-helpers.ts';
import { createRuntime } from '../app/platform/runtime.ts';

const FORMULA = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?(?:\d+(?:\.\d+)?|\.\d+)$/;
const neutralised = (text: string) => (FORMULA.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text);

const TRICKY = [
  'Plain description',
  'Comma, inside',
  'She said "hello"',
  'Line one\nline two\r\nline three',
  'Ünïcødé — 日本語 — emoji 🎉',
  '=SUM(A1:A9)',
  '+1 555 0100',
  '-cmd|calc',
  '@import',
  '-42.50',
  '  leading spaces, trailing  ',
];

describe.each(TEST_DIALECTS)('finhub CLI on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let categoryId: number;
  let departmentId: number;
  const run = (args: string[], env?: Record<string, string>) => finhub(database, args, env);

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    db = database.db;
    const category = await db
      .selectFrom('expenseCategories')
      .select(['id', 'companyId', 'departmentId'])
      .where('departmentId', 'is not', null)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    categoryId = category.id;
    departmentId = category.departmentId!;
    let day = 1;
    for (const description of TRICKY) {
      await db
        .insertInto('actualExpenses')
        .values({
          companyId: category.companyId,
          departmentId,
          categoryId,
          amountCents: 123_456 + day,
          expenseDate: `2026-03-${String(day++).padStart(2, '0')}`,
          description,
          vendor: description.includes('"') ? 'Vendor "Quoted", Ltd' : null,
          receiptNumber: day % 2 ? '=HYPERLINK("x")' : null,
          createdBy: null,
        })
        .execute();
    }
  });
  afterAll(() => database?.destroy());

  describe('exit codes', () => {
    // Once: help, version and the exit-code mapping do not depend on the database.
    it.runIf(dialect === 'sqlite')(
      '0 for help and version, 2 for a usage error, 1 for a failure: the real process',
      async () => {
        const help = await finhubProcess(database, ['--help']);
        expect(help.code).toBe(0);
        expect(help.stdout).toContain('Usage: finhub');
        expect((await finhubProcess(database, ['--version'])).code).toBe(0);
        const usage = await finhubProcess(database, ['users', 'list', '--role', 'boss']);
        expect(usage.code).toBe(2);
        expect(usage.stderr).toMatch(/error/);
        const failure = await finhubProcess(database, ['users', 'deactivate', 'nobody@example.com']);
        expect(failure.code).toBe(1);
        expect(failure.stderr).toBe("error: No user 'nobody@example.com' (give an e-mail address or id)\n");
      },
    );

    it('0 for help and version in process too', async () => {
      const help = await run(['--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('Usage: finhub');
      expect((await run(['--version'])).code).toBe(0);
    });

    it('2 for usage errors', async () => {
      for (const args of [
        ['bogus'],
        ['db', 'generate'],
        ['db', 'generate', '--rows', 'many'],
        ['users', 'create', '--email', 'a@b.c'],
        ['users', 'list', '--role', 'boss'],
        ['export', 'passwords'],
        ['export', 'budgets', '--from', '2026-02-30'],
        ['users', 'list', '--nope'],
      ]) {
        const result = await run(args);
        expect(result.code, args.join(' ')).toBe(2);
        expect(result.stderr, args.join(' ')).toMatch(/error/);
        expect(result.stdout).toBe('');
      }
    });

    it('1 for failures, with a one-line message and no stack', async () => {
      const missing = await run(['users', 'deactivate', 'nobody@example.com']);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toBe("error: No user 'nobody@example.com' (give an e-mail address or id)\n");
      const owner = await run(['users', 'deactivate', 'owner@example.com']);
      expect(owner.code).toBe(1);
      expect(owner.stderr).toContain('Owners cannot be deactivated or deleted');
      const invalid = await run([
        'users',
        'create',
        '--email',
        'bad',
        '--username',
        'x',
        '--role',
        'viewer',
        '--password',
        'short',
      ]);
      expect(invalid.code).toBe(1);
      expect(invalid.stderr).toContain('email: Must be a valid email address');
      expect(invalid.stderr).toContain('password: Password must be at least 8 characters');
    });
  });

  describe('users', () => {
    it('lists users as plain text without colours, and as JSON', async () => {
      const plain = await run(['users', 'list']);
      expect(plain.code).toBe(0);
      expect(plain.stdout).toMatch(/^ID\s+Username\s+Email\s+Role\s+Company\s+Status\s+Last Login\n/);
      expect(plain.stdout).toContain('owner@example.com');
      expect(plain.stdout).not.toMatch(/\u001b\[/);
      const json = await run(['--json', 'users', 'list', '--role', 'owner']);
      expect(json.code).toBe(0);
      const rows = JSON.parse(json.stdout);
      expect(rows.map((r: { email: string }) => r.email)).toEqual(['owner@example.com']);
      expect(json.stdout).not.toMatch(/passwordHash/);
    });

    it('creates a user with a temporary password printed alone on the last line; signing in forces a change', async () => {
      const result = await run([
        'users',
        'create',
        '--email',
        'new.analyst@example.com',
        '--username',
        'new.analyst',
        '--role',
        'editor',
        '--company',
        'Vult',
      ]);
      expect(result.code).toBe(0);
      const lines = result.stdout.trimEnd().split('\n');
      const password = lines.at(-1)!;
      expect(password).toMatch(/^[A-Za-z0-9]{14}$/);
      expect(lines[0]).toMatch(/^created user #\d+ new\.analyst@example\.com \(editor\)$/);
      const signedIn = await login(db, { ip: '203.0.113.50' }, { email: 'new.analyst@example.com', password });
      expect(signedIn.user.isTemporaryPassword).toBe(true);
      const vult = await db.selectFrom('companies').select('id').where('name', '=', 'Vult').executeTakeFirstOrThrow();
      expect(signedIn.user.companyId).toBe(vult.id);
      const audit = await db
        .selectFrom('auditLogs')
        .selectAll()
        .where('tableName', '=', 'users')
        .where('recordId', '=', signedIn.user.id)
        .where('action', '=', 'create')
        .executeTakeFirstOrThrow();
      expect(audit.actorLabel).toBe('cli');
    });

    it('issues a temporary password: ends sessions, prints it once, forces a change at sign-in', async () => {
      const user = await createTestUser(db, { role: 'viewer' });
      await createSession(db, { userId: user.id, rememberMe: false });
      const result = await run(['users', 'temp-password', user.email, '--yes']);
      expect(result.code).toBe(0);
      const lines = result.stdout.trimEnd().split('\n');
      expect(lines[0]).toContain('1 session(s) ended');
      const password = lines.at(-1)!;
      expect(password).toMatch(/^[A-Za-z0-9]{14}$/);
      const active = await db
        .selectFrom('userSessions')
        .select('id')
        .where('userId', '=', user.id)
        .where('isActive', '=', true)
        .execute();
      expect(active).toHaveLength(0);
      const signedIn = await login(db, { ip: '203.0.113.51' }, { email: user.email, password });
      expect(signedIn.user.isTemporaryPassword).toBe(true);

      const json = await run(['--json', 'users', 'temp-password', String(user.id), '--yes']);
      expect(json.code).toBe(0);
      const body = JSON.parse(json.stdout);
      expect(body.temporaryPassword).toMatch(/^[A-Za-z0-9]{14}$/);
      expect(body.endedSessions).toBe(1);
    });

    it("resets a user's second factor: asks first, ends their sessions, audits it as cli", async () => {
      const user = await createTestUser(db, { role: 'admin' });
      const key = 'c7'.repeat(32);
      const userCtx = await userContext(db, user.id);
      const { secret } = await startTwoFactorSetup(userCtx, [key]);
      await confirmTwoFactorSetup(userCtx, [key], { code: totpCode(secret) });
      await createSession(db, { userId: user.id, rememberMe: false });

      const refused = await run(['users', 'reset-two-factor', user.email]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`Not resetting two-factor authentication for ${user.email}`);
      expect(await twoFactorStatus(db, user.id)).toMatchObject({ enabled: true });

      const result = await run(['users', 'reset-two-factor', user.email, '--yes']);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain(`two-factor authentication reset for ${user.email}; 1 session(s) ended`);
      expect(await twoFactorStatus(db, user.id)).toMatchObject({ enabled: false });
      expect(await db.selectFrom('userTwoFactor').select('userId').where('userId', '=', user.id).execute()).toEqual([]);
      const entry = await db
        .selectFrom('auditLogs')
        .select(['reason', 'actorLabel'])
        .where('tableName', '=', 'users')
        .where('recordId', '=', user.id)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(entry).toEqual({ reason: 'Two-factor authentication reset', actorLabel: 'cli' });
      // Nothing left to reset: said so, and a failing exit code.
      const again = await run(['users', 'reset-two-factor', user.email, '--yes']);
      expect(again.code).not.toBe(0);
      expect(again.stderr).toContain('Two-factor authentication is not on');
      // An address no user has: said so, and a failing exit code.
      const unknown = await run(['users', 'reset-two-factor', 'nobody@example.invalid', '--yes']);
      expect(unknown.code).not.toBe(0);
      expect(unknown.stderr).toContain("No user 'nobody@example.invalid'");
    });

    it('asks before a temporary password, even for the owner: without a terminal nothing changes unless --yes is given', async () => {
      const owner = await db
        .selectFrom('users')
        .select(['id', 'passwordHash'])
        .where('email', '=', 'owner@example.com')
        .executeTakeFirstOrThrow();
      const session = await createSession(db, { userId: owner.id, rememberMe: false });
      for (const args of [
        ['users', 'temp-password', 'owner@example.com'],
        ['--json', 'users', 'temp-password', String(owner.id)],
      ]) {
        const refused = await run(args);
        expect(refused.code).toBe(2);
        expect(refused.stdout).toBe('');
        expect(refused.stderr).toContain('Not issuing a temporary password for owner@example.com');
        expect(refused.stderr).toContain('Pass --yes');
      }
      const after = await db
        .selectFrom('users')
        .select(['passwordHash', 'isTemporaryPassword'])
        .where('id', '=', owner.id)
        .executeTakeFirstOrThrow();
      expect(after).toEqual({ passwordHash: owner.passwordHash, isTemporaryPassword: false });
      const live = await db
        .selectFrom('userSessions')
        .select('isActive')
        .where('id', '=', session.session.id)
        .executeTakeFirstOrThrow();
      expect(Boolean(live.isActive)).toBe(true);
    });

    it('asks before a deactivation: without a terminal nothing changes unless --yes is given', async () => {
      const user = await createTestUser(db, { role: 'viewer' });
      await createSession(db, { userId: user.id, rememberMe: false });
      const refused = await run(['users', 'deactivate', user.email]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`Not deactivating ${user.email}`);
      expect(
        (await db.selectFrom('users').select('isActive').where('id', '=', user.id).executeTakeFirstOrThrow()).isActive,
      ).toBeTruthy();
      expect(
        await db
          .selectFrom('userSessions')
          .select('id')
          .where('userId', '=', user.id)
          .where('isActive', '=', true)
          .execute(),
      ).toHaveLength(1);
    });

    it('deactivates and reactivates', async () => {
      const user = await createTestUser(db, { role: 'viewer' });
      const off = await run(['--json', 'users', 'deactivate', user.email, '--yes']);
      expect(off.code).toBe(0);
      expect(JSON.parse(off.stdout)).toMatchObject({ changed: true, user: { isActive: false } });
      const listed = await run(['users', 'list', '--inactive']);
      expect(listed.stdout).toContain(user.email);
      const on = await run(['users', 'reactivate', String(user.id)]);
      expect(on.code).toBe(0);
      expect(on.stdout).toBe(`${user.email} is now active\n`);
    });

    it('refuses to delete without a terminal unless --yes is given', async () => {
      const user = await createTestUser(db, { role: 'viewer' });
      const refused = await run(['users', 'delete', user.email]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('Pass --yes');
      expect(await db.selectFrom('users').select('id').where('id', '=', user.id).executeTakeFirst()).toBeDefined();
      const refusedJson = await run(['--json', 'users', 'delete', user.email]);
      expect(refusedJson.code).toBe(2);
      const deleted = await run(['users', 'delete', user.email, '--yes']);
      expect(deleted.code).toBe(0);
      expect(await db.selectFrom('users').select('id').where('id', '=', user.id).executeTakeFirst()).toBeUndefined();
      const owner = await run(['users', 'delete', 'owner@example.com', '--yes']);
      expect(owner.code).toBe(1);
    });
  });

  describe('export', () => {
    const expectedRow = (r: {
      id: number;
      amountCents: number;
      expenseDate: string;
      description: string;
      vendor: string | null;
      receiptNumber: string | null;
    }) => [
      String(r.id),
      (r.amountCents / 100).toFixed(2),
      r.expenseDate,
      neutralised(r.description),
      r.vendor === null ? '' : neutralised(r.vendor),
      r.receiptNumber === null ? '' : neutralised(r.receiptNumber),
    ];

    it('writes CSV to stdout that parses back to the database rows', async () => {
      const result = await run(['export', 'actual_expenses']);
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      const [header, ...rows] = parseCsv(result.stdout);
      expect(header).toEqual([
        'ID',
        'Company',
        'Department',
        'Category',
        'Amount',
        'Expense Date',
        'Description',
        'Vendor',
        'Receipt Number',
        'Created At',
        'Updated At',
      ]);
      const stored = await db
        .selectFrom('actualExpenses')
        .selectAll()
        .orderBy('expenseDate', 'desc')
        .orderBy('id', 'desc')
        .execute();
      expect(rows).toHaveLength(stored.length);
      expect(rows.map((r) => [r[0], r[4], r[5], r[6], r[7], r[8]])).toEqual(stored.map(expectedRow));
      // The tricky cells, spelt out.
      const descriptions = rows.map((r) => r[6]);
      expect(descriptions).toContain('Line one\nline two\r\nline three');
      expect(descriptions).toContain('Ünïcødé — 日本語 — emoji 🎉');
      expect(descriptions).toContain("'=SUM(A1:A9)");
      expect(descriptions).toContain("'@import");
      expect(descriptions).toContain('-42.50');
      expect(rows.every((r) => r[9] && !Number.isNaN(Date.parse(r[9])))).toBe(true);
    });

    it('the real bin writes the same CSV, end to end', async () => {
      const inProcess = await run(['export', 'actual_expenses']);
      const subprocess = await finhubProcess(database, ['export', 'actual_expenses']);
      expect(subprocess.code, subprocess.stderr).toBe(0);
      expect(subprocess.stderr).toBe('');
      expect(subprocess.stdout).toBe(inProcess.stdout);
      expect(parseCsv(subprocess.stdout)).toHaveLength(TRICKY.length + 1);
    });

    it('writes --out atomically and filters by company and dates', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'finhub-export-'));
      try {
        const file = path.join(dir, 'expenses.csv');
        fs.writeFileSync(file, 'previous export\r\n');
        const result = await run([
          'export',
          'actualExpenses',
          '--out',
          file,
          '--from',
          '2026-03-02',
          '--to',
          '2026-03-04',
        ]);
        expect(result.code).toBe(0);
        expect(result.stdout).toBe(`3 rows written to ${file}\n`);
        expect(fs.readdirSync(dir)).toEqual(['expenses.csv']);
        const rows = parseCsv(fs.readFileSync(file, 'utf8')).slice(1);
        expect(rows.map((r) => r[5])).toEqual(['2026-03-04', '2026-03-03', '2026-03-02']);

        const other = await db
          .selectFrom('companies')
          .select(['id', 'name'])
          .where(
            'id',
            '!=',
            (
              await db
                .selectFrom('expenseCategories')
                .select('companyId')
                .where('id', '=', categoryId)
                .executeTakeFirstOrThrow()
            ).companyId,
          )
          .orderBy('id')
          .executeTakeFirstOrThrow();
        const none = await run(['export', 'actual-expenses', '--company', String(other.id)]);
        expect(parseCsv(none.stdout)).toHaveLength(1);

        const failed = await run(['export', 'actual_expenses', '--out', path.join(dir, 'missing-dir', 'x.csv')]);
        expect(failed.code).toBe(1);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it('exports every export table; users without password data', async () => {
      for (const table of [
        'users',
        'companies',
        'departments',
        'expense_categories',
        'budgets',
        'actual_expenses',
        'revenue_projections',
        'actual_revenue',
        'subscriber_metrics',
      ]) {
        const result = await run(['export', table]);
        expect(result.code, table).toBe(0);
        expect(parseCsv(result.stdout).length, table).toBeGreaterThanOrEqual(1);
      }
      const users = await run(['export', 'users']);
      const [header, ...rows] = parseCsv(users.stdout);
      expect(header.slice(0, 5)).toEqual(['ID', 'Username', 'Email', 'Full Name', 'Role']);
      expect(users.stdout).not.toMatch(/argon2|password_hash|passwordHash/i);
      const count = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect(rows).toHaveLength(Number(count.n));
    });
  });

  describe('jobs', () => {
    it.runIf(dialect === 'sqlite')(
      'status opens the embedded queue when no web server holds it',
      async () => {
        const result = await run(['--json', 'jobs', 'status']);
        expect(result.code, result.stderr).toBe(0);
        const status = JSON.parse(result.stdout);
        expect(status).toMatchObject({ mode: 'embedded', source: 'queue', failed: [] });
        expect(status.queues.map((q: { name: string }) => q.name)).toEqual([
          ...JOBS.map((job) => job.name),
          'dead-letter',
        ]);
        expect(status.schedules).toContainEqual({ name: 'health-snapshot', cron: '* * * * *' });
        // The queue was released again.
        expect(fs.existsSync(path.join(database.dataDir, 'queue.pid'))).toBe(false);
        const plain = await run(['jobs', 'status']);
        expect(plain.stdout).toMatch(/^Embedded queue \(PGlite\): live, /);
        expect(plain.stdout).toMatch(/health-snapshot\s+0\s+0\s+0\s+0\s+0\s+\* \* \* \* \*/);
        expect(plain.stdout).not.toMatch(/\x1b\[/);
      },
      60_000,
    );

    // A subprocess: the queue's owner is another process (the web server), which this test plays.
    it.runIf(dialect === 'sqlite')(
      "status reads the web server's snapshot while it holds the queue, and shows failed jobs",
      async () => {
        const config = testConfig(database.dataDir);
        const engine = new JobEngine({
          role: 'embedded',
          db,
          queueDir: path.join(database.dataDir, 'queue'),
          ...withTestJobs(appJobs(config)),
          settings: config,
          schedules: false,
          pollingIntervalSeconds: 0.5,
          statusSnapshotSeconds: 0.5,
          runtime: createRuntime(),
          log: () => {},
        });
        await engine.start();
        try {
          const id = await engine.send('test-poison', { file: path.join(database.dataDir, 'poison.log') });
          await waitFor(async () => (await engine.status()).failed.some((f) => f.id === id), 'the poison job to fail');
          const status = await waitFor(async () => {
            const result = await finhubProcess(database, ['--json', 'jobs', 'status']);
            expect(result.code, result.stderr).toBe(0);
            const body = JSON.parse(result.stdout);
            return body.failed.some((f: { id: string }) => f.id === id) ? body : null;
          }, 'a snapshot that shows the failure');
          expect(status.source).toBe('snapshot');
          expect(status.failed[0]).toMatchObject({
            id,
            name: 'test-poison',
            message: expect.stringContaining('poison'),
          });
        } finally {
          await engine.stop({ graceful: false });
        }
      },
      60_000,
    );

    it.runIf(dialect === 'postgres')(
      'status reads pg-boss on PostgreSQL',
      async () => {
        const schema = `pgboss_cli_${process.pid}`;
        try {
          const result = await run(['--json', 'jobs', 'status'], { PGBOSS_SCHEMA: schema });
          expect(result.code, result.stderr).toBe(0);
          const status = JSON.parse(result.stdout);
          expect(status).toMatchObject({ mode: 'postgres', source: 'queue', failed: [] });
          expect(status.queues).toHaveLength(JOBS.length + 1);
        } finally {
          await dropSchema(schema);
        }
      },
      60_000,
    );

    it('run executes a job now through the services; unknown jobs and bad payloads are usage errors', async () => {
      const before = Number(
        (
          await db
            .selectFrom('healthSnapshots')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
      const result = await run(['--json', 'jobs', 'run', 'health-snapshot']);
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({
        job: 'health-snapshot',
        result: { snapshotId: expect.any(Number) },
      });
      const after = Number(
        (
          await db
            .selectFrom('healthSnapshots')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
      expect(after).toBe(before + 1);
      const unknown = await run(['jobs', 'run', 'nope']);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toMatch(/Unknown job 'nope'/);
      const badJson = await run(['jobs', 'run', 'health-snapshot', '--payload', '{']);
      expect(badJson.code).toBe(2);
    });
  });

  describe('audit', () => {
    const companies = findResource('companies')!;
    let admin: { id: number; email: string; username: string };
    let companyId: number;
    let n = 0;
    const unique = (label: string) => `${label} ${dialect} ${++n}`;
    const versionOf = (recordId: number, version: number) =>
      db
        .selectFrom('dataVersions')
        .select('id')
        .where('tableName', '=', 'companies')
        .where('recordId', '=', recordId)
        .where('version', '=', version)
        .executeTakeFirstOrThrow()
        .then((v) => v.id);
    const companyRow = (id: number) =>
      db.selectFrom('companies').select(['name', 'description']).where('id', '=', id).executeTakeFirst();

    beforeAll(async () => {
      admin = await createTestUser(db, { role: 'admin' });
      const ctx = await userContext(db, admin.id);
      companyId = (
        await createRecord(
          ctx,
          companies,
          { name: unique('Audited Co'), type: 'fintech', description: 'Original' },
          { reason: 'set up' },
        )
      ).id as number;
      await updateRecord(ctx, companies, companyId, { description: 'Changed by admin' }, { reason: 'tidy up' });
    });

    it('lists entries as plain text, one line per entry, filtered by table, record, user and action', async () => {
      const plain = await run(['audit', 'list', '--table', 'companies', '--record', String(companyId)]);
      expect(plain.code, plain.stderr).toBe(0);
      expect(plain.stderr).toBe('');
      expect(plain.stdout).not.toMatch(/\u001b\[/);
      const [header, ...lines] = plain.stdout.trimEnd().split('\n');
      expect(header).toMatch(/^Timestamp\s+Action\s+Record\s+User\s+Reason$/);
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(
        new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\S+\\s+update\\s+companies #${companyId}\\s+${admin.username}\\s+tidy up$`),
      );
      expect(lines[1]).toMatch(new RegExp(`\\s+create\\s+companies #${companyId}\\s+${admin.username}\\s+set up$`));

      for (const user of [admin.username, admin.email.toUpperCase(), String(admin.id)]) {
        const byUser = await run(['--json', 'audit', 'list', '--user', user]);
        expect(byUser.code, byUser.stderr).toBe(0);
        const rows = JSON.parse(byUser.stdout);
        expect(
          rows.map((r: { action: string; recordId: number }) => `${r.action} ${r.recordId}`),
          user,
        ).toEqual([`update ${companyId}`, `create ${companyId}`]);
        expect(
          rows.every(
            (r: { userId: number; username: string }) => r.userId === admin.id && r.username === admin.username,
          ),
        ).toBe(true);
      }
      // --json after the command works too; camelCase and dashed table names are the same table.
      const updates = await run(['audit', 'list', '--table', 'expense-categories', '--action', 'update', '--json']);
      expect(updates.code, updates.stderr).toBe(0);
      expect(
        JSON.parse(updates.stdout).every(
          (r: { tableName: string; action: string }) => r.tableName === 'expense_categories' && r.action === 'update',
        ),
      ).toBe(true);
      const one = await run([
        '--json',
        'audit',
        'list',
        '--table',
        'companies',
        '--record',
        String(companyId),
        '--action',
        'update',
      ]);
      expect(JSON.parse(one.stdout)).toMatchObject([
        {
          action: 'update',
          tableName: 'companies',
          recordId: companyId,
          reason: 'tidy up',
          changes: { description: { old: 'Original', new: 'Changed by admin' } },
        },
      ]);
    });

    it('--limit caps the list (and says so on stderr); bad flags are usage errors, an unknown user a failure', async () => {
      const limited = await run(['audit', 'list', '--limit', '1']);
      expect(limited.code).toBe(0);
      expect(limited.stdout.trimEnd().split('\n')).toHaveLength(2);
      expect(limited.stderr).toMatch(/^1 of \d+ entries shown/);
      const json = await run(['--json', 'audit', 'list', '--limit', '1']);
      expect(JSON.parse(json.stdout)).toHaveLength(1);
      expect(json.stderr).toBe('');
      for (const [args, text] of [
        [['--table', 'passwords'], '--table'],
        [['--action', 'explode'], '--action'],
        [['--limit', '0'], '--limit'],
        [['--limit', '5000'], '--limit'],
        [['--record', 'x'], '--record'],
      ] as const) {
        const result = await run(['audit', 'list', ...args]);
        expect(result.code, args.join(' ')).toBe(2);
        expect(result.stderr, args.join(' ')).toContain(text);
        expect(result.stdout).toBe('');
      }
      const nobody = await run(['audit', 'list', '--user', 'nobody-at-all']);
      expect(nobody.code).toBe(1);
      expect(nobody.stderr).toBe("error: No user 'nobody-at-all' (give a user id, username or e-mail address)\n");
    });

    it('refuses to restore without --yes when there is no terminal, and changes nothing', async () => {
      const version = await versionOf(companyId, 1);
      for (const args of [
        ['audit', 'restore', String(version)],
        ['--json', 'audit', 'restore', String(version)],
      ]) {
        const refused = await run(args);
        expect(refused.code).toBe(2);
        expect(refused.stderr).toContain(`Not restoring version 1 of companies #${companyId}`);
        expect(refused.stderr).toContain('Pass --yes');
        expect(refused.stdout).toBe('');
      }
      expect(await companyRow(companyId)).toMatchObject({ description: 'Changed by admin' });
      const missing = await run(['audit', 'restore', '99999999', '--yes']);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toBe('error: No data version 99999999\n');
      expect((await run(['audit', 'restore', 'latest', '--yes'])).code).toBe(2);
    });

    it('restores an updated record to an old version with --yes (audited as cli)', async () => {
      const result = await run(['audit', 'restore', String(await versionOf(companyId, 1)), '--yes']);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe(`Restored version 1 of companies #${companyId}\n`);
      expect(await companyRow(companyId)).toMatchObject({ description: 'Original' });
      const entry = await db
        .selectFrom('auditLogs')
        .selectAll()
        .where('tableName', '=', 'companies')
        .where('recordId', '=', companyId)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(entry).toMatchObject({ action: 'update', reason: 'Restored version 1', actorLabel: 'cli', userId: null });
      // The version it now is cannot be restored onto itself.
      const current = await db
        .selectFrom('dataVersions')
        .select('id')
        .where('tableName', '=', 'companies')
        .where('recordId', '=', companyId)
        .where('isActive', '=', true)
        .executeTakeFirstOrThrow();
      const again = await run(['audit', 'restore', String(current.id), '--yes']);
      expect(again.code).toBe(1);
      expect(again.stderr).toBe('error: This is already the current version\n');
    });

    it('lists a record’s versions with the ids restore takes, and restores by record and version number', async () => {
      const ctx = await userContext(db, admin.id);
      const id = (
        await createRecord(
          ctx,
          companies,
          { name: unique('Versioned Co'), type: 'fintech', description: 'First' },
          { reason: 'set up' },
        )
      ).id as number;
      await updateRecord(ctx, companies, id, { description: 'Second' }, { reason: 'edit' });
      const listed = await run(['audit', 'versions', 'companies', String(id)]);
      expect(listed.code, listed.stderr).toBe(0);
      const lines = listed.stdout.trim().split('\n');
      expect(lines[0]).toMatch(/^Id\s+Version\s+Action\s+Created\s+By\s+Current\s+Changes\s+Comment/);
      // Newest first, each with its id, author, whether it is the current one and what it changed.
      expect(lines[1]).toMatch(
        new RegExp(
          `^${await versionOf(id, 2)}\\s+2\\s+update\\s+\\S+\\s+${admin.username}\\s+yes\\s+Description: First → Second\\s`,
        ),
      );
      expect(lines[2]).toMatch(new RegExp(`^${await versionOf(id, 1)}\\s+1\\s+create\\s+\\S+\\s+${admin.username}\\s`));
      const json = await run(['--json', 'audit', 'versions', 'expense-categories', '999999']);
      expect(json.code, json.stderr).toBe(0);
      expect(JSON.parse(json.stdout)).toEqual([]);
      expect((await run(['audit', 'versions', 'no_such_table', '1'])).code).toBe(2);

      const restored = await run([
        'audit',
        'restore',
        '--table',
        'companies',
        '--record',
        String(id),
        '--number',
        '1',
        '--yes',
      ]);
      expect(restored.code, restored.stderr).toBe(0);
      expect(restored.stdout).toBe(`Restored version 1 of companies #${id}\n`);
      expect(await companyRow(id)).toMatchObject({ description: 'First' });
      const unknown = await run([
        'audit',
        'restore',
        '--table',
        'companies',
        '--record',
        String(id),
        '--number',
        '9',
        '--yes',
      ]);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toBe(
        `error: companies #${id} has no version 9 (finhub audit versions companies ${id} lists them)\n`,
      );
      // One way or the other, not both, and nothing half given.
      expect(
        (await run(['audit', 'restore', '5', '--table', 'companies', '--record', String(id), '--number', '1', '--yes']))
          .code,
      ).toBe(2);
      expect((await run(['audit', 'restore', '--table', 'companies', '--number', '1', '--yes'])).code).toBe(2);
      expect((await run(['audit', 'restore', '--yes'])).code).toBe(2);
    });

    it('lists and restores the baseline version of a record that existed before versioning', async () => {
      const ctx = await userContext(db, admin.id);
      const id = (
        await db
          .insertInto('companies')
          .values({ name: unique('Seeded Co'), type: 'fintech', description: 'As seeded' })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
      await updateRecord(ctx, companies, id, { description: 'First edit' });
      const lines = (await run(['audit', 'versions', 'companies', String(id)])).stdout.trim().split('\n');
      expect(lines[2]).toMatch(new RegExp(`^${await versionOf(id, 1)}\\s+1\\s+baseline\\s+\\S+\\s+system\\s`));
      expect(lines[1]).toContain('Description: As seeded → First edit');
      const restored = await run([
        'audit',
        'restore',
        '--table',
        'companies',
        '--record',
        String(id),
        '--number',
        '1',
        '--yes',
      ]);
      expect(restored.code, restored.stderr).toBe(0);
      expect(await companyRow(id)).toMatchObject({ description: 'As seeded' });
    });

    it('recreates a deleted record from its version with --yes, with its old id', async () => {
      const system = { db, actor: systemActor('system'), meta: {}, runtime: noEngine() };
      const name = unique('Deleted Co');
      const id = (await createRecord(system, companies, { name, type: 'marketing', description: 'Gone soon' }))
        .id as number;
      await deleteRecord(system, companies, id);
      expect(await companyRow(id)).toBeUndefined();
      const result = await run(['--json', 'audit', 'restore', String(await versionOf(id, 2)), '--yes']);
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({
        restored: true,
        created: true,
        version: { tableName: 'companies', recordId: id, version: 2 },
        record: { id, name, description: 'Gone soon' },
      });
      expect(await companyRow(id)).toEqual({ name, description: 'Gone soon' });
      const listed = await run(['audit', 'list', '--table', 'companies', '--record', String(id), '--limit', '1']);
      expect(listed.stdout).toMatch(new RegExp(`create\\s+companies #${id}\\s+cli\\s+Restored version 2`));
      // Plain text names the recreation.
      await deleteRecord(system, companies, id);
      const plain = await run(['audit', 'restore', String(await versionOf(id, 4)), '--yes']);
      expect(plain.stdout).toBe(`Restored version 4 of companies #${id} (the deleted record was recreated)\n`);
    });
  });

  describe('db', () => {
    it('migrate reports an up-to-date database', async () => {
      const migrate = await run(['db', 'migrate']);
      expect(migrate.code, migrate.stderr).toBe(0);
      expect(migrate.stdout).toBe('database is up to date\n');
    });

    // Correctness only: the speed of generation is measured by bench/generate.ts.
    it('generates expenses plus proportional planning rows, with the row counts recomputed', async () => {
      const target = await createPreparedDatabase(dialect);
      try {
        const result = await finhub(target, ['--json', 'db', 'generate', '--rows', '2000']);
        expect(result.code, result.stderr).toBe(0);
        const body = JSON.parse(result.stdout);
        expect(body.inserted).toEqual({
          actual_expenses: 2_000,
          budgets: 200,
          revenue_projections: 100,
          actual_revenue: 200,
          users: 1,
          audit_logs: 2_000,
          data_versions: 200,
          notifications: 100,
        });
        const count = async (table: 'actualExpenses' | 'budgets' | 'actualRevenue') =>
          Number(
            (
              await target.db
                .selectFrom(table)
                .select((eb) => eb.fn.countAll().as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          );
        expect(await count('actualExpenses')).toBe(2_000);
        expect(await count('budgets')).toBe(200);
        // The row-count triggers were off during the load; the counts were recomputed.
        const counted = await target.db
          .selectFrom('rowCounts')
          .select((eb) => eb.fn.sum<number>('rowCount').as('n'))
          .where('tableName', '=', 'actual_expenses')
          .executeTakeFirstOrThrow();
        expect(Number(counted.n)).toBe(2_000);
        // …and back on afterwards.
        const triggers =
          dialect === 'sqlite'
            ? await sql`select name from sqlite_master where type = 'trigger'`.execute(target.db)
            : await sql`select tgname from pg_trigger where not tgisinternal and tgenabled <> 'D'`.execute(target.db);
        expect(triggers.rows.length).toBeGreaterThan(0);
      } finally {
        await target.destroy();
      }
    }, 60_000);
  });
});
