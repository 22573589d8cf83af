import { Card } from '../../ui/form.tsx';

const PERMISSION_LABELS: Record<string, string> = {
  canAccessFinancialData: 'Financial Data',
  canAccessSubscriberData: 'Subscriber Data',
  canAccessAnalytics: 'Analytics',
  canManageUsers: 'Manage Users',
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
  return (
    <Card title="Your Access Level">
      <dl className="grid gap-4 text-sm sm:grid-cols-2 lg:grid-cols-4" data-testid="access-card">
        <div>
          <dt className="text-slate-500">Company</dt>
          <dd className="font-medium">{access.companyName}</dd>
        </div>
        <div>
          <dt className="text-slate-500">Company Type</dt>
          <dd className="font-medium">{access.companyType === 'all' ? 'All types' : capitalise(access.companyType)}</dd>
        </div>
        <div>
          <dt className="text-slate-500">Role</dt>
          <dd className="font-medium" data-testid="access-role">
            {capitalise(access.role)}
          </dd>
        </div>
        <div>
          <dt className="text-slate-500">Access Level</dt>
          <dd className="font-medium">{access.accessLevel}</dd>
        </div>
      </dl>
      <div className="mt-4 flex flex-wrap gap-2">
        {Object.entries(access.permissions).map(([key, allowed]) => (
          <span
            key={key}
            className={`rounded-full px-2.5 py-1 text-xs font-medium ${allowed ? 'bg-green-100 text-green-800' : 'bg-slate-100 text-slate-500 line-through'}`}
          >
            {PERMISSION_LABELS[key] ?? key}
          </span>
        ))}
      </div>
      <div className="mt-4 text-sm">
        <p className="text-slate-500">Available companies</p>
        <ul className="mt-1 flex flex-wrap gap-2" data-testid="available-companies">
          {access.availableCompanies.map((c) => (
            <li key={c.id} className="rounded border border-slate-200 px-2 py-1">
              {c.name} <span className="text-slate-500">({c.type})</span>
            </li>
          ))}
        </ul>
      </div>
    </Card>
  );
}
