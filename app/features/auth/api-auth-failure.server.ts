// How the sign-in calls of /api answer a refusal: the old client reads { success, error }; the
// API's error shape adds { message, errors } (docs/api.md); a throttle adds Retry-After.
import { apiJson } from '../../platform/api/api.server.ts';
import { isDomainError } from '../../platform/errors.ts';

export function apiAuthFailure(error: unknown): Response {
  if (!isDomainError(error)) throw error;
  const headers: Record<string, string> = error.retryAfter ? { 'Retry-After': String(error.retryAfter) } : {};
  return apiJson(
    {
      success: false,
      error: error.message,
      message: error.message,
      ...(error.errors ? { errors: error.errors } : {}),
    },
    { status: error.status, headers },
  );
}
