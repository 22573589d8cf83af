// How long ago, in the reader's language: 'Just now' under a minute, then minutes, hours or days
// ago as Intl words them ('5 minutes ago', 'hace 5 minutos', 'vor 5 Minuten').
import type { Formats } from './formats.ts';
import type { Translate } from './messages.ts';

/** `inSentence`: the words go inside a sentence ('computed just now'), so they start in lower case. */
export function relativeTime(
  t: Translate,
  formats: Formats,
  value: string | null | undefined,
  now: number = Date.now(),
  inSentence = false,
): string {
  const at = value ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(at)) return inSentence ? t('at an unknown time') : t('Unknown time');
  if (now - at < 60_000) return inSentence ? t('just now') : t('Just now');
  return formats.ago(value!, now)!;
}
