// The /audit-trail route's server half: audit log entries, one record's data versions
// (docs/writes.md) and the security anomalies, with filters, tab and page in the URL. The one
// write is restoring a version (confirm() with JavaScript, the server's confirmation step
// without). The services check the audit-logs permission and limit a company-scoped reader to
// their company.
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { AUDIT_TABS, type AuditTrailData } from './audit-trail-screen.tsx';
import { AUDIT_SCREEN_PAGE_SIZE, shownChanges, type AuditLogsData } from './audit-log-list.tsx';
import { restoreMessage } from './data-versions.tsx';
import { allow, screenAccess } from '../../platform/screen/route-access.ts';
import { intent } from '../../platform/screen/intent.ts';
import {
  clampedPage,
  confirmationStep,
  loadScreen,
  screenAction,
  succeed,
  tabOf,
  type Screen,
} from '../../platform/screen/screen.server.ts';
import { snakeCase } from '../../platform/lib/names.ts';
import { can } from '../../platform/lib/permissions.ts';
import { positiveIdParam } from '../../platform/lib/query.ts';
import { RESOURCE_LIST } from '../resources.ts';
import { auditUserChoices, auditUserNamed } from './audit-filters.server.ts';
import {
  RestoreVersionForm,
  getDataVersion,
  listAuditLogs,
  listDataVersions,
  listSecurityAnomalies,
  parseAuditQuery,
  restoreVersion,
  withDeletedTallies,
  withReadableChanges,
  type AuditQuery,
  type DataVersion,
} from './audit-trail.server.ts';
import { isDomainError, refusalLine } from '../../platform/errors.ts';
import { requestI18n } from '../shell/index.server.ts';
import { msg } from '../../platform/i18n/messages.ts';
import { readTypedDays } from '../../platform/i18n/day-input.ts';
import { asReader } from '../../platform/i18n/refusal-words.ts';

/**
 * The URL's filters as a query; refused ones (a hand-edited URL) are shown, with nothing listed.
 * The user is an id, or (typed into the text box shown when there are many users) a username or
 * e-mail, looked up.
 */
async function filtersOf(
  screen: Screen,
): Promise<{ values: AuditTrailData['filters']; userText: string; query: AuditQuery | null; error: string | null }> {
  const value = (name: keyof AuditTrailData['filters']) => (screen.url.searchParams.get(name) ?? '').slice(0, 200);
  const values: AuditTrailData['filters'] = {
    q: value('q'),
    tableName: value('tableName'),
    userId: value('userId'),
    recordId: value('recordId'),
    from: value('from'),
    to: value('to'),
  };
  const named = values.userId ? await auditUserNamed(screen.ctx, values.userId) : null;
  const userText = named ? named.username : values.userId;
  if (values.userId && !named) {
    const { t } = requestI18n(screen.request, screen.auth);
    return { values, userText, query: null, error: t('No user matches “{text}”', { text: values.userId }) };
  }
  const resolved = { ...values, userId: named?.value ?? '' };
  // Days typed in the reader's date format; the query takes ISO.
  const { t, preferences } = requestI18n(screen.request, screen.auth);
  const typed = readTypedDays(t, preferences.dateFormat, {
    from: { label: t('From'), text: resolved.from },
    to: { label: t('To'), text: resolved.to },
  });
  if (typed.error) return { values, userText, query: null, error: typed.error };
  try {
    const query = parseAuditQuery({ ...resolved, ...typed.days });
    return { values: resolved, userText, query, error: null };
  } catch (error) {
    if (!isDomainError(error) || error.kind !== 'invalid') throw error;
    return { values, userText, query: null, error: refusalLine(error, asReader({ t, preferences })) };
  }
}

/** Whether the reader may restore this record's versions (the service checks again). */
function mayRestore(screen: Screen, tableName: string, versions: DataVersion[]): boolean {
  const def = RESOURCE_LIST.find((d) => snakeCase(d.table) === tableName);
  if (!def || def.readOnly || !can(screen.user, 'auditLogs')) return false;
  const deleted = versions[0]?.action === 'delete';
  return can(screen.user, def.area, deleted ? 'create' : 'edit');
}

async function logsTab({ ctx, url, request, auth }: Screen, query: AuditQuery | null): Promise<AuditLogsData> {
  const { t, formats } = requestI18n(request, auth);
  if (!query) return { rows: [], total: 0, page: 1, pageSize: AUDIT_SCREEN_PAGE_SIZE };
  const { page, result } = await clampedPage(
    positiveIdParam(url.searchParams.get('page')) ?? 1,
    (p) => listAuditLogs(ctx, { ...query, limit: AUDIT_SCREEN_PAGE_SIZE, offset: (p - 1) * AUDIT_SCREEN_PAGE_SIZE }),
    (r) => Math.ceil(r.total / AUDIT_SCREEN_PAGE_SIZE),
  );
  return {
    ...result,
    rows: (await withReadableChanges(ctx, result.rows, formats, t)).map((row) => shownChanges(row, t)),
    page,
    pageSize: AUDIT_SCREEN_PAGE_SIZE,
  };
}

async function versionsTab(screen: Screen, query: AuditQuery | null) {
  if (!query?.tableName || !query.recordId) return { versions: null, canRestore: false };
  const { t, formats } = requestI18n(screen.request, screen.auth);
  const versions = await listDataVersions(
    screen.ctx,
    { tableName: query.tableName, recordId: query.recordId },
    formats,
    t,
  );
  return { versions, canRestore: mayRestore(screen, query.tableName, versions) };
}

export const loader = (args: LoaderFunctionArgs) =>
  loadScreen(args, async (screen) => {
    const tab = tabOf(
      screen.url,
      AUDIT_TABS.map((t) => t.key),
    );
    const { values, userText, query, error } = await filtersOf(screen);
    const [users, logs, versions, anomalies] = await Promise.all([
      auditUserChoices(screen.ctx),
      tab === 'logs' ? logsTab(screen, query) : null,
      tab === 'versions' ? versionsTab(screen, query) : null,
      tab === 'anomalies'
        ? listSecurityAnomalies(screen.ctx).then((anomalies) => withDeletedTallies(screen.ctx, anomalies))
        : null,
    ]);
    const data: AuditTrailData = {
      tab,
      filters: values,
      filterError: error,
      users,
      userText,
      logs,
      versions,
      anomalies,
    };
    return json(data);
  });

const intents = {
  restore: intent({
    allow: allow.to('auditLogs'),
    schema: RestoreVersionForm,
    invalid: msg('This version cannot be restored'),
    failed: msg('Failed to restore this version'),
    run: async ({ versionId }, screen, form) => {
      const { t } = requestI18n(screen.request, screen.auth);
      const version = await getDataVersion(screen.ctx, versionId);
      const confirm = confirmationStep(form, version.id, restoreMessage(t, version.version));
      if (confirm) return confirm;
      await restoreVersion(screen.ctx, version.id);
      return succeed(screen, t('Version {version} restored', { version: version.version }));
    },
  }),
};

export const access = screenAccess(intents, { companyScoped: true });

export const action = (args: ActionFunctionArgs) => screenAction(args, intents, { i18n: requestI18n });
