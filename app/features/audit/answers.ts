// What the audit-trail calls of /api answer, as zod schemas: the one description of these
// answers. The services' types are these schemas' outputs, and the OpenAPI document describes
// the answers with them (app/features/api-docs), so the code and the document cannot disagree.
import type { Selectable } from 'kysely';
import { z } from 'zod';
import { instant } from '../../platform/lib/answer-fields.ts';
import type { SecurityAnomaliesTable } from '../../../db/types.ts';
import type { Assert, Same } from '../../platform/lib/type-checks.ts';
import { resourceRowSchema } from '../../platform/resources/row-schema.ts';
import { RESOURCE_LIST } from '../resources.ts';

/** One changed field of an entry: its form label and its old and new values as the screens show them ('—': none). */
export const ReadableChangeAnswer = z.strictObject({
  field: z.string(),
  label: z.string(),
  old: z.string(),
  new: z.string(),
});
export type ReadableChange = z.output<typeof ReadableChangeAnswer>;

/** One field of a version's data: its label and its value as text. */
export const ReadableFieldAnswer = z.strictObject({
  field: z.string(),
  label: z.string(),
  value: z.string(),
});
export type ReadableField = z.output<typeof ReadableFieldAnswer>;

/** What an anomaly's deletes removed: per table (as its screen is titled), how many records. */
export const DeletedTallyAnswer = z.strictObject({
  table: z.string(),
  count: z.number().int().min(1),
});
export type DeletedTally = z.output<typeof DeletedTallyAnswer>;

/** An audit entry as the services read it. */
export const AuditLogEntryAnswer = z.strictObject({
  id: z.number().int(),
  action: z.string(),
  tableName: z.string().describe('snake_case'),
  recordId: z.number().int().nullable(),
  userId: z.number().int().nullable(),
  username: z.string().describe('The author’s username, else what acted (the CLI, a job) or "system"'),
  user: z.strictObject({ id: z.number().int(), username: z.string() }).nullable(),
  timestamp: instant,
  reason: z.string().nullable(),
  changes: z
    .record(z.string(), z.strictObject({ old: z.unknown(), new: z.unknown() }))
    .nullable()
    .describe('The stored values before and after, by column'),
  ipAddress: z.string().nullable(),
});
export type AuditLogEntry = z.output<typeof AuditLogEntryAnswer>;

/** GET /api/audit-logs: an entry with its changes labelled as the screens show them. */
export const AuditLogAnswer = AuditLogEntryAnswer.extend({ readableChanges: z.array(ReadableChangeAnswer) });
export const AuditLogListAnswer = z.array(AuditLogAnswer);

/** A version of a record; `fields` only where the versions of one record are listed. */
export const DataVersionAnswer = z.strictObject({
  id: z.number().int(),
  tableName: z.string().describe('snake_case'),
  recordId: z.number().int(),
  version: z.number().int().min(1),
  action: z.string(),
  isActive: z.boolean(),
  createdAt: instant,
  createdBy: z.number().int().nullable(),
  createdByName: z
    .string()
    .nullable()
    .describe('The author’s username (null: the system, the CLI, or a deleted account)'),
  comment: z.string().nullable(),
  data: z.record(z.string(), z.unknown()).nullable(),
  fields: z
    .array(ReadableFieldAnswer)
    .optional()
    .describe('The data labelled and formatted as the screens show it (the record’s id left out)'),
});
export type DataVersion = z.output<typeof DataVersionAnswer>;

/** GET /api/data-versions: the versions of one record, each with its fields. */
export const DataVersionListedAnswer = DataVersionAnswer.extend({ fields: z.array(ReadableFieldAnswer) });
export type ListedDataVersion = z.output<typeof DataVersionListedAnswer>;
export const DataVersionListAnswer = z.array(DataVersionListedAnswer);

/** POST /api/data-versions/{id}/restore: the version restored and the record as it is now. */
export const VersionRestoreAnswer = z.strictObject({
  restored: z.number().int().min(1).describe('The version number restored'),
  created: z.boolean().describe('true: the record had been deleted and was created again with its id'),
  record: z
    .union(RESOURCE_LIST.filter((def) => !def.readOnly).map((def) => resourceRowSchema(def)))
    .describe('The row as its resource answers it'),
});

/** A recorded security anomaly: a row of the table, as it is. */
export const SecurityAnomalyAnswer = z.strictObject({
  id: z.number().int(),
  userId: z.number().int().nullable(),
  username: z.string(),
  anomalyType: z.string(),
  deleteCount: z.number().int().min(0),
  windowStart: instant,
  windowEnd: instant,
  description: z.string(),
  createdAt: instant,
});
export type SecurityAnomaly = z.output<typeof SecurityAnomalyAnswer>;
type _AnomalyRowMatches = Assert<Same<Selectable<SecurityAnomaliesTable>, SecurityAnomaly>>;

/** GET /api/audit-logs/anomalies: an anomaly with what its deletes removed. */
export const AnomalyAnswer = SecurityAnomalyAnswer.extend({ deleted: z.array(DeletedTallyAnswer) });
export const AnomalyListAnswer = z.array(AnomalyAnswer);
