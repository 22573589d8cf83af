// The languages the screens speak, and how a request picks one (docs/languages.md).
// Isomorphic: the document, the settings forms and the server all use these.

export const LOCALES = ['en', 'es', 'fr', 'de'] as const;
export type Locale = (typeof LOCALES)[number];

/** The Intl locale each language formats numbers and month names with. */
export const INTL_LOCALES: Record<Locale, string> = { en: 'en-US', es: 'es-ES', fr: 'fr-FR', de: 'de-DE' };

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/**
 * The best of our languages for an `Accept-Language` header ('de-CH,de;q=0.9,en;q=0.5' → 'de'):
 * the highest-weighted tag whose language we speak, English when none is.
 */
export function localeFromAcceptLanguage(header: string | null | undefined): Locale {
  if (!header) return 'en';
  const ranked = header
    .split(',')
    .map((part, order) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { language: tag.trim().toLowerCase().split('-')[0] ?? '', weight: q === undefined ? 1 : Number(q), order };
    })
    .filter((entry) => entry.weight > 0 && Number.isFinite(entry.weight))
    .sort((a, b) => b.weight - a.weight || a.order - b.order);
  return ranked.map((entry) => entry.language).find(isLocale) ?? 'en';
}
