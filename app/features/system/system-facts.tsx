// The system's real facts: version, database, environment, Node.js, and the live
// statuses. Shown on Settings → System and on System Settings.
import { StatusBadge } from '../settings/index.ts';
import { Card } from '../../ui/form.tsx';

export interface SystemFactsView {
  version: string;
  environment: string;
  node: string;
  database: { dialect: string; serverVersion: string | null };
  statuses: { name: string; status: 'ok' | 'warning' | 'error'; label: string; detail: string }[];
  checkedAt: string;
}

export function SystemInformation({ system }: { system: SystemFactsView }) {
  return (
    <Card title="System Information">
      <dl className="grid grid-cols-3 gap-2 text-sm" data-testid="system-info">
        <dt className="text-slate-500">Version</dt>
        <dd className="col-span-2 text-slate-900" data-testid="app-version">
          {system.version}
        </dd>
        <dt className="text-slate-500">Database</dt>
        <dd className="col-span-2 text-slate-900" data-testid="database-version">
          {system.database.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'} {system.database.serverVersion ?? ''}
        </dd>
        <dt className="text-slate-500">Environment</dt>
        <dd className="col-span-2 text-slate-900">{system.environment}</dd>
        <dt className="text-slate-500">Node.js</dt>
        <dd className="col-span-2 text-slate-900">{system.node}</dd>
        <dt className="text-slate-500">Last checked</dt>
        <dd className="col-span-2 text-slate-900">
          <time dateTime={system.checkedAt}>
            {new Date(system.checkedAt).toLocaleString('en-US', { timeZone: 'UTC' })} UTC
          </time>
        </dd>
      </dl>
    </Card>
  );
}

export function SystemStatuses({ system, title = 'Status' }: { system: SystemFactsView; title?: string }) {
  return (
    <Card title={title}>
      <ul className="divide-y divide-slate-100" data-testid="system-statuses">
        {system.statuses.map((s) => (
          <li key={s.name} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
            <span className="font-medium text-slate-800">{s.name}</span>
            <span className="flex items-center gap-2 text-slate-600">
              <span className="text-xs">{s.detail}</span>
              <StatusBadge status={s.status}>{s.label}</StatusBadge>
            </span>
          </li>
        ))}
      </ul>
    </Card>
  );
}
