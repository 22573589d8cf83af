// The device panel's calls of the /api, and what went wrong in the reader's words. Browser code.
import type { Translate } from '../../platform/i18n/messages.ts';
import { english } from '../../platform/i18n/refusal-words.ts';
import { TEST_PUSH_LIMIT, TEST_PUSHES_PER_MINUTE } from '../notifications/index.ts';

/** An /api refusal: its English, and the seconds its Retry-After names (null: none). */
export class ApiRefusal extends Error {
  readonly retryAfter: number | null;
  constructor(message: string, retryAfter: number | null) {
    super(message);
    this.retryAfter = retryAfter;
  }
}

/** The JSON answer of an /api call (T: what the route answers), or the refusal it gives. */
export async function callApi<T = unknown>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  });
  const answer = await response.json().catch(() => null);
  if (!response.ok) {
    const retryAfter = Number(response.headers.get('Retry-After'));
    throw new ApiRefusal(
      answer?.errors?.[0]?.message ?? answer?.message ?? `${response.status}: ${response.statusText}`,
      Number.isInteger(retryAfter) && retryAfter > 0 ? retryAfter : null,
    );
  }
  return answer;
}

/**
 * What went wrong, in the reader's words. The /api answers English: a refusal this panel knows
 * is its catalog's message (the test push's limit rebuilt from its Retry-After); what the
 * browser said comes as the browser worded it.
 */
export function failureWords(t: Translate, error: unknown): string {
  if (!(error instanceof ApiRefusal)) return (error as Error).message;
  if (error.retryAfter !== null) {
    const values = { max: TEST_PUSHES_PER_MINUTE, seconds: error.retryAfter };
    if (error.message === english(TEST_PUSH_LIMIT, values)) return t(TEST_PUSH_LIMIT, values);
  }
  return t(error.message);
}
