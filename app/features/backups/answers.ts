// What the backup calls of /api answer, as zod schemas: the one description of these answers.
// The services' types are these schemas' outputs, and the OpenAPI document describes the
// answers with them (app/features/api-docs), so the code and the document cannot disagree.
import { z } from 'zod';
import { count, instant } from '../../platform/lib/answer-fields.ts';
import type { BackupStatus, BackupType } from '../../../db/types.ts';
import type { Assert, Same } from '../../platform/lib/type-checks.ts';

const BackupTypeAnswer = z.enum(['manual', 'automated', 'scheduled']);
const BackupStatusAnswer = z.enum(['completed', 'failed', 'in_progress']);
type _TypesMatch = Assert<Same<z.output<typeof BackupTypeAnswer>, BackupType>>;
type _StatusesMatch = Assert<Same<z.output<typeof BackupStatusAnswer>, BackupStatus>>;

/** A backup row as the API shows it (never its file's name or path). */
export const BackupAnswer = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  type: BackupTypeAnswer.describe('automated: the safety backup taken before an overwriting restore'),
  status: BackupStatusAnswer,
  createdAt: instant,
  completedAt: instant.nullable().describe('When it completed or failed (null while in progress)'),
  size: count.describe('Bytes of the file'),
  recordCount: count,
  tables: z.array(z.string()).describe('The tables it holds (camelCase)'),
  tableCounts: z.record(z.string(), count).nullable().describe('Rows per table (null until written)'),
  includeAuditLogs: z.boolean(),
  includeVersions: z.boolean(),
  schemaVersion: z.string().nullable(),
  sha256: z.string().nullable(),
  error: z.string().nullable().describe('Why it failed (failed backups only)'),
  createdBy: z.number().int().nullable(),
});
export type Backup = z.output<typeof BackupAnswer>;

/** GET /api/backups: every backup, newest first. */
export const BackupListAnswer = z.array(BackupAnswer);

/** GET /api/backups/{id}/verify: the file against its stored SHA-256, then every row read. */
export const VerificationAnswer = z.strictObject({
  valid: z.boolean(),
  reason: z.string().optional().describe('Why it is not valid (only when valid is false)'),
});
export type Verification = z.output<typeof VerificationAnswer>;

/** One table of a restore. */
export const RestoredTableAnswer = z.strictObject({
  table: z.string(),
  rows: count.describe('Rows in the backup'),
  written: count.describe('Rows written: added (and, with overwrite, replaced)'),
  deleted: count.describe('Rows removed because the backup does not hold them (overwrite only)'),
  via: z
    .enum(['copy', 'insert'])
    .describe('How the rows went in: PostgreSQL’s COPY (a big table that was empty) or INSERT statements'),
});
export type RestoredTable = z.output<typeof RestoredTableAnswer>;

/** A retired table of an older backup, folded into the tables that replaced it. */
export const FoldedTableAnswer = z.strictObject({
  table: z.string(),
  rows: count,
  added: count.describe('Per-company rows added (one per type of each month only the retired table held)'),
  into: z.string(),
});
export type FoldedTable = z.output<typeof FoldedTableAnswer>;

/** What a restore did, from the web or the command line (which may restore a file: no backup id). */
const RestoreOutcome = z.strictObject({
  backupId: z.number().int().nullable(),
  overwrite: z.boolean(),
  tables: z.array(RestoredTableAnswer),
  rows: count,
  safetyBackupId: z.number().int().nullable().describe('The safety backup taken first (overwrite only)'),
  folded: z.array(FoldedTableAnswer),
});
export type RestoreResult = z.output<typeof RestoreOutcome>;

/** POST /api/backups/{id}/restore: always restores a stored backup, so its id is there. */
export const RestoreResultAnswer = RestoreOutcome.extend({ backupId: z.number().int() });

/** GET /api/export/{table}/csv: the table's rows, streamed. */
export const TableCsvAnswer = z
  .string()
  .describe(
    'CSV (RFC 4180): a header row of the column names, then one line per row; cells a spreadsheet would run as a formula start with a single quote',
  );
