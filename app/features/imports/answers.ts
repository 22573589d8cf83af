// What the import calls of /api answer, as zod schemas: the one description of these answers,
// from which the OpenAPI document describes them (app/features/api-docs).
import { z } from 'zod';
import { count, instant } from '../../platform/lib/answer-fields.ts';

const RowErrorAnswer = z.strictObject({
  line: z.number().int().describe('The line of the file the row ends on (the header is line 1)'),
  field: z.string().describe('The field (its API name), or "id" / "body"'),
  message: z.string(),
});

/** An import: its file, where it stands, and what its check or run found. */
export const ImportAnswer = z.strictObject({
  id: z.number().int(),
  table: z.string().describe('The resource imported into (its /api path segment)'),
  fileName: z.string(),
  fileSize: count,
  sha256: z.string(),
  phase: z.enum(['check', 'import']).describe('check: a dry run, nothing written'),
  mode: z.enum(['all', 'valid']).nullable().describe('all: every row or none; valid: the valid rows only'),
  updateById: z.boolean(),
  status: z.enum(['queued', 'running', 'checked', 'completed', 'failed']),
  rowsRead: count.describe('Rows read so far'),
  rows: count.nullable().describe('Rows in the file (once read)'),
  valid: count.nullable(),
  invalid: count.nullable(),
  created: count.nullable(),
  updated: count.nullable(),
  unchanged: count.nullable(),
  columns: z
    .record(z.string(), z.string().nullable())
    .nullable()
    .describe('Each field and the header of the column it is read from (null: none)'),
  missing: z.array(z.string()).describe('Required fields no column feeds'),
  errors: z.array(RowErrorAnswer).describe('The first refused rows (100 at most)'),
  error: z.string().nullable().describe('Why it failed'),
  summary: z.string(),
  createdAt: instant,
  startedAt: instant.nullable(),
  finishedAt: instant.nullable(),
  importedAt: instant.nullable().describe('When its rows were written'),
});
export type ImportAnswerType = z.output<typeof ImportAnswer>;
