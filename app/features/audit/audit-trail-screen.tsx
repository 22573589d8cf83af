// /audit-trail: the filters, the three tabs and the restore's answers (the
// no-JS confirmation step, a refusal). Everything it shows comes from the URL via the loader.
import { useLocation } from '@remix-run/react';
import { withParams } from '../../platform/lib/url.ts';
import type { AnomalyShown } from './anomalies.tsx';
import { PageHeading } from '../../ui/page-heading.tsx';
import { fieldErrorsOf, formErrorOf, TabNav, type ActionAnswer } from '../../platform/screen/action-result.tsx';
import { Alert } from '../../ui/form.tsx';
import { useT } from '../../platform/i18n/i18n-context.tsx';
import { msg } from '../../platform/i18n/messages.ts';
import { AuditFilters, type AuditFilterValues } from './audit-filters.tsx';
import { AuditLogList, type AuditLogsData } from './audit-log-list.tsx';
import { Anomalies } from './anomalies.tsx';
import { ConfirmRestore, DataVersions, type VersionsData } from './data-versions.tsx';

export const AUDIT_TABS = [
  { key: 'logs', label: msg('Audit Logs') },
  { key: 'versions', label: msg('Data Versions') },
  { key: 'anomalies', label: msg('Anomalies') },
] as const;
export type AuditTab = (typeof AUDIT_TABS)[number]['key'];

export interface AuditTrailData {
  tab: AuditTab;
  filters: AuditFilterValues;
  /** Why the filters were refused (a hand-edited URL), if they were. */
  filterError: string | null;
  /** The users to filter by; null when there are too many to list (the filter is a text box). */
  users: { value: string; label: string }[] | null;
  /** The text box's text: the filtered user's name, or the text that named nobody. */
  userText: string;
  logs: AuditLogsData | null;
  versions: VersionsData | null;
  anomalies: AnomalyShown[] | null;
}

/** What the restore intent answered on the page: the confirmation step, or a failure. */
export type AuditTrailAction = ActionAnswer & { id?: number; message?: string };

export function AuditTrailScreen({ data, actionData }: { data: AuditTrailData; actionData: AuditTrailAction | null }) {
  const t = useT();
  const { search } = useLocation();
  const tabs = AUDIT_TABS.map((tab) => ({
    ...tab,
    label: t(tab.label),
    to: withParams(search, { tab: tab.key, page: null }),
  }));
  const confirm = actionData?.intent === 'confirm-delete' && actionData.id && actionData.message ? actionData : null;
  const failure =
    actionData?.intent === 'restore'
      ? [formErrorOf(actionData), ...Object.values(fieldErrorsOf(actionData))].filter((m): m is string => !!m)
      : [];
  return (
    <div>
      <PageHeading title={t('Audit Trail')} />
      <AuditFilters key={search} tab={data.tab} values={data.filters} users={data.users} userText={data.userText} />
      <TabNav tabs={tabs} current={data.tab} label={t('Audit trail tabs')} />
      {data.filterError ? (
        <div className="mb-4">
          <Alert title={t('Invalid filter')}>{data.filterError}</Alert>
        </div>
      ) : null}
      {confirm ? (
        <ConfirmRestore versionId={confirm.id!} message={confirm.message!} cancelTo={`/audit-trail${search}`} />
      ) : null}
      {failure.length ? (
        <div className="mb-4" data-testid="restore-error">
          <Alert title={t('Restore failed')}>
            {failure.map((m) => (
              <p key={m}>{t(m)}</p>
            ))}
          </Alert>
        </div>
      ) : null}
      {data.tab === 'logs' && data.logs ? <AuditLogList data={data.logs} /> : null}
      {data.tab === 'versions' && data.versions ? <DataVersions data={data.versions} /> : null}
      {data.tab === 'anomalies' && data.anomalies ? <Anomalies anomalies={data.anomalies} /> : null}
    </div>
  );
}
