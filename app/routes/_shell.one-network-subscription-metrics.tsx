// One Network Subscriptions: the latest record (or
// the ?year=&month= chosen) of One Network's broadband, mobile subscription and mobile access
// records, an overview with 12-month charts, and the edit/create form of each tab's record.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Link, useActionData, useLoaderData, useLocation } from '@remix-run/react';
import { SeriesChart } from '../ui/chart/series-chart.tsx';
import { ResourceForm, yearChoices } from '../platform/resources/resource-form.tsx';
import { PageHeading } from '../ui/page-heading.tsx';
import { CompanyNotFound } from '../features/shell/company-not-found.tsx';
import {
  EmptyRecord,
  monthLabel,
  OverviewCards,
  PeriodPicker,
  RecordBreakdown,
  type MetricRecord,
} from '../features/company-metrics/subscription-metrics.tsx';
import { resultFor, TabNav, useCloseUrl, type ActionAnswer } from '../platform/screen/action-result.tsx';
import { FormPanel } from '../ui/form-panel.tsx';
import { Card } from '../ui/form.tsx';
import { resourceAction, screenPermissions } from '../platform/resources/resource-screen.server.ts';
import { resourceScreenAccess } from '../platform/screen/route-access.ts';
import { loadScreen, tabOf } from '../platform/screen/screen.server.ts';
import { positiveIdParam } from '../platform/lib/query.ts';
import { withParams } from '../platform/lib/url.ts';
import { requestedMonth, yearField } from '../features/company-metrics/metric-fields.ts';
import {
  networkAccessRecords,
  networkBroadbandRecords,
  networkSubscriptionPatterns,
} from '../features/company-metrics/one-network.ts';
import { ONE_NETWORK } from '../features/company-metrics/one-network.ts';
import type { ResourceDef } from '../platform/resources/define.ts';
import { resourceTabs } from '../features/company-metrics/tabs.ts';
import { findScreenCompany } from '../platform/companies.server.ts';
import { getRecord, listRecords } from '../platform/resources/resources.server.ts';
import { screenTitle } from '../platform/screen/navigation.ts';

const TITLE = screenTitle('/one-network-subscription-metrics');
// The record tabs; the overview (the default tab) shows all three.
const RECORDS = resourceTabs({
  broadband: networkBroadbandRecords,
  mobile: networkSubscriptionPatterns,
  access: networkAccessRecords,
});
type RecordTab = (typeof RECORDS.keys)[number];
const DEFS = RECORDS.defs;
const TABS = ['overview', ...RECORDS.keys] as const;
type Tab = (typeof TABS)[number];
const TAB_LABELS: Record<Tab, string> = {
  overview: 'Overview',
  broadband: 'Broadband',
  mobile: 'Mobile Subscriptions',
  access: 'Mobile Access',
};
const NOUNS: Record<RecordTab, string> = {
  broadband: 'broadband',
  mobile: 'mobile subscription',
  access: 'mobile access',
};

export const meta: MetaFunction = () => [{ title: `${TITLE} · Group Finance Hub` }];

// The three resources share the 'subscriber' area and the create/update/delete intents.
export const access = resourceScreenAccess(networkBroadbandRecords);

