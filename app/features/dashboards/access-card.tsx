import { Card } from '../../ui/form.tsx';
import { useT } from '../../platform/i18n/i18n-context.tsx';
import { msg } from '../../platform/i18n/messages.ts';

const PERMISSION_LABELS: Record<string, string> = {
  canAccessFinancialData: msg('Financial Data'),
  canAccessSubscriberData: msg('Subscriber Data'),
  canAccessAnalytics: msg('Analytics'),
  canManageUsers: msg('Manage Users'),
};

/** Company types and roles as the card names them (capitalised); the companies list keeps them lower-case. */
const NAMES: Record<string, string> = {
  mobile: msg('Mobile'),
  infrastructure: msg('Infrastructure'),
  fintech: msg('Fintech'),
  marketing: msg('Marketing'),
  owner: msg('Owner'),
  admin: msg('Admin'),
  editor: msg('Editor'),
  viewer: msg('Viewer'),
};

const TYPES: Record<string, string> = {
  mobile: msg('mobile'),
  infrastructure: msg('infrastructure'),
  fintech: msg('fintech'),
  marketing: msg('marketing'),
};

export interface UserAccess {
  companyName: string;
  companyType: string;
  role: string;
  accessLevel: string;
  permissions: Record<string, boolean>;
  availableCompanies: { id: number; name: string; type: string }[];
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function AccessCard({ access }: { access: UserAccess }) {
  const t = useT();
  const named = (value: string) => (NAMES[value] ? t(NAMES[value]) : capitalise(value));
  return (
    <Card title={t('Your Access Level')}>
      <dl className="grid gap-4 text-sm sm:grid-cols-2 lg:grid-cols-4" data-testid="access-card">
        <div>
          <dt className="text-slate-500">{t('Company')}</dt>
          <dd className="font-medium">{access.companyType === 'all' ? t('All Companies') : access.companyName}</dd>
        </div>
        <div>
          <dt className="text-slate-500">{t('Company Type')}</dt>
          <dd className="font-medium">{access.companyType === 'all' ? t('All types') : named(access.companyType)}</dd>
        </div>
        <div>
          <dt className="text-slate-500">{t('Role')}</dt>
          <dd className="font-medium" data-testid="access-role">
            {named(access.role)}
          </dd>
        </div>
        <div>
          <dt className="text-slate-500">{t('Access Level')}</dt>
          <dd className="font-medium">{t(access.accessLevel)}</dd>
        </div>
      </dl>
      <div className="mt-4 flex flex-wrap gap-2">
        {Object.entries(access.permissions).map(([key, allowed]) => (
          <span
            key={key}
            className={`rounded-full px-2.5 py-1 text-xs font-medium ${allowed ? 'bg-green-100 text-green-800' : 'bg-slate-100 text-slate-500 line-through'}`}
          >
            {PERMISSION_LABELS[key] ? t(PERMISSION_LABELS[key]) : key}
          </span>
        ))}
      </div>
      <div className="mt-4 text-sm">
        <p className="text-slate-500">{t('Available companies')}</p>
        <ul className="mt-1 flex flex-wrap gap-2" data-testid="available-companies">
          {access.availableCompanies.map((c) => (
            <li key={c.id} className="rounded border border-slate-200 px-2 py-1">
              <span translate="no">{c.name}</span>{' '}
              <span className="text-slate-500">({TYPES[c.type] ? t(TYPES[c.type]) : c.type})</span>
            </li>
          ))}
        </ul>
      </div>
    </Card>
  );
}
