// finhub audit list | versions | restore
// The audit trail from the command line: thin commands over app/features/audit/audit-trail.server.ts,
// as the system actor `cli` (every entry and version is visible; a restore is audited as 'cli').
import type { Command } from 'commander';
import { camelCase, snakeCase } from '../../platform/lib/names.ts';
import {
  AUDIT_ACTIONS,
  getDataVersion,
  listAuditLogs,
  listDataVersions,
  parseAuditQuery,
  restoreVersion,
  type AuditLogEntry,
  type AuditQuery,
  type DataVersion,
} from './audit-trail.server.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { isDomainError, notFound } from '../../platform/errors.ts';
import { findUserIdByKey } from '../users/index.server.ts';
import { AUDITED_TABLES } from '../resources.ts';
import { differences } from './values.ts';
import {
  cliIo,
  createOutput,
  positiveInteger,
  UsageError,
  withDatabase,
  type GlobalOptions,
} from '../../../cli/runtime.ts';

interface ListOptions {
  table?: string;
  record?: string;
  user?: string;
  action?: string;
  limit?: number;
}

/** The query's field → the flag that set it, for usage errors. */
const FLAGS: Record<string, string> = {
  tableName: '--table',
  recordId: '--record',
  userId: '--user',
  action: '--action',
  limit: '--limit',
};

/** 'actual-expenses', 'actualExpenses' and 'actual_expenses' are the same table. */
const tableName = (raw: string) => snakeCase(camelCase(raw.trim()));

/** A user id (digits), e-mail address or username (case-insensitive); a deleted user's id still filters. */
async function userId(ctx: ServiceContext, key: string): Promise<number> {
  const id = await findUserIdByKey(ctx.db, key);
  if (id === undefined) throw notFound(`No user '${key}' (give a user id, username or e-mail address)`);
  return id;
}

/** The audit query from the flags: a value the query refuses is a usage error naming the flag. */
function query(input: Record<string, unknown>): AuditQuery {
  try {
    return parseAuditQuery(input);
  } catch (error) {
    if (isDomainError(error) && error.kind === 'invalid' && error.errors?.length) {
      throw new UsageError(error.errors.map((e) => `${FLAGS[e.field] ?? e.field}: ${e.message}`).join('; '));
    }
    throw error;
  }
}

/** A record's versions, newest first; a table or id the trail does not know is a usage error. */
async function versionsOf(ctx: ServiceContext, table: string, recordId: string): Promise<DataVersion[]> {
  try {
    return await listDataVersions(ctx, { tableName: tableName(table), recordId });
  } catch (error) {
    if (isDomainError(error) && error.kind === 'invalid')
      throw new UsageError(`${table} #${recordId}: ${error.errors?.map((e) => e.message).join('; ') ?? error.message}`);
    throw error;
  }
}

/** The data version to restore: by id, or by the record and its version number. */
async function chosenVersion(
  ctx: ServiceContext,
  versionId: number | undefined,
  options: { table?: string; record?: string; number?: number },
): Promise<DataVersion> {
  if (versionId !== undefined) {
    return getDataVersion(ctx, versionId).catch((error: unknown) => {
      throw isDomainError(error) && error.kind === 'notFound' ? notFound(`No data version ${versionId}`) : error;
    });
  }
  const found = (await versionsOf(ctx, options.table!, options.record!)).find((v) => v.version === options.number);
  if (!found)
    throw notFound(
      `${tableName(options.table!)} #${options.record} has no version ${options.number} (finhub audit versions ${tableName(options.table!)} ${options.record} lists them)`,
    );
  return found;
}

/** What a version changed from the one before it, in the screens' words ('Amount: $1,234.50 → $999.99'). */
function changedFields(version: DataVersion, previous: DataVersion | undefined): string {
  if (!previous) return '';
  const label = (v: DataVersion, field: string) => v.fields?.find((f) => f.field === field);
  return differences(previous.data, version.data)
    .filter((d) => d.field !== 'updatedAt')
    .map(
      (d) =>
        `${label(version, d.field)?.label ?? label(previous, d.field)?.label ?? d.field}: ${label(previous, d.field)?.value ?? '—'} → ${label(version, d.field)?.value ?? '—'}`,
    )
    .join('; ');
}

const recordOf = (entry: AuditLogEntry) =>
  entry.recordId === null ? entry.tableName : `${entry.tableName} #${entry.recordId}`;

