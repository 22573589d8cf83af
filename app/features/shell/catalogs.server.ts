// Every area's message catalog, compiled once (docs/languages.md). An area that shows text keeps
// a messages.json beside its code and is listed here.
import { compileCatalogs } from '../../platform/i18n/catalog.server.ts';
import shell from './messages.json';

export const CATALOG_FILES = { shell };

export const catalogs = compileCatalogs(CATALOG_FILES);
