// The /system-settings page: the system's facts and live statuses, the quick links this user
// may open, and the navigation guide (each sidebar group, what it holds and its screens).
import { Link } from '@remix-run/react';
import { PageHeading } from '../../ui/page-heading.tsx';
import { SystemInformation, SystemStatuses, type SystemFactsView } from './system-facts.tsx';
import { Card } from '../../ui/form.tsx';
import { screenTitle, type NavItem } from '../../platform/screen/navigation.ts';

export interface SystemSettingsData {
  system: SystemFactsView;
  links: { path: string; title: string }[];
  guide: { name: string; description: string; items: NavItem[] }[];
}

export function SystemSettingsScreen({ data: { system, links, guide } }: { data: SystemSettingsData }) {
  return (
    <>
      <PageHeading title={screenTitle('/system-settings')} />
      <div className="grid gap-6 lg:grid-cols-2">
        <SystemInformation system={system} />
        <SystemStatuses system={system} title="System Status" />
        <Card title="Quick Links">
          <ul className="grid gap-2 sm:grid-cols-2" data-testid="quick-links">
            {links.map((link) => (
              <li key={link.path}>
                <Link
                  to={link.path}
                  className="block rounded-md border border-slate-200 px-3 py-2 text-sm font-medium text-blue-700 hover:bg-slate-50"
                >
                  {link.title}
                </Link>
              </li>
            ))}
          </ul>
        </Card>
        <Card title="Navigation Guide">
          <dl className="space-y-3 text-sm" data-testid="navigation-guide">
            {guide.map((group) => (
              <div key={group.name}>
                <dt className="font-medium text-slate-900">{group.name}</dt>
                <dd className="text-slate-600">
                  {group.description}{' '}
                  <span className="text-slate-700">({group.items.map((item) => item.label).join(', ')})</span>
                </dd>
              </div>
            ))}
          </dl>
        </Card>
      </div>
    </>
  );
}
