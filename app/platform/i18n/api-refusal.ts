// A screen script's call of the JSON /api, and its refusal in the reader's words. The /api
// answers English (a contract): a refusal whose English is one of the page's catalog messages is
// shown in the reader's language; any other by what its status means, where that says enough
// (signed out, no permission, too many requests, the server's failure), else as it came.
// Browser code.
import type { Translate } from './messages.ts';
import { msg } from './messages.ts';
import type { Reader } from './refusal-words.ts';

/** An /api refusal: its English, its status and the seconds its Retry-After names (null: none). */
export class ApiRefusal extends Error {
  readonly status: number;
  readonly retryAfter: number | null;
  constructor(message: string, status: number, retryAfter: number | null) {
    super(message);
    this.status = status;
    this.retryAfter = retryAfter;
  }
}

/** The refusal a response that is not OK carries (its first field error, else its message). */
export async function apiRefusal(response: Response): Promise<ApiRefusal> {
  const answer = (await response.json().catch(() => null)) as {
    message?: string;
    errors?: { message?: string }[];
  } | null;
  const retryAfter = Number(response.headers.get('Retry-After'));
  return new ApiRefusal(
    answer?.errors?.[0]?.message ?? answer?.message ?? `${response.status}: ${response.statusText}`,
    response.status,
    Number.isInteger(retryAfter) && retryAfter > 0 ? retryAfter : null,
  );
}

/** The JSON answer of an /api call (T: what the route answers), or the refusal it gives. */
export async function callApi<T = unknown>(
  path: string,
  body?: unknown,
  method = body === undefined ? 'GET' : 'POST',
): Promise<T> {
  const response = await fetch(path, {
    method,
    headers:
      body === undefined
        ? { Accept: 'application/json' }
        : { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  });
  if (!response.ok) throw await apiRefusal(response);
  return (await response.json()) as T;
}

const BY_STATUS: Record<number, string> = {
  401: msg('Your session has ended. Please sign in again.'),
  403: msg('You do not have permission to do this.'),
  429: msg('Too many requests. Please try again in a moment.'),
};
const SERVER_FAILED = msg('An unexpected error occurred. Please try again in a moment.');
const UNREACHABLE = msg('The server could not be reached. Check your connection and try again.');

/**
 * What went wrong with an /api call, in the reader's words. `known` words a refusal a screen
 * can rebuild with its values (a limit from its Retry-After).
 */
export function refusalWords(
  { t, locale }: Reader,
  error: unknown,
  known?: (refusal: ApiRefusal, t: Translate) => string | undefined,
): string {
  if (!(error instanceof ApiRefusal))
    return error instanceof TypeError ? t(UNREACHABLE) : String((error as Error)?.message ?? error);
  const rebuilt = known?.(error, t);
  if (rebuilt !== undefined) return rebuilt;
  const said = t(error.message);
  if (locale === 'en' || said !== error.message) return said;
  const generic = BY_STATUS[error.status] ?? (error.status >= 500 ? SERVER_FAILED : undefined);
  return generic ? t(generic) : error.message;
}
