// The /system-settings route's server half (owner and admin): the real version, database and
// environment, live statuses (database, job engine, backups, security), quick
// links and a navigation guide built from the route table for this user.
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { allow, screenAccess } from '../../platform/screen/route-access.ts';
import { loadScreen, screenAction, succeed } from '../../platform/screen/screen.server.ts';
import { intent } from '../../platform/screen/intent.ts';
import { setTwoFactorPolicy, twoFactorPolicy, TwoFactorPolicySchema } from '../auth/index.server.ts';
import { buildSidebar, canOpen, findScreen } from '../../platform/screen/navigation.ts';
import { listVisibleCompanies } from '../../platform/companies.server.ts';
import { getSystemStatus } from './system-info.server.ts';
import { msg } from '../../platform/i18n/messages.ts';
import { requestI18n } from '../shell/index.server.ts';

const QUICK_LINKS = ['/user-management', '/audit-trail', '/backup-recovery', '/api-documentation'];

const GROUP_GUIDE: Record<string, string> = {
  Overview: msg('The dashboard: your access, the group’s key figures and recent activity.'),
  'Financial Data': msg(
    'Budgets, actual expenses, revenue projections and actual revenue, per company and department.',
  ),
  'Analytics & AI': msg('Predictions, anomalies and budget analysis, and the data integrations with outside systems.'),
  Configuration: msg('The companies, the shared departments and each company’s expense categories.'),
  'Company Metrics': msg('Each company’s own subscriber and service figures.'),
  'System Management': msg('Monitoring, the audit trail, backups, the API documentation and editor statistics.'),
  Administration: msg('Users and their permissions, and these system settings.'),
  'My Profile': msg('Your profile, password, preferences and notifications.'),
};

export const loader = (args: LoaderFunctionArgs) =>
  loadScreen(args, async ({ ctx, user, context }) => {
    const [system, companies, policy] = await Promise.all([
      getSystemStatus(ctx, context.config.env),
      listVisibleCompanies(ctx),
      twoFactorPolicy(ctx.db),
    ]);
    const links = QUICK_LINKS.map((path) => findScreen(path)!)
      .filter((screen) => canOpen(user, screen))
      .map((s) => ({ path: s.path, title: s.title }));
    const guide = buildSidebar(user, companies).map((group) => ({
      name: group.name,
      description: GROUP_GUIDE[group.name] ?? '',
      items: group.items,
    }));
    return json({
      system,
      links,
      guide,
      security: { requireTwoFactorForAdmins: policy.requireForAdmins, mayChange: user.role === 'owner' },
    });
  });

const intents = {
  twoFactorPolicy: intent({
    allow: allow.owner,
    schema: TwoFactorPolicySchema,
    run: async (value, screen) => {
      await setTwoFactorPolicy(screen.ctx, value);
      const { t } = requestI18n(screen.request, screen.auth);
      return succeed(
        screen,
        {
          type: 'success',
          title: t('Settings saved'),
          description: value.requireForAdmins
            ? t('Owners and admins must now use two-factor authentication.')
            : t('Two-factor authentication is no longer required for owners and admins.'),
        },
        { to: '/system-settings' },
      );
    },
  }),
};

export const access = screenAccess(intents);

export const action = (args: ActionFunctionArgs) => screenAction(args, intents, { i18n: requestI18n });
