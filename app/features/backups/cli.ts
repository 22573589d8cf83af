// finhub backups list | create | verify | restore | delete
// Backups from the command line: thin commands over app/features/backups/backups.server.ts and
// backup-restore.server.ts, as the system actor `cli` (creates, restores and deletes audited as
// 'cli'). A backup is written by this process itself (no job queue) into BACKUP_DIR, so every
// command works whether or not the web server runs.
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { formatBytes } from '../../platform/lib/format.ts';
import { camelCase, snakeCase } from '../../platform/lib/names.ts';
import { readManifest } from './backup-file.server.ts';
import { foldedSentence } from './backup-retired.server.ts';
import { restoreBackup, type RestoreSource } from './backup-restore.server.ts';
import { SELECTABLE_BACKUP_TABLES } from './backup-tables.server.ts';
import {
  backupFileOf,
  createBackupNow,
  deleteBackup,
  getBackup,
  listBackups,
  verifyBackup,
  verifyBackupFile,
  type Backup,
} from './backups.server.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { isDomainError, notFound } from '../../platform/errors.ts';
import { createOutput, ReportedFailure, UsageError, withDatabase, type GlobalOptions } from '../../../cli/runtime.ts';

/** The tables --tables accepts, as the CLI spells tables elsewhere (snake_case). */
const TABLE_NAMES = SELECTABLE_BACKUP_TABLES.map((t) => snakeCase(t.name));
const SELECTABLE = new Set<string>(SELECTABLE_BACKUP_TABLES.map((t) => t.name));

/** `--tables a,b` (repeatable): snake_case, camelCase and dashed names; the service takes camelCase. */
function tablesOption(raw: string, previous: string[] | undefined): string[] {
  const names = raw
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  if (names.length === 0) throw new UsageError(`--tables needs at least one table (${TABLE_NAMES.join(', ')})`);
  const unknown = names.filter((n) => !SELECTABLE.has(camelCase(n)));
  if (unknown.length) {
    throw new UsageError(
      `Unknown table${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `'${n}'`).join(', ')} in --tables. Tables: ${TABLE_NAMES.join(', ')}`,
    );
  }
  return [...new Set([...(previous ?? []), ...names.map((n) => camelCase(n))])];
}

/** A backup id: digits (ids are 32-bit integers in both databases). */
const isBackupId = (raw: string) => /^\d+$/.test(raw.trim());

function backupId(raw: string): number {
  if (!isBackupId(raw)) throw new UsageError(`<id> must be a backup id (got '${raw}'; finhub backups list shows them)`);
  return Number(raw.trim());
}

async function findBackup(ctx: ServiceContext, id: number): Promise<Backup> {
  if (id > 2_147_483_647) throw notFound(`No backup #${id}`);
  return getBackup(ctx, id).catch((error: unknown) => {
    throw isDomainError(error) && error.kind === 'notFound' ? notFound(`No backup #${id}`) : error;
  });
}

const table = (name: string) => snakeCase(name);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

interface RestorePlan {
  source: RestoreSource;
  /** 'backup #5 "Nightly"' or 'the backup file /path'. */
  what: string;
  name: string;
  createdAt: string;
  rows: number;
  tables: { table: string; rows: number | null }[];
}

/** What a restore would bring back: the backup's row (its manifest's counts), or a file's manifest. */
async function restorePlan(ctx: ServiceContext, target: string): Promise<RestorePlan> {
  if (isBackupId(target)) {
    const backup = await findBackup(ctx, backupId(target));
    const counts = backup.tableCounts ?? {};
    return {
      source: { backupId: backup.id },
      what: `backup #${backup.id} "${backup.name}"`,
      name: backup.name,
      createdAt: backup.createdAt,
      rows: backup.recordCount,
      tables: backup.tables.map((name) => ({ table: name, rows: counts[name] ?? null })),
    };
  }
  const file = path.resolve(target);
  if (!fs.existsSync(file)) throw notFound(`No backup file ${file}`);
  const manifest = await readManifest(file);
  return {
    source: { file },
    what: `the backup file ${file}`,
    name: manifest.name,
    createdAt: manifest.createdAt,
    rows: manifest.rows,
    tables: manifest.tables.map((t) => ({ table: t.name, rows: t.rows })),
  };
}