export function registerAudit(program: Command): void {
  const audit = program
    .command('audit')
    .description('read the audit trail and restore data versions (restores audited as cli)');

  audit
    .command('list')
    .description('list audit log entries, newest first')
    .option(
      '--table <table>',
      `only this table (snake_case: ${AUDITED_TABLES.slice(0, 3)
        .map((t) => t.value)
        .join(', ')}, …)`,
    )
    .option('--record <id>', 'only entries about this record id')
    .option('--user <user>', 'only entries by this user (id, username or e-mail address)')
    .option('--action <action>', `only this action (${AUDIT_ACTIONS.join(', ')})`)
    .option('--limit <n>', 'at most N entries (default 25, at most 1000)', positiveInteger('--limit'))
    .action(async (options: ListOptions, command: Command) => {
      const out = createOutput(command.optsWithGlobals<GlobalOptions>());
      const input: Record<string, unknown> = {
        tableName: options.table === undefined ? undefined : tableName(options.table),
        recordId: options.record,
        action: options.action,
        limit: options.limit === undefined ? undefined : String(options.limit),
      };
      // The flags are checked before the database is opened; --user needs it to be resolved.
      query(input);
      await withDatabase(async ({ ctx }) => {
        const filter = query(
          options.user === undefined ? input : { ...input, userId: String(await userId(ctx, options.user)) },
        );
        const { rows, total } = await listAuditLogs(ctx, filter);
        await out.table(
          [
            { key: 'timestamp', label: 'Timestamp' },
            { key: 'action', label: 'Action' },
            { key: 'record', label: 'Record' },
            { key: 'username', label: 'User' },
            { key: 'reason', label: 'Reason' },
          ],
          rows.map((entry) => ({
            timestamp: entry.timestamp,
            action: entry.action,
            record: recordOf(entry),
            username: entry.username,
            reason: entry.reason ?? '',
          })),
          rows,
        );
        if (!out.json && rows.length < total)
          cliIo().stderr.write(`${rows.length} of ${total} entries shown (--limit N for more)\n`);
      });
    });

  audit
    .command('versions')
    .description("list a record's data versions, newest first, with the ids restore takes")
    .argument(
      '<table>',
      `the table (snake_case: ${AUDITED_TABLES.slice(0, 3)
        .map((t) => t.value)
        .join(', ')}, …)`,
    )
    .argument('<recordId>', 'the record id')
    .action(async (table: string, recordId: string, _options: unknown, command: Command) => {
      const out = createOutput(command.optsWithGlobals<GlobalOptions>());
      await withDatabase(async ({ ctx }) => {
        const versions = await versionsOf(ctx, table, recordId);
        await out.table(
          [
            { key: 'id', label: 'Id' },
            { key: 'version', label: 'Version' },
            { key: 'action', label: 'Action' },
            { key: 'createdAt', label: 'Created' },
            { key: 'author', label: 'By' },
            { key: 'current', label: 'Current' },
            { key: 'changes', label: 'Changes' },
            { key: 'comment', label: 'Comment' },
          ],
          versions.map((v, i) => ({
            id: v.id,
            version: v.version,
            action: v.action,
            createdAt: v.createdAt,
            author: v.createdByName ?? (v.createdBy === null ? 'system' : `#${v.createdBy}`),
            current: v.isActive ? 'yes' : '',
            changes: changedFields(v, versions[i + 1]),
            comment: v.comment ?? '',
          })),
          versions,
        );
        if (!out.json && versions.length === 0)
          cliIo().stderr.write(`No version history found for ${tableName(table)} #${recordId}\n`);
      });
    });

  audit
    .command('restore')
    .description(
      "give a record a version's data back (an update; a deleted record is recreated with its id); asks first",
    )
    .argument(
      '[versionId]',
      "the data version id (finhub audit versions, GET /api/data-versions, or the record's history)",
      positiveInteger('[versionId]'),
    )
    .option('--table <table>', "with --record and --number: the record's table, instead of a version id")
    .option('--record <id>', 'with --table and --number: the record id')
    .option('--number <n>', 'with --table and --record: the version number', positiveInteger('--number'))
    .option('-y, --yes', 'do not ask for confirmation (needed without a terminal)', false)
    .action(
      async (
        versionId: number | undefined,
        options: { yes: boolean; table?: string; record?: string; number?: number },
        command: Command,
      ) => {
        const out = createOutput(command.optsWithGlobals<GlobalOptions>());
        const byRecord = options.table !== undefined || options.record !== undefined || options.number !== undefined;
        if (versionId !== undefined && byRecord)
          throw new UsageError('give a version id, or --table, --record and --number, not both');
        if (
          versionId === undefined &&
          (options.table === undefined || options.record === undefined || options.number === undefined)
        ) {
          throw new UsageError(
            'give a version id, or --table, --record and --number (finhub audit versions <table> <recordId> lists them)',
          );
        }
        await withDatabase(async ({ ctx }) => {
          const version = await chosenVersion(ctx, versionId, options);
          const what = `version ${version.version} of ${version.tableName} #${version.recordId}`;
          const ok = await out.confirm(`Restore ${what}? Its current data is replaced (and stays in its history).`, {
            yes: options.yes,
            refusal: `Not restoring ${what}`,
          });
          if (!ok) {
            out.result({ restored: false }, ['cancelled: nothing restored']);
            return;
          }
          const result = await restoreVersion(ctx, version.id);
          out.result(
            {
              restored: true,
              created: result.created,
              version: {
                id: version.id,
                tableName: version.tableName,
                recordId: version.recordId,
                version: version.version,
              },
              record: result.record,
            },
            [`Restored ${what}${result.created ? ' (the deleted record was recreated)' : ''}`],
          );
        });
      },
    );
}
