// Server errors (an unexpected exception behind a 500) recorded for System Monitoring's Error
// Tracking: grouped by fingerprint (recordSystemError), with the method, the path with its ids
// replaced by ':id', the stack and the signed-in user it happened to. Recording never throws:
// a failure to record (the database down) is only logged.
import type { Db } from '../context.ts';
import { recordSystemError } from '../system-errors.server.ts';

const MAX_MESSAGE = 2000;
const MAX_STACK = 8000;

/** '/api/users/42/deactivate' → '/api/users/:id/deactivate'. */
export function endpointOf(path: string): string {
  return path.replace(/\/\d+(?=\/|$)/g, '/:id').slice(0, 255);
}

export async function captureServerError(
  db: Db,
  error: unknown,
  where: { method: string; path: string; userId?: number | null },
): Promise<void> {
  try {
    const err = error instanceof Error ? error : new Error(String(error));
    await recordSystemError(db, {
      severity: 'high',
      errorType: err.name || 'Error',
      message: (err.message || 'Unknown error').slice(0, MAX_MESSAGE),
      endpoint: endpointOf(where.path),
      method: where.method.slice(0, 10),
      stack: err.stack?.slice(0, MAX_STACK) ?? null,
      userId: where.userId ?? null,
    });
  } catch (recordFailure) {
    console.error('[errors] could not record a server error:', recordFailure);
  }
}
