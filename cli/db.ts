// finhub db migrate | seed [--demo] | generate --rows N
import type { Command } from 'commander';
import { generateData } from '../db/generate.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { seedIfEmpty } from '../db/seed/index.ts';
import { ensureOwner } from '../app/features/system/bootstrap.server.ts';
import { createOutput, positiveInteger, withDatabase, type GlobalOptions } from './runtime.ts';

export function registerDb(program: Command): void {
  const db = program.command('db').description('database schema, seed data and benchmark data');

  db.command('migrate')
    .description('apply pending migrations')
    .action(async (_options, command: Command) => {
      const out = createOutput(command.optsWithGlobals<GlobalOptions>());
      await withDatabase(async ({ handle }) => {
        const applied = await out.task(
          'Migrating',
          () => migrateToLatest(handle.db),
          (names) => `${names.length} migration(s) applied`,
        );
        out.result(
          { database: handle.location, applied },
          applied.length ? applied.map((name) => `applied ${name}`) : ['database is up to date'],
        );
      });
    });

  db.command('seed')
    .description('seed an empty database: companies, departments, categories and an owner account')
    .option('--demo', 'also add 36 months of demo figures', false)
    .action(async (options: { demo: boolean }, command: Command) => {
      const out = createOutput(command.optsWithGlobals<GlobalOptions>());
      await withDatabase(async ({ handle, config }) => {
        const result = await out.task(
          'Seeding',
          async () => {
            await migrateToLatest(handle.db);
            const seeded = await seedIfEmpty(handle.db, { demo: options.demo });
            const owner = await ensureOwner(handle.db, config.owner);
            return { seeded, owner };
          },
          ({ seeded }) => (seeded.length ? `seeded: ${seeded.join(', ')}` : 'database already has data'),
        );
        const lines = [
          result.seeded.length
            ? `seeded reference data${options.demo ? ' and 36 months of demo figures' : ''}`
            : 'database already has data: nothing seeded',
        ];
        if (result.owner.created) {
          lines.push(`owner account: ${result.owner.email}`);
          if (result.owner.temporaryPassword)
            lines.push('temporary password (shown once, change it at first sign-in):', result.owner.temporaryPassword);
        }
        out.result(
          { database: handle.location, seeded: result.seeded, owner: result.owner.created ? result.owner : null },
          lines,
        );
      });
    });

  db.command('generate')
    .description(
      'add N realistic actual expenses plus proportional budgets, revenue, users, audit trail and notifications (benchmarks)',
    )
    .requiredOption('--rows <n>', 'actual-expense rows to add', positiveInteger('--rows'))
    .option('--expenses-only', 'only actual expenses, no budgets, revenue, users, audit trail or notifications', false)
    .option('--seed <n>', 'random seed (repeatable data)', positiveInteger('--seed'))
    .action(async (options: { rows: number; expensesOnly: boolean; seed?: number }, command: Command) => {
      const out = createOutput(command.optsWithGlobals<GlobalOptions>());
      await withDatabase(async ({ handle, config }) => {
        await migrateToLatest(handle.db);
        await seedIfEmpty(handle.db, { demo: false });
        const result = await out.task(
          `Generating ${options.rows.toLocaleString('en-US')} actual expenses`,
          (task) =>
            generateData(handle, {
              rows: options.rows,
              related: !options.expensesOnly,
              seed: options.seed,
              url: config.databaseUrl,
              onProgress: ({ table, done, total }) => task.update({ label: `Generating ${table}`, done, total }),
            }),
          (r) => `${r.inserted.actual_expenses.toLocaleString('en-US')} actual expenses in ${r.seconds.toFixed(1)} s`,
        );
        out.result(result, [
          ...Object.entries(result.inserted)
            .filter(([, n]) => n > 0)
            .map(([table, n]) => `${table}: ${n.toLocaleString('en-US')} rows added`),
          `${result.seconds.toFixed(2)} s, ${result.rowsPerSecond.toLocaleString('en-US')} rows/s (${result.location})`,
        ]);
      });
    });
}
