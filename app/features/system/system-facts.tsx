// The system's real facts: version, database, environment, Node.js, and the live
// statuses. Shown on Settings → System and on System Settings.
import { StatusBadge } from '../settings/index.ts';
import { Card } from '../../ui/form.tsx';
import { DateTime } from '../../platform/i18n/date-time.tsx';
import { useFormats, useT } from '../../platform/i18n/i18n-context.tsx';
import type { Formats } from '../../platform/i18n/formats.ts';
import type { Translate } from '../../platform/i18n/messages.ts';

export interface SystemFactsView {
  version: string;
  environment: string;
  node: string;
  database: { dialect: string; serverVersion: string | null };
  statuses: {
    name: string;
    status: 'ok' | 'warning' | 'error';
    label: string;
    detail: string;
    said: { message: string; values?: Record<string, string | number> };
  }[];
  checkedAt: string;
}

/** A status's detail in the reader's words and formats (system-info.server.ts). */
function saidText(said: SystemFactsView['statuses'][number]['said'], t: Translate, f: Formats): string {
  const values = { ...said.values };
  if (typeof values.time === 'string') values.time = f.instant(values.time);
  if (typeof values.latency === 'number') values.latency = f.number(values.latency);
  return t(said.message, values);
}

export function SystemInformation({ system }: { system: SystemFactsView }) {
  const t = useT();
  return (
    <Card title={t('System Information')}>
      <dl className="grid grid-cols-3 gap-2 text-sm" data-testid="system-info">
        <dt className="text-slate-500">{t('Version')}</dt>
        <dd className="col-span-2 text-slate-900" data-testid="app-version" translate="no">
          {system.version}
        </dd>
        <dt className="text-slate-500">{t('Database')}</dt>
        <dd className="col-span-2 text-slate-900" data-testid="database-version" translate="no">
          {system.database.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'} {system.database.serverVersion ?? ''}
        </dd>
        <dt className="text-slate-500">{t('Environment')}</dt>
        <dd className="col-span-2 text-slate-900" translate="no">
          {system.environment}
        </dd>
        <dt className="text-slate-500" translate="no">
          Node.js
        </dt>
        <dd className="col-span-2 text-slate-900" translate="no">
          {system.node}
        </dd>
        <dt className="text-slate-500">{t('Last checked')}</dt>
        <dd className="col-span-2 text-slate-900">
          <DateTime value={system.checkedAt} kind="instant" />
        </dd>
      </dl>
    </Card>
  );
}

/** `title`: a message (default 'Status'), translated here. */
export function SystemStatuses({ system, title = 'Status' }: { system: SystemFactsView; title?: string }) {
  const t = useT();
  const f = useFormats();
  return (
    <Card title={t(title)}>
      <ul className="divide-y divide-slate-100" data-testid="system-statuses">
        {system.statuses.map((s) => (
          <li key={s.name} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
            <span className="font-medium text-slate-800">{t(s.name)}</span>
            <span className="flex items-center gap-2 text-slate-600">
              <span className="text-xs">{saidText(s.said, t, f)}</span>
              <StatusBadge status={s.status}>{t(s.label)}</StatusBadge>
            </span>
          </li>
        ))}
      </ul>
    </Card>
  );
}
