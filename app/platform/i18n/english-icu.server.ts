// English texts the server writes outside any reader's catalog (the /api's analysis texts, the AI's
// English wording), with ICU plurals and selects: English needs no catalog, so each message is
// compiled the first time it is used.
import { setupI18n } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import type { Translate } from './messages.ts';
import type { Reader } from './refusal-words.ts';

/**
 * `grouping: false` writes numbers in plurals as 1234, not 1,234 (what the /api has always
 * written).
 */
export function englishIcu(options: { grouping?: boolean } = {}): Translate {
  const i18n = setupI18n({ locale: 'en', messages: { en: {} } });
  const compiled = new Set<string>();
  const formats = options.grouping === false ? { number: { useGrouping: false } } : undefined;
  return (message, values) => {
    if (!compiled.has(message)) {
      i18n.load('en', { [message]: compileMessage(message) as never });
      compiled.add(message);
    }
    return i18n._(message, values as Record<string, unknown>, formats ? { formats } : undefined);
  };
}

/** English for a text no route words (plurals through ICU, numbers as the /api writes them). */
export const PLAIN_ENGLISH: Reader = { t: englishIcu({ grouping: false }), locale: 'en' };
