// Recording a system error for System Monitoring's Error Tracking: the web process's unexpected
// errors (http/error-capture.server.ts) and the job engine's failures are grouped by
// fingerprint. Reading, resolving and recovery are System Monitoring's (the system area).
import crypto from 'node:crypto';
import { inTransaction, type Db } from './context.ts';
import { toJson } from '../../db/dialect.ts';
import type { ErrorSeverity } from '../../db/types.ts';

export interface SystemErrorInput {
  severity?: ErrorSeverity;
  errorType: string;
  message: string;
  endpoint?: string | null;
  method?: string | null;
  stack?: string | null;
  details?: Record<string, unknown> | null;
  /** The signed-in user the error happened to: counted once in affectedUsers. */
  userId?: number | null;
  /**
   * Identifies this occurrence (e.g. the dead-letter job id): recording the same occurrence
   * twice (at-least-once delivery) counts it once.
   */
  occurrenceKey?: string;
}

/** Affected users are counted by id up to this many; later ones are not told apart. */
export const MAX_TRACKED_USERS = 1000;

/** The message without what varies between repeats of one fault: ids, numbers, quoted values, hex. */
export function messageShape(message: string): string {
  return message
    .replace(/"[^"]*"|'[^']*'/g, '?')
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '#')
    .replace(/\b0x[0-9a-f]+\b/gi, '#')
    .replace(/\d+(\.\d+)?/g, '#');
}

export function errorFingerprint(
  input: Pick<SystemErrorInput, 'errorType' | 'message' | 'endpoint' | 'method'>,
): string {
  return crypto
    .createHash('sha256')
    .update([input.errorType, input.method ?? '', input.endpoint ?? '', messageShape(input.message)].join('\n'))
    .digest('hex');
}

/**
 * Records an error; an unresolved error with the same fingerprint (type, method, endpoint and
 * message shape) counts one more occurrence instead of adding a row, with the latest message
 * and stack.
 */
export async function recordSystemError(db: Db, input: SystemErrorInput): Promise<number> {
  const now = new Date().toISOString();
  const fingerprint = errorFingerprint(input);
  return inTransaction(db, async (trx) => {
    const existing = await trx
      .selectFrom('systemErrors')
      .select(['id', 'occurrenceCount', 'details'])
      .where('fingerprint', '=', fingerprint)
      .where('isResolved', '=', false)
      .orderBy('id')
      .executeTakeFirst();
    const previous = (existing?.details ?? {}) as { occurrenceKey?: string; affectedUserIds?: number[] };
    const users = new Set(previous.affectedUserIds ?? []);
    if (input.userId != null && users.size < MAX_TRACKED_USERS) users.add(input.userId);
    const details = {
      ...input.details,
      ...(input.occurrenceKey ? { occurrenceKey: input.occurrenceKey } : {}),
      ...(users.size ? { affectedUserIds: [...users] } : {}),
    };
    const stored = Object.keys(details).length ? details : null;
    if (existing) {
      if (input.occurrenceKey && previous.occurrenceKey === input.occurrenceKey) return existing.id;
      await trx
        .updateTable('systemErrors')
        .set({
          occurrenceCount: existing.occurrenceCount + 1,
          lastOccurrence: now,
          message: input.message,
          stack: input.stack ?? null,
          details: toJson(stored),
          affectedUsers: users.size,
        })
        .where('id', '=', existing.id)
        .execute();
      return existing.id;
    }
    const row = await trx
      .insertInto('systemErrors')
      .values({
        severity: input.severity ?? 'high',
        errorType: input.errorType,
        message: input.message,
        endpoint: input.endpoint ?? null,
        method: input.method ?? null,
        stack: input.stack ?? null,
        details: toJson(stored),
        affectedUsers: users.size,
        fingerprint,
        firstOccurrence: now,
        lastOccurrence: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  });
}
