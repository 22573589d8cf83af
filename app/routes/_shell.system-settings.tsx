// /system-settings (owner and admin): the real version, database and
// environment, live statuses (database, job engine, backups, security), quick
// links and a navigation guide built from the route table for this user.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { PageHeading } from '../ui/page-heading.tsx';
import { SystemInformation, SystemStatuses } from '../features/system/system-facts.tsx';
import { Card } from '../ui/form.tsx';
import { allow, type RouteAccess } from '../platform/screen/route-access.ts';
import { loadScreen } from '../platform/screen/screen.server.ts';
import { buildSidebar, canOpen, findScreen, screenTitle } from '../platform/screen/navigation.ts';
import { listVisibleCompanies } from '../platform/companies.server.ts';
import { getSystemStatus } from '../features/system/system-info.server.ts';

export const meta: MetaFunction = () => [{ title: `${screenTitle('/system-settings')} · Group Finance Hub` }];

export const access: RouteAccess = [{ methods: { GET: allow.screen } }];

const QUICK_LINKS = ['/user-management', '/audit-trail', '/backup-recovery', '/api-documentation'];

const GROUP_GUIDE: Record<string, string> = {
  Overview: 'The dashboard: your access, the group’s key figures and recent activity.',
  'Financial Data': 'Budgets, actual expenses, revenue projections and actual revenue, per company and department.',
  'Analytics & AI': 'Predictions, anomalies and budget analysis, and the data integrations with outside systems.',
  Configuration: 'The companies, the shared departments and each company’s expense categories.',
  'Company Metrics': 'Each company’s own subscriber and service figures.',
  'System Management': 'Monitoring, the audit trail, backups, the API documentation and editor statistics.',
  Administration: 'Users and their permissions, and these system settings.',
  'My Profile': 'Your profile, password, preferences and notifications.',
};

export const loader = (args: LoaderFunctionArgs) =>
  loadScreen(args, async ({ ctx, user, context }) => {
    const [system, companies] = await Promise.all([
      getSystemStatus(ctx, context.config.env),
      listVisibleCompanies(ctx),
    ]);
    const links = QUICK_LINKS.map((path) => findScreen(path)!)
      .filter((screen) => canOpen(user, screen))
      .map((s) => ({ path: s.path, title: s.title }));
    const guide = buildSidebar(user, companies).map((group) => ({
      name: group.name,
      description: GROUP_GUIDE[group.name] ?? '',
      items: group.items,
    }));
    return json({ system, links, guide });
  });

export default function SystemSettings() {
  const { system, links, guide } = useLoaderData<typeof loader>();
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

export { ShellErrorBoundary as ErrorBoundary } from '../features/shell/error-screen.tsx';
