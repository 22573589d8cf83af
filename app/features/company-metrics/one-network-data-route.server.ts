// The /one-network-data route's server half: One Network's broadband connections, mobile
// subscriptions and mobile access methods, one tab each (?tab=), each the paged list of the
// per-company resource limited to the company named 'One Network', with add, edit, delete and export.
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { resourceAction, resourceLoader } from '../../platform/resources/resource-screen.server.ts';
import { resourceScreenAccess } from '../../platform/screen/route-access.ts';
import { loadScreen } from '../../platform/screen/screen.server.ts';
import { NETWORK_COMPANY } from '../../platform/screen/navigation.ts';
import { findScreenCompany } from '../../platform/companies.server.ts';
import { broadbandConnections } from './network-data.ts';
import { NETWORK_DATA_TABS as TABS } from './one-network-data-screen.tsx';
import { requestI18n } from '../shell/index.server.ts';

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
    i18n: requestI18n,
    company: NETWORK_COMPANY,
    // The rows are One Network's whatever the form says; another company's row is not found here.
    pinCompany: true,
  });
