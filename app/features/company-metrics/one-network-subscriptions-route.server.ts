// The /one-network-subscription-metrics route's server half: the latest record (or the
// ?year=&month= chosen) of One Network's broadband, mobile subscription and mobile access records,
// the overview's 12-month trends, and the edit/create form of each tab's record.
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { requestI18n } from '../shell/index.server.ts';
import { yearChoices } from '../../platform/resources/resource-form.tsx';
import { resourceAction, screenPermissions } from '../../platform/resources/resource-screen.server.ts';
import { resourceScreenAccess } from '../../platform/screen/route-access.ts';
import { loadScreen, tabOf } from '../../platform/screen/screen.server.ts';
import { positiveIdParam } from '../../platform/lib/query.ts';
import type { ResourceDef } from '../../platform/resources/define.ts';
import { findScreenCompany } from '../../platform/companies.server.ts';
import { getRecord, listRecords } from '../../platform/resources/resources.server.ts';
import { monthLabel, requestedMonth, yearField } from './metric-fields.ts';
import { networkBroadbandRecords, networkSubscriptionPatterns, ONE_NETWORK } from './one-network.ts';
import type { MetricRecord } from './subscription-metrics.tsx';
import { RECORDS, TABS, type RecordTab } from './one-network-subscriptions-screen.tsx';

const DEFS = RECORDS.defs;

// The three resources share the 'subscriber' area and the create/update/delete intents.
export const access = resourceScreenAccess(networkBroadbandRecords);

export const loader = (args: LoaderFunctionArgs) =>
  loadScreen(args, async ({ ctx, url, request, auth }) => {
    const tab = tabOf(url, TABS);
    const company = await findScreenCompany(ctx, ONE_NETWORK);
    // Nothing else is asked for until the company exists.
    if (!company) return json({ company: null, tab } as const);
    const period = requestedMonth(url.searchParams);
    const latest = async (def: ResourceDef) =>
      (await listRecords(ctx, def, { limit: 1, offset: 0, exact: period ? { ...period } : null })).rows[0] ?? null;
    const lastYear = async (def: ResourceDef) => (await listRecords(ctx, def, { limit: 12, offset: 0 })).rows.reverse();
    const shown = tab === 'overview' ? RECORDS.keys : [tab];
    const records = Object.fromEntries(
      await Promise.all(shown.map(async (key) => [key, await latest(DEFS[key])] as const)),
    ) as Partial<Record<RecordTab, MetricRecord | null>>;
    const [broadbandTrend, mobileTrend] =
      tab === 'overview'
        ? await Promise.all([lastYear(networkBroadbandRecords), lastYear(networkSubscriptionPatterns)])
        : [[], []];
    const can = screenPermissions(ctx, networkBroadbandRecords);
    const editId = positiveIdParam(url.searchParams.get('edit'));
    const editing = tab !== 'overview' && editId !== null && can.edit ? await getRecord(ctx, DEFS[tab], editId) : null;
    const creating = tab !== 'overview' && !editing && url.searchParams.get('new') === '1' && can.create;
    const { formats } = requestI18n(request, auth);
    return json({
      company: { id: company.id, name: company.name },
      tab,
      period,
      years: yearChoices(yearField, period ? String(period.year) : undefined),
      records,
      trends: {
        broadband: broadbandTrend.map((r) => ({
          label: monthLabel(r, formats, true),
          value: Number(r.totalBroadband),
        })),
        mobile: mobileTrend.map((r) => ({
          label: monthLabel(r, formats, true),
          value: Number(r.totalMobileSubscriptions),
        })),
      },
      editing,
      creating,
      can,
    });
  });

// The posted URL's tab picks the resource (the overview posts nothing; it would pick broadband).
// A user limited to another company gets 404 before any permission is asked, as on GET; the
// services set the records' company.
export const action = (args: ActionFunctionArgs) =>
  resourceAction(RECORDS.defOf(args.request.url), args, { company: ONE_NETWORK, i18n: requestI18n });