export function registerBackups(program: Command): void {
  const backups = program
    .command('backups')
    .description('make, list, verify, restore and delete backups (files in BACKUP_DIR; audited as cli)');

  backups
    .command('list')
    .description('backups, newest first')
    .action(async (_options, command: Command) => {
      const out = createOutput(command.optsWithGlobals<GlobalOptions>());
      await withDatabase(async ({ ctx }) => {
        const rows = await listBackups(ctx);
        await out.table(
          [
            { key: 'id', label: 'ID', right: true },
            { key: 'status', label: 'Status' },
            { key: 'type', label: 'Type' },
            { key: 'name', label: 'Name' },
            { key: 'created', label: 'Created' },
            { key: 'size', label: 'Size', right: true },
            { key: 'rows', label: 'Rows', right: true },
            { key: 'tables', label: 'Tables', right: true },
          ],
          rows.map((b) => ({
            id: b.id,
            status: b.status,
            type: b.type,
            name: b.name,
            created: b.createdAt,
            size: b.status === 'completed' ? formatBytes(b.size) : '',
            rows: b.status === 'completed' ? b.recordCount : '',
            tables: b.tables.length,
          })),
          rows,
        );
      });
    });

  backups
    .command('create')
    .description('make a backup now, written by this process (all data tables unless --tables)')
    .option('--name <name>', "the backup's name (default 'Manual Backup' and the time)")
    .option('--description <text>', 'a description')
    .option('--tables <list>', `only these tables, comma-separated: ${TABLE_NAMES.join(', ')}`, tablesOption)
    .option('--include-audit', 'include the audit logs', false)
    .option('--include-versions', 'include the data versions', false)
    .action(
      async (
        options: {
          name?: string;
          description?: string;
          tables?: string[];
          includeAudit: boolean;
          includeVersions: boolean;
        },
        command: Command,
      ) => {
        const out = createOutput(command.optsWithGlobals<GlobalOptions>());
        const input = {
          ...(options.name !== undefined ? { name: options.name } : {}),
          ...(options.description !== undefined ? { description: options.description } : {}),
          tables: options.tables ?? [],
          includeAuditLogs: options.includeAudit,
          includeVersions: options.includeVersions,
        };
        await withDatabase(async ({ ctx, config }) => {
          const summary = ({ backup, file }: { backup: Backup; file: string | null }) =>
            `Backup #${backup.id} completed: ${plural(backup.recordCount, 'row')}, ${formatBytes(backup.size)}, ${file ?? '(no file)'}`;
          const made = await out.task(
            'Creating backup',
            async (task) => {
              const backup = await createBackupNow(ctx, config.backups, input, 'manual', (done, total) =>
                task.update({ done, total }),
              );
              return { backup, file: await backupFileOf(ctx, config.backups, backup.id) };
            },
            summary,
          );
          out.result({ ...made.backup, file: made.file }, out.interactive ? [] : [summary(made)]);
        });
      },
    );

  backups
    .command('verify')
    .description("check a backup: its file's SHA-256 and every row (exit code 1 when invalid)")
    .argument('<backup>', 'a backup id, or the path of a backup file')
    .action(async (target: string, _options, command: Command) => {
      const out = createOutput(command.optsWithGlobals<GlobalOptions>());
      let verdict: { valid: boolean; reason?: string };
      let subject: { backupId: number } | { file: string };
      if (isBackupId(target)) {
        const id = backupId(target);
        subject = { backupId: id };
        verdict = await withDatabase(async ({ ctx, config }) => {
          await findBackup(ctx, id);
          return verifyBackup(ctx, config.backups, id);
        });
      } else {
        const file = path.resolve(target);
        subject = { file };
        const { valid, reason } = await verifyBackupFile(file);
        verdict = { valid, reason };
      }
      out.result({ ...subject, valid: verdict.valid, ...(verdict.valid ? {} : { reason: verdict.reason }) }, [
        verdict.valid ? 'valid' : `invalid: ${verdict.reason}`,
      ]);
      if (!verdict.valid) throw new ReportedFailure('invalid backup');
    });

  backups
    .command('restore')
    .description(
      'restore a backup (all or nothing): add its missing rows, or with --overwrite replace the tables; asks first',
    )
    .argument('<backup>', 'a backup id, or the path of a backup file')
    .option('--overwrite', "make each table hold exactly the backup's rows (a safety backup is taken first)", false)
    .option(
      '--skip-audit-logs',
      "do not bring back the backup's audit entries and data versions (the restore itself is audited all the same)",
      false,
    )
    .option('-y, --yes', 'do not ask for confirmation (needed without a terminal)', false)
    .action(
      async (
        target: string,
        options: { overwrite: boolean; skipAuditLogs: boolean; yes: boolean },
        command: Command,
      ) => {
        const out = createOutput(command.optsWithGlobals<GlobalOptions>());
        await withDatabase(async ({ ctx, config }) => {
          const plan = await restorePlan(ctx, target);
          const lines = [
            `Restoring ${plan.what}${'file' in plan.source ? ` ("${plan.name}")` : ''}, made ${plan.createdAt}`,
            `${plural(plan.rows, 'row')} in ${plural(plan.tables.length, 'table')}: ${plan.tables.map((t) => (t.rows === null ? table(t.table) : `${table(t.table)} ${t.rows}`)).join(', ')}`,
            options.overwrite
              ? "Overwrite: each table will hold exactly the backup's rows (rows it does not hold are deleted); a safety backup is taken first"
              : 'No overwrite: only rows whose ids are missing are added; existing rows stay as they are',
            ...(plan.tables.some((t) => t.table === 'auditLogs' || t.table === 'dataVersions')
              ? [
                  options.skipAuditLogs
                    ? "The backup's audit entries and versions are left out (--skip-audit-logs)"
                    : "The backup's audit entries and versions are only added where missing: the audit trail is never deleted from or rewritten",
                ]
              : []),
          ];
          // The plan is shown before asking, and before a restore run with --yes; a refusal
          // (no terminal, no --yes) prints nothing on stdout.
          if (!out.json && (out.interactive || options.yes)) out.result(null, lines);
          const ok = await out.confirm(
            options.overwrite
              ? `Restore ${plan.what}, replacing the current data of these tables?`
              : `Restore ${plan.what}?`,
            { yes: options.yes, refusal: `Not restoring ${plan.what}` },
          );
          if (!ok) {
            out.result({ restored: false }, ['cancelled: nothing restored']);
            return;
          }
          const result = await out.task(
            options.overwrite ? 'Taking a safety backup' : 'Restoring',
            (task) =>
              restoreBackup(
                ctx,
                config.backups,
                plan.source,
                { overwrite: options.overwrite, skipAuditLogs: options.skipAuditLogs },
                (done, total, name) => task.update({ label: `Restoring ${table(name)}`, done, total }),
              ),
            (r) => `Restored ${plural(r.rows, 'row')} in ${plural(r.tables.length, 'table')}`,
          );
          if (out.json) {
            out.result({ restored: true, ...result }, []);
            return;
          }
          out.result(null, [
            `Restored ${plan.what}: ${plural(result.rows, 'row')} in ${plural(result.tables.length, 'table')}${result.overwrite ? ', overwriting' : ''}`,
            ...(result.folded.length ? [foldedSentence(result.folded)] : []),
            ...(result.safetyBackupId !== null
              ? [
                  `Safety backup #${result.safetyBackupId} holds the data as it was before (finhub backups restore ${result.safetyBackupId} --overwrite to go back)`,
                ]
              : []),
          ]);
          await out.table(
            [
              { key: 'table', label: 'Table' },
              { key: 'rows', label: 'Rows', right: true },
              { key: 'written', label: 'Written', right: true },
              { key: 'deleted', label: 'Deleted', right: true },
            ],
            result.tables.map((t) => ({ table: table(t.table), rows: t.rows, written: t.written, deleted: t.deleted })),
          );
        });
      },
    );

  backups
    .command('delete')
    .description('delete a backup and its file; asks first')
    .argument('<id>', 'the backup id (finhub backups list)', backupId)
    .option('-y, --yes', 'do not ask for confirmation (needed without a terminal)', false)
    .action(async (id: number, options: { yes: boolean }, command: Command) => {
      const out = createOutput(command.optsWithGlobals<GlobalOptions>());
      await withDatabase(async ({ ctx, config }) => {
        const backup = await findBackup(ctx, id);
        const what = `backup #${backup.id} "${backup.name}"`;
        const ok = await out.confirm(`Are you sure you want to delete ${what}? This action cannot be undone.`, {
          yes: options.yes,
          refusal: `Not deleting ${what}`,
        });
        if (!ok) {
          out.result({ deleted: false }, ['cancelled: nothing deleted']);
          return;
        }
        await deleteBackup(ctx, config.backups, id);
        out.result({ deleted: true, backup }, [`Deleted ${what} and its file`]);
      });
    });
}
