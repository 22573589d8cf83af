// A request's unexpected error (behind a 500) goes to Error Tracking with the user it happened
// to (the session already resolved for the request, if any). Domain errors are answers, not
// faults: they are never recorded.
import type { AppLoadContext } from '@remix-run/node';
import { captureServerError } from './error-capture.server.ts';
import { isDomainError } from '../errors.ts';
import { getAuth } from '../session/session.server.ts';

export async function reportServerError(request: Request, context: AppLoadContext, error: unknown): Promise<void> {
  if (isDomainError(error) || error instanceof Response) return;
  const auth = await getAuth(request, context).catch(() => null);
  await captureServerError(context.db, error, {
    method: request.method,
    path: new URL(request.url).pathname,
    userId: auth?.user.id ?? null,
  });
}
