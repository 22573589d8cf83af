// The device panel's refusals in the reader's words: the /api's (platform/i18n/api-refusal.ts),
// the test push's limit rebuilt from its Retry-After. Browser code.
import { refusalWords, type ApiRefusal } from '../../platform/i18n/api-refusal.ts';
import type { Translate } from '../../platform/i18n/messages.ts';
import { english, type Reader } from '../../platform/i18n/refusal-words.ts';
import { TEST_PUSH_LIMIT, TEST_PUSHES_PER_MINUTE } from '../notifications/index.ts';

function testPushLimit(refusal: ApiRefusal, t: Translate): string | undefined {
  if (refusal.retryAfter === null) return undefined;
  const values = { max: TEST_PUSHES_PER_MINUTE, seconds: refusal.retryAfter };
  return refusal.message === english(TEST_PUSH_LIMIT, values) ? t(TEST_PUSH_LIMIT, values) : undefined;
}

/** What went wrong in the device panel, in the reader's words (what the browser said, as it said it). */
export const failureWords = (reader: Reader, error: unknown) => refusalWords(reader, error, testPushLimit);
