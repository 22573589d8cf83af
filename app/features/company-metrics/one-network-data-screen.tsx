// The One Network Data screen: a tab per resource (broadband connections, mobile subscriptions,
// mobile access methods), each the generic list of One Network's rows; the missing-company state.
import { useLocation, type useLoaderData } from '@remix-run/react';
import { CompanyNotFound } from '../shell/index.ts';
import { ResourceScreen } from '../../platform/resources/resource-screen.tsx';
import { TabNav } from '../../platform/screen/action-result.tsx';
import { NETWORK_COMPANY, screenTitle } from '../../platform/screen/navigation.ts';
import { withParams } from '../../platform/lib/url.ts';
import { useT } from '../../platform/i18n/i18n-context.tsx';
import { msg } from '../../platform/i18n/messages.ts';
import { resourceTabs } from './tabs.ts';
import { broadbandConnections, mobileAccessMethods, mobileSubscriptions } from './network-data.ts';
import type { loader } from './one-network-data-route.server.ts';

const TITLE = screenTitle('/one-network-data');
/** The tabs (?tab=): the loader lists, and the action writes, the tab's resource. */
export const NETWORK_DATA_TABS = resourceTabs({
  broadband: broadbandConnections,
  'mobile-subscriptions': mobileSubscriptions,
  'mobile-access': mobileAccessMethods,
});
const TAB_LABELS: Record<(typeof NETWORK_DATA_TABS.keys)[number], string> = {
  broadband: msg('Broadband'),
  'mobile-subscriptions': msg('Mobile Subscriptions'),
  'mobile-access': msg('Mobile Access'),
};

export type OneNetworkData = ReturnType<typeof useLoaderData<typeof loader>>;

export function OneNetworkDataScreen({ data }: { data: OneNetworkData }) {
  const { search } = useLocation();
  const t = useT();
  if (!data.company) {
    return <CompanyNotFound title={TITLE} name={NETWORK_COMPANY} />;
  }
  const companyId = String(data.company.id);
  const def = NETWORK_DATA_TABS.defs[data.tab];
  return (
    <ResourceScreen
      def={def}
      title={t(TITLE)}
      fixed={{ companyId }}
      exportParams={{ companyId }}
      keep={{ tab: data.tab }}
    >
      <TabNav
        label={t('One Network data')}
        current={data.tab}
        tabs={NETWORK_DATA_TABS.keys.map((key) => ({
          key,
          label: t(TAB_LABELS[key]),
          to: withParams(search, {
            tab: key,
            ...Object.fromEntries(NETWORK_DATA_TABS.listParams.map((p) => [p, null])),
          }),
        }))}
      />
    </ResourceScreen>
  );
}
