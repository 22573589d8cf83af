// The message catalogs for a process that runs the source under Node (server.ts, the worker):
// Node imports a JSON file only with an import attribute the Remix compiler cannot read, so the
// catalogs (app/features/*/messages.json, as catalogs.server.ts bundles them for the pages) are
// read from their files and compiled at first use. They translate what a job writes for one
// reader (a notification pushed to a browser), through the process's runtime.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileCatalogs, type CatalogFile, type Catalogs } from '../../platform/i18n/catalog.server.ts';
import type { Locale } from '../../platform/i18n/locales.ts';
import type { Translate } from '../../platform/i18n/messages.ts';

const FEATURES = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** Every area's catalog, by its folder's name (the areas catalogs.server.ts names). */
export function readCatalogFiles(root = FEATURES): Record<string, CatalogFile> {
  const files: Record<string, CatalogFile> = {};
  for (const area of fs.readdirSync(root).sort()) {
    const file = path.join(root, area, 'messages.json');
    if (fs.existsSync(file)) files[area] = JSON.parse(fs.readFileSync(file, 'utf8')) as CatalogFile;
  }
  return files;
}

/** A translator per language over the catalogs, compiled when first asked for. */
export function catalogTranslator(): (locale: Locale) => Translate {
  let compiled: Catalogs | undefined;
  return (locale) => (compiled ??= compileCatalogs(readCatalogFiles())).translator(locale);
}
