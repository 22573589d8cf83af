// File sizes and durations as a screen's reader reads them (docs/languages.md): the numbers of
// app/platform/lib/format.ts (the /api's and the CLI's English '1.5 MB', '2h 5m'), with the
// language's decimal separator and unit symbols ('1,5 Mo', '2 Std. 5 Min.'). English reads
// exactly as format.ts writes it. Isomorphic.
import { durationParts, hoursMinutesParts, sizeParts, type SizeUnit } from '../lib/format.ts';
import type { Formats } from './formats.ts';
import { msg, type Translate } from './messages.ts';

const SIZE_MESSAGES: Record<SizeUnit, string> = {
  Bytes: msg('{size} Bytes'),
  KB: msg('{size} KB'),
  MB: msg('{size} MB'),
  GB: msg('{size} GB'),
};

/**
 * A size's or a duration's number, up to two decimals and without thousands separators: the
 * units keep numbers under 1024 (a size) or 60 (minutes) but for hours and gigabytes, and
 * format.ts writes those without separators ('2048 GB').
 */
const amount = (f: Formats, value: number) => f.number(value, { max: 2, grouping: false });

/** A size in Bytes, KB, MB or GB (units of 1024, up to two decimals): '1.5 MB', '1,5 Mo'. */
export function sizeText(t: Translate, f: Formats, bytes: number | null | undefined): string {
  const { value, unit } = sizeParts(bytes);
  return t(SIZE_MESSAGES[unit], { size: amount(f, value) });
}

/** Under a minute '< 1m', under an hour '45m', longer '2h 5m' ('2 h 5 min', '2 Std. 5 Min.'). */
export function durationText(t: Translate, f: Formats, minutes: number | null | undefined): string {
  const parts = durationParts(minutes);
  if (parts.unit === 'under-a-minute') return t('< 1m');
  if (parts.unit === 'minutes') return t('{minutes}m', { minutes: amount(f, parts.minutes) });
  return t('{hours}h {minutes}m', { hours: amount(f, parts.hours), minutes: amount(f, parts.minutes) });
}

/** Always hours and minutes: '0h 45m', '2h 5m' ('2 h 5 min', '2 Std. 5 Min.'). */
export function hoursMinutesText(t: Translate, f: Formats, minutes: number | null | undefined): string {
  const { hours, minutes: rest } = hoursMinutesParts(minutes);
  return t('{hours}h {minutes}m', { hours: amount(f, hours), minutes: amount(f, rest) });
}
