// Every area's message catalog, compiled once (docs/languages.md). An area that shows text keeps
// a messages.json beside its code and is listed here.
import { compileCatalogs } from '../../platform/i18n/catalog.server.ts';
import { registerMessages } from '../../platform/i18n/message-files.ts';
import shell from './messages.json';
import auth from '../auth/messages.json';
import dashboards from '../dashboards/messages.json';
import finance from '../finance/messages.json';
import companyMetrics from '../company-metrics/messages.json';
import integrations from '../integrations/messages.json';
import settings from '../settings/messages.json';
import audit from '../audit/messages.json';
import backups from '../backups/messages.json';
import users from '../users/messages.json';
import system from '../system/messages.json';
import ai from '../ai/messages.json';
import apiDocs from '../api-docs/messages.json';
import notifications from '../notifications/messages.json';
import imports from '../imports/messages.json';

export const CATALOG_FILES = {
  shell,
  auth,
  dashboards,
  finance,
  'company-metrics': companyMetrics,
  integrations,
  settings,
  audit,
  backups,
  users,
  system,
  ai,
  'api-docs': apiDocs,
  notifications,
  imports,
};

export const catalogs = compileCatalogs(CATALOG_FILES);
// The server renders a document with the messages its files carry to the browser.
for (const [key, messages] of catalogs.fileMessages()) registerMessages(key, messages);
