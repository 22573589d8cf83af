// The /system-settings page: the system's facts and live statuses, the quick links this user
// may open, and the navigation guide (each sidebar group, what it holds and its screens).
import { Form, Link, useNavigation } from '@remix-run/react';
import { PageHeading } from '../../ui/page-heading.tsx';
import { SystemInformation, SystemStatuses, type SystemFactsView } from './system-facts.tsx';
import { Button, Card } from '../../ui/form.tsx';
import { screenTitle, type NavItem } from '../../platform/screen/navigation.ts';
import { useT } from '../../platform/i18n/i18n-context.tsx';
import { msg } from '../../platform/i18n/messages.ts';

export interface SystemSettingsData {
  system: SystemFactsView;
  links: { path: string; title: string }[];
  guide: { name: string; description: string; items: NavItem[] }[];
  /** The installation's security policy; only the owner may change it. */
  security: { requireTwoFactorForAdmins: boolean; mayChange: boolean };
}

export function SystemSettingsScreen({ data: { system, links, guide, security } }: { data: SystemSettingsData }) {
  const t = useT();
  return (
    <>
      <PageHeading title={t(screenTitle('/system-settings'))} />
      <div className="grid gap-6 lg:grid-cols-2">
        <SystemInformation system={system} />
        <SystemStatuses system={system} title={msg('System Status')} />
        <SecurityPolicy security={security} />
        <Card title={t('Quick Links')}>
          <ul className="grid gap-2 sm:grid-cols-2" data-testid="quick-links">
            {links.map((link) => (
              <li key={link.path}>
                <Link
                  to={link.path}
                  className="block rounded-md border border-slate-200 px-3 py-2 text-sm font-medium text-blue-700 hover:bg-slate-50"
                >
                  {t(link.title)}
                </Link>
              </li>
            ))}
          </ul>
        </Card>
        <Card title={t('Navigation Guide')}>
          <dl className="space-y-3 text-sm" data-testid="navigation-guide">
            {guide.map((group) => (
              <div key={group.name}>
                <dt className="font-medium text-slate-900">{t(group.name)}</dt>
                <dd className="text-slate-600">
                  {t(group.description)}{' '}
                  <span className="text-slate-700">
                    (
                    {group.items.map((item, i) => (
                      <span key={item.path} translate={item.named ? 'no' : undefined}>
                        {i > 0 ? ', ' : ''}
                        {item.named ? item.label : t(item.label)}
                      </span>
                    ))}
                    )
                  </span>
                </dd>
              </div>
            ))}
          </dl>
        </Card>
      </div>
    </>
  );
}

function SecurityPolicy({ security }: { security: SystemSettingsData['security'] }) {
  const navigation = useNavigation();
  const t = useT();
  return (
    <Card title={t('Security')}>
      {security.mayChange ? (
        <Form method="post" className="space-y-3" data-testid="two-factor-policy">
          <input type="hidden" name="intent" value="twoFactorPolicy" />
          <div className="flex items-start gap-3 text-sm">
            <input
              id="require-two-factor"
              aria-describedby="require-two-factor-hint"
              type="checkbox"
              name="requireForAdmins"
              defaultChecked={security.requireTwoFactorForAdmins}
              className="mt-0.5 h-4 w-4 rounded border-slate-300"
            />
            <div>
              <label htmlFor="require-two-factor" className="block font-medium text-slate-900">
                {t('Require two-factor for owners and admins')}
              </label>
              <p id="require-two-factor-hint" className="text-slate-600">
                {t(
                  'An owner or admin without two-factor authentication is sent to set it up before anything else opens.',
                )}
              </p>
            </div>
          </div>
          <Button type="submit" disabled={navigation.state === 'submitting'}>
            {t('Save')}
          </Button>
        </Form>
      ) : (
        <p className="text-sm text-slate-700" data-testid="two-factor-policy">
          {t('Two-factor authentication for owners and admins:')}{' '}
          <strong>{security.requireTwoFactorForAdmins ? t('required') : t('not required')}</strong>.{' '}
          {t('Only the owner can change this.')}
        </p>
      )}
    </Card>
  );
}