export const loader = (args: LoaderFunctionArgs) =>
  loadScreen(args, async ({ ctx, url }) => {
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
    return json({
      company: { id: company.id, name: company.name },
      tab,
      period,
      years: yearChoices(yearField, period ? String(period.year) : undefined),
      records,
      trends: {
        broadband: broadbandTrend.map((r) => ({ label: monthLabel(r, true), value: Number(r.totalBroadband) })),
        mobile: mobileTrend.map((r) => ({ label: monthLabel(r, true), value: Number(r.totalMobileSubscriptions) })),
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
  resourceAction(RECORDS.defOf(args.request.url), args, { company: ONE_NETWORK });

type Data = ReturnType<typeof useLoaderData<typeof loader>>;
type Found = Extract<Data, { can: unknown }>;

export default function OneNetworkSubscriptionsScreen() {
  const data = useLoaderData<typeof loader>();
  const { search } = useLocation();
  if (!data.company) {
    return <CompanyNotFound title={TITLE} name={ONE_NETWORK} />;
  }
  const found = data as Found;
  return (
    <div>
      <PageHeading title={TITLE}>
        <PeriodPicker key={search} tab={found.tab} period={found.period} years={found.years} />
      </PageHeading>
      <TabNav
        label="Subscription metrics"
        current={found.tab}
        tabs={TABS.map((key) => ({
          key,
          label: TAB_LABELS[key],
          to: withParams(search, { tab: key, edit: null, new: null }),
        }))}
      />
      <p className="mb-4 text-sm text-slate-600" data-testid="period">
        {found.period ? `Showing ${monthLabel(found.period)}` : 'Showing the latest record of each kind'}
        {found.period ? (
          <>
            {' '}
            ·{' '}
            <Link
              to={withParams(search, { year: null, month: null, edit: null, new: null })}
              className="text-blue-700 underline"
            >
              Show the latest
            </Link>
          </>
        ) : null}
      </p>
      {found.tab === 'overview' ? <Overview data={found} /> : <RecordTabView data={found} tab={found.tab} />}
    </div>
  );
}

function Overview({ data }: { data: Found }) {
  const { search } = useLocation();
  const { broadband = null, mobile = null, access = null } = data.records;
  // Each card's record opens in its own tab's dialog.
  const edit = data.can.edit
    ? Object.fromEntries(
        RECORDS.keys.flatMap((key) => {
          const record = data.records[key];
          return record
            ? [
                [
                  key,
                  {
                    to: withParams(search, { tab: key, edit: record.id, new: null }),
                    label: DEFS[key].formTitles?.edit ?? `Edit ${DEFS[key].noun}`,
                  },
                ],
              ]
            : [];
        }),
      )
    : {};
  const span = (points: { label: string }[]) =>
    points.length ? `from ${points[0].label} to ${points[points.length - 1].label}` : '';
  return (
    <>
      <OverviewCards broadband={broadband} mobile={mobile} access={access} edit={edit} />
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <SeriesChart
            id="broadband-trend"
            size="half"
            title="Total broadband connections, last 12 recorded months"
            description={`Total broadband connections of One Network per month ${span(data.trends.broadband)}.`}
            series={[{ name: 'Total broadband', points: data.trends.broadband }]}
            unit="connections"
            labelHeading="Month"
          />
        </Card>
        <Card>
          <SeriesChart
            id="mobile-trend"
            size="half"
            kind="bar"
            title="Total mobile subscriptions, last 12 recorded months"
            description={`Total mobile subscriptions of One Network per month ${span(data.trends.mobile)}.`}
            series={[{ name: 'Total subscriptions', points: data.trends.mobile }]}
            unit="subscriptions"
            labelHeading="Month"
          />
        </Card>
      </div>
    </>
  );
}

const BREAKDOWNS = {
  broadband: {
    title: 'Broadband Connections',
    summary: [
      ['Total Broadband', 'totalBroadband'],
      ['New Connections', 'newConnections'],
      ['Churn Connections', 'churnConnections'],
    ],
    rows: [
      {
        label: 'Fixed Broadband',
        count: 'fixedBroadband',
        percent: 'fixedBroadbandPercentage',
        new: 'fixedBroadbandNew',
        churn: 'fixedBroadbandChurn',
      },
      {
        label: 'Fixed Fiber',
        count: 'fixedFiber',
        percent: 'fixedFiberPercentage',
        new: 'fixedFiberNew',
        churn: 'fixedFiberChurn',
        onlyWhenCounted: true,
      },
      {
        label: 'Fixed FWA 5G Router',
        count: 'fixedFwa5gRouter',
        percent: 'fixedFwa5gRouterPercentage',
        new: 'fixedFwa5gRouterNew',
        churn: 'fixedFwa5gRouterChurn',
      },
    ],
  },
  mobile: {
    title: 'Mobile Subscription Patterns',
    summary: [['Total Mobile Subscriptions', 'totalMobileSubscriptions']],
    rows: (['daily', 'weekly', 'monthly'] as const).map((c) => ({
      label: c.charAt(0).toUpperCase() + c.slice(1),
      count: `${c}Subscriptions`,
      percent: `${c}SubscriptionsPercentage`,
      new: `${c}New`,
      churn: `${c}Churn`,
    })),
  },
  access: {
    title: 'Mobile Access Methods',
    summary: [['Total Devices', 'totalDevices']],
    rows: [
      { label: 'MiFi Devices', count: 'mifiDevices', percent: 'mifiDevicesPercentage' },
      { label: 'SIM Cards', count: 'simCards', percent: 'simCardsPercentage' },
      { label: 'eSIM', count: 'eSim', percent: 'eSimPercentage' },
      { label: 'FWA Mobile', count: 'fwaMobile', percent: 'fwaMobilePercentage' },
    ],
  },
} as const satisfies Record<RecordTab, unknown>;

function RecordTabView({ data, tab }: { data: Found; tab: RecordTab }) {
  const { search } = useLocation();
  const actionData = useActionData<ActionAnswer>();
  const closeTo = useCloseUrl();
  const def = DEFS[tab];
  const record = data.records[tab] ?? null;
  const shape = BREAKDOWNS[tab];
  const formIntent = data.editing ? 'update' : 'create';
  return (
    <>
      {data.editing || data.creating ? (
        <FormPanel title={(data.editing ? def.formTitles?.edit : def.formTitles?.create) ?? def.noun} closeTo={closeTo}>
          <ResourceForm
            key={data.editing ? `edit-${data.editing.id}` : 'new'}
            def={def}
            record={data.editing}
            choices={{ filter: [] }}
            lastResult={resultFor(actionData, formIntent)}
            cancelTo={closeTo}
          />
        </FormPanel>
      ) : null}
      {record ? (
        <RecordBreakdown
          title={shape.title}
          record={record}
          summary={shape.summary.map(([label, key]) => ({ label, value: Number(record[key] ?? 0) }))}
          rows={shape.rows.filter((row) => !('onlyWhenCounted' in row) || Number(record[row.count] ?? 0) > 0)}
          editTo={data.can.edit ? withParams(search, { edit: record.id, new: null }) : null}
        />
      ) : (
        <EmptyRecord
          noun={NOUNS[tab]}
          period={data.period}
          addTo={data.can.create ? withParams(search, { new: 1, edit: null }) : null}
        />
      )}
    </>
  );
}

export { ShellErrorBoundary as ErrorBoundary } from '../features/shell/error-screen.tsx';
