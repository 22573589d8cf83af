// One Network Data: One Network's broadband connections, mobile subscriptions and
// mobile access methods, one tab each (?tab=), each the paged list of the per-company resource
// limited to the company named 'One Network', with add, edit, delete and export.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useLoaderData, useLocation } from '@remix-run/react';
import { CompanyNotFound } from '../features/shell/company-not-found.tsx';
import { ResourceScreen } from '../platform/resources/resource-screen.tsx';
import { TabNav } from '../platform/screen/action-result.tsx';
import { resourceAction, resourceLoader } from '../platform/resources/resource-screen.server.ts';
import { resourceTabs } from '../features/company-metrics/tabs.ts';
import { resourceScreenAccess } from '../platform/screen/route-access.ts';
import { loadScreen } from '../platform/screen/screen.server.ts';
import { NETWORK_COMPANY, screenTitle } from '../platform/screen/navigation.ts';
import { withParams } from '../platform/lib/url.ts';
import {
  broadbandConnections,
  mobileAccessMethods,
  mobileSubscriptions,
} from '../features/company-metrics/network-data.ts';
import { findScreenCompany } from '../platform/companies.server.ts';

const TITLE = screenTitle('/one-network-data');
const TABS = resourceTabs({
  broadband: broadbandConnections,
  'mobile-subscriptions': mobileSubscriptions,
  'mobile-access': mobileAccessMethods,
});
const TAB_LABELS: Record<(typeof TABS.keys)[number], string> = {
  broadband: 'Broadband',
  'mobile-subscriptions': 'Mobile Subscriptions',
  'mobile-access': 'Mobile Access',
};

export const meta: MetaFunction = () => [{ title: `${TITLE} · Group Finance Hub` }];

export const access = resourceScreenAccess(broadbandConnections);

export const loader = (args: LoaderFunctionArgs) =>
  loadScreen(args, async ({ ctx, url }) => {
    const tab = TABS.tabOf(url);
    const company = await findScreenCompany(ctx, NETWORK_COMPANY);
    // Tab data is requested only once the network company has been found.
    if (!company) return json({ company: null, tab });
    const list = await resourceLoader(TABS.defOf(url), args, { listQuery: () => ({ companyId: company.id }) });
    return json({ ...list, company, tab });
  });

export const action = (args: ActionFunctionArgs) =>
  resourceAction(TABS.defOf(args.request.url), args, {
    company: NETWORK_COMPANY,
    // The rows are One Network's whatever the form says; another company's row is not found here.
    pinCompany: true,
  });

export default function OneNetworkDataScreen() {
  const data = useLoaderData<typeof loader>();
  const { search } = useLocation();
  if (!data.company) {
    return <CompanyNotFound title={TITLE} name={NETWORK_COMPANY} />;
  }
  const companyId = String(data.company.id);
  const def = TABS.defs[data.tab];
  return (
    <ResourceScreen def={def} title={TITLE} fixed={{ companyId }} exportParams={{ companyId }} keep={{ tab: data.tab }}>
      <TabNav
        label="One Network data"
        current={data.tab}
        tabs={TABS.keys.map((key) => ({
          key,
          label: TAB_LABELS[key],
          to: withParams(search, { tab: key, ...Object.fromEntries(TABS.listParams.map((p) => [p, null])) }),
        }))}
      />
    </ResourceScreen>
  );
}

export { ShellErrorBoundary as ErrorBoundary } from '../features/shell/error-screen.tsx';
