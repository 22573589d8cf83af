// The database layer (docs/data-model.md): one migration set on both dialects, idempotent; SQLite
// pragmas; the reference seed; the same value shapes whatever the dialect.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from '../test/database.ts';
import { migrateToLatest } from './migrate.ts';
import { migrations } from './migrations/index.ts';
import { seedIfEmpty, seedModules } from './seed/index.ts';

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const TABLES = [
  'companies',
  'departments',
  'expense_categories',
  'users',
  'user_sessions',
  'user_settings',
  'audit_logs',
  'data_versions',
  'login_attempts',
  'rate_limit_counters',
];

async function tableNames(database: TestDatabase): Promise<string[]> {
  if (database.dialect === 'sqlite') {
    const rows = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(database.db);
    return rows.rows.map((r) => r.name);
  }
  const rows = await sql<{
    name: string;
  }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(
    database.db,
  );
  return rows.rows.map((r) => r.name);
}

const count = async (database: TestDatabase, table: 'companies' | 'departments' | 'expenseCategories') =>
  Number(
    (
      await database.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe.each(TEST_DIALECTS)('database on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(() => database?.destroy());

  it('migrates an empty database, and a second run is a no-op', async () => {
    expect(await migrateToLatest(database.db)).toEqual(Object.keys(migrations));
    const tables = await tableNames(database);
    for (const table of TABLES) expect(tables, table).toContain(table);
    expect(await migrateToLatest(database.db)).toEqual([]);
    expect((await tableNames(database)).sort()).toEqual(tables.sort());
  });

  it('seeds the reference data once', async () => {
    expect(await seedIfEmpty(database.db, { demo: false })).toEqual(seedModules.map((m) => m.name));

    const companies = await database.db.selectFrom('companies').select(['name', 'type']).orderBy('id').execute();
    expect(companies).toEqual([
      { name: 'One Network', type: 'mobile' },
      { name: 'Vult', type: 'fintech' },
      { name: 'Atlas Infrastructure', type: 'infrastructure' },
      { name: 'Spark Marketing', type: 'marketing' },
    ]);
    const departments = await database.db.selectFrom('departments').select('name').orderBy('name').execute();
    expect(departments.map((d) => d.name)).toEqual(
      [
        'Finance',
        'Human Resources',
        'Marketing',
        'Sales',
        'Engineering',
        'IT',
        'Operations',
        'Legal',
        'Customer Support',
        'Product',
        'Procurement',
        'Administration',
        'Research & Development',
        'Compliance',
        'Network Operations',
        'Business Development',
      ].sort(),
    );

    const categories = await database.db
      .selectFrom('expenseCategories as c')
      .innerJoin('companies as co', 'co.id', 'c.companyId')
      .leftJoin('departments as d', 'd.id', 'c.departmentId')
      .select(['co.name as company', 'c.name', 'c.departmentId', 'd.name as department'])
      .execute();
    const byCompany = (name: string) => categories.filter((c) => c.company === name).map((c) => c.name);
    for (const company of companies) {
      const names = byCompany(company.name);
      expect(names.length, company.name).toBeGreaterThanOrEqual(10);
      expect(new Set(names).size, company.name).toBe(names.length);
      expect(names, company.name).toContain('Salaries & Wages');
    }
    expect(byCompany('One Network')).toEqual(expect.arrayContaining(['Spectrum Licences', 'Tower Leases']));
    expect(byCompany('Vult')).toEqual(expect.arrayContaining(['Payment Processing Fees', 'Card Issuing']));
    expect(byCompany('Vult')).not.toContain('Spectrum Licences');
    // Every category's department exists.
    for (const c of categories) if (c.departmentId !== null) expect(c.department, c.name).not.toBeNull();

    const before = {
      companies: await count(database, 'companies'),
      categories: await count(database, 'expenseCategories'),
    };
    expect(await seedIfEmpty(database.db, { demo: false })).toEqual([]);
    expect(await count(database, 'companies')).toBe(before.companies);
    expect(await count(database, 'departments')).toBe(16);
    expect(await count(database, 'expenseCategories')).toBe(before.categories);
  });

  it('migrating again after seeding changes nothing', async () => {
    const companies = await count(database, 'companies');
    expect(await migrateToLatest(database.db)).toEqual([]);
    expect(await count(database, 'companies')).toBe(companies);
  });

  it('returns booleans, parsed JSON and ISO instants on either dialect', async () => {
    const user = await database.db
      .insertInto('users')
      .values({ username: 'shapes', email: 'shapes@example.com', passwordHash: 'x', role: 'viewer', canDelete: true })
      .returningAll()
      .executeTakeFirstOrThrow();
    expect(user.isActive).toBe(true);
    expect(user.canDelete).toBe(true);
    expect(user.canCreate).toBe(false);
    expect(user.createdAt).toMatch(ISO_INSTANT);
    expect(user.loginCount).toBe(0);

    const settings = await database.db
      .insertInto('userSettings')
      .values({ userId: user.id })
      .returningAll()
      .executeTakeFirstOrThrow();
    expect(settings.notificationTypes).toEqual({
      system: true,
      financial: true,
      api: true,
      user: true,
      security: true,
    });
    expect(settings.dashboardLayout).toEqual({
      cards: ['stats', 'activity', 'health'],
      autoRefresh: true,
      refreshInterval: 30,
    });
    expect(settings).toMatchObject({ sessionTimeout: 30, autoLogout: 480, theme: 'light', compactSidebar: false });

    // Filtering on a boolean works the same way.
    const found = await database.db
      .selectFrom('users')
      .select('id')
      .where('canDelete', '=', true)
      .where('email', '=', 'shapes@example.com')
      .execute();
    expect(found).toHaveLength(1);

    const instant = '2031-01-02T03:04:05.678Z';
    await database.db.updateTable('users').set({ lastLoginAt: instant }).where('id', '=', user.id).execute();
    const reread = await database.db
      .selectFrom('users')
      .select('lastLoginAt')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(reread.lastLoginAt).toBe(instant);
  });

  it('enforces foreign keys and check constraints', async () => {
    await expect(
      database.db.insertInto('expenseCategories').values({ companyId: 987654, name: 'Orphan' }).execute(),
    ).rejects.toThrow();
    await expect(
      database.db
        .insertInto('companies')
        .values({ name: 'Bad Type', type: 'bakery' as any })
        .execute(),
    ).rejects.toThrow();
    await expect(
      database.db
        .insertInto('users')
        .values({ username: 'bad-role', email: 'bad-role@example.com', passwordHash: 'x', role: 'god' as any })
        .execute(),
    ).rejects.toThrow();
    // A company still used by categories cannot be deleted.
    await expect(database.db.deleteFrom('companies').where('name', '=', 'Vult').execute()).rejects.toThrow();
  });

  if (dialect === 'sqlite') {
    it('opens SQLite with WAL, foreign keys, a busy timeout and full sync', async () => {
      const pragma = async (name: string) =>
        Object.values((await sql.raw(`pragma ${name}`).execute(database.db)).rows[0] as object)[0];
      expect(String(await pragma('journal_mode')).toLowerCase()).toBe('wal');
      expect(await pragma('foreign_keys')).toBe(1);
      expect(await pragma('busy_timeout')).toBe(5000);
      expect(await pragma('synchronous')).toBe(2); // FULL
    });
  }

  if (dialect === 'postgres') {
    it('a connection the server ends while it is checked out fails its transaction, not the process', async () => {
      // An unhandled 'error' event would be an uncaught exception, which fails this run.
      const ended = database.db.transaction().execute(async (trx) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
        await sql`select pg_terminate_backend(${rows[0].pid})`.execute(database.db);
        // Checked out, between two queries, when the server's notice arrives.
        await new Promise((resolve) => setTimeout(resolve, 200));
        await sql`select 1`.execute(trx);
      });
      await expect(ended).rejects.toThrow();
      // The pool goes on with a new connection.
      expect((await sql<{ one: number }>`select 1 as one`.execute(database.db)).rows[0].one).toBe(1);
    });

    it('migrates each schema on its own (another schema’s bookkeeping is not mistaken for ours)', async () => {
      const other = await createTestDatabase('postgres');
      try {
        expect(await migrateToLatest(other.db)).toEqual(Object.keys(migrations));
        expect(await tableNames(other)).toEqual(expect.arrayContaining(TABLES));
      } finally {
        await other.destroy();
      }
    });
  }
});
