// A declared resource's noun inside a translated sentence ('Add {noun}', 'Edit {noun} {id}'),
// as each language writes it (docs/languages.md). Isomorphic.
import type { Locale } from '../i18n/locales.ts';

/**
 * `noun` (already translated) as a sentence shows it: English keeps its capitals, or writes it in
 * lower case (`lower`); German keeps its nouns' capital; Spanish and French start it in lower case.
 */
export function nounInText(noun: string, locale: Locale, lower = false): string {
  if (locale === 'de') return noun;
  if (locale === 'en') return lower ? noun.toLowerCase() : noun;
  return noun.charAt(0).toLocaleLowerCase(locale) + noun.slice(1);
}
