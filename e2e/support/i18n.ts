// The app's own catalogs and formats, for specs that check what a reader of another language
// sees: the expected text is the catalog's, so a spec never repeats a translation.
import fs from 'node:fs';
import path from 'node:path';
import { compileCatalogs, type CatalogFile } from '../../app/platform/i18n/catalog.server.ts';
import type { Locale } from '../../app/platform/i18n/locales.ts';

const FEATURES = path.join(import.meta.dirname, '../../app/features');

const files: Record<string, CatalogFile> = Object.fromEntries(
  fs
    .readdirSync(FEATURES)
    .filter((area) => fs.existsSync(path.join(FEATURES, area, 'messages.json')))
    .map((area) => [area, JSON.parse(fs.readFileSync(path.join(FEATURES, area, 'messages.json'), 'utf8'))]),
);

const catalogs = compileCatalogs(files);

/** The text a reader of `locale` sees for an English message. */
export function translated(locale: Locale, message: string, values?: Record<string, string | number>): string {
  return catalogs.translator(locale)(message, values);
}
