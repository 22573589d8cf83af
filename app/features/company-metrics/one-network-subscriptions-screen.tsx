// The One Network Subscriptions screen: the latest record (or the ?year=&month= chosen) of One
// Network's broadband, mobile subscription and mobile access records, an overview with 12-month
// charts, and the edit/create form of each tab's record; the missing-company state.
import { Link, useActionData, useLocation, type useLoaderData } from '@remix-run/react';
import { SeriesChart } from '../../ui/chart/series-chart.tsx';
import { useFormats, useT } from '../../platform/i18n/i18n-context.tsx';
import { msg } from '../../platform/i18n/messages.ts';
import { ResourceForm } from '../../platform/resources/resource-form.tsx';
import { PageHeading } from '../../ui/page-heading.tsx';
import { CompanyNotFound } from '../shell/index.ts';
import { resultFor, TabNav, useCloseUrl, type ActionAnswer } from '../../platform/screen/action-result.tsx';
import { FormPanel } from '../../ui/form-panel.tsx';
import { Card } from '../../ui/form.tsx';
import { withParams } from '../../platform/lib/url.ts';
import { screenTitle } from '../../platform/screen/navigation.ts';
import { SUBSCRIPTION_TYPE_LABELS } from './metric-fields.ts';
import {
  networkAccessRecords,
  networkBroadbandRecords,
  networkSubscriptionPatterns,
  ONE_NETWORK,
} from './one-network.ts';
import { EmptyRecord, monthLabel, OverviewCards, PeriodPicker, RecordBreakdown } from './subscription-metrics.tsx';
import { resourceTabs } from './tabs.ts';
import type { loader } from './one-network-subscriptions-route.server.ts';

const TITLE = screenTitle('/one-network-subscription-metrics');
// The record tabs; the overview (the default tab) shows all three.
export const RECORDS = resourceTabs({
  broadband: networkBroadbandRecords,
  mobile: networkSubscriptionPatterns,
  access: networkAccessRecords,
});
export type RecordTab = (typeof RECORDS.keys)[number];
const DEFS = RECORDS.defs;
export const TABS = ['overview', ...RECORDS.keys] as const;
type Tab = (typeof TABS)[number];
const TAB_LABELS: Record<Tab, string> = {
  overview: msg('Overview'),
  broadband: msg('Broadband'),
  mobile: msg('Mobile Subscriptions'),
  access: msg('Mobile Access'),
};

type Data = ReturnType<typeof useLoaderData<typeof loader>>;
type Found = Extract<Data, { can: unknown }>;

export function OneNetworkSubscriptionsScreen({ data }: { data: Data }) {
  const { search } = useLocation();
  const f = useFormats();
  const t = useT();
  if (!data.company) {
    return <CompanyNotFound title={TITLE} name={ONE_NETWORK} />;
  }
  const found = data as Found;
  return (
    <div>
      <PageHeading title={t(TITLE)}>
        <PeriodPicker key={search} tab={found.tab} period={found.period} years={found.years} />
      </PageHeading>
      <TabNav
        label={t('Subscription metrics')}
        current={found.tab}
        tabs={TABS.map((key) => ({
          key,
          label: t(TAB_LABELS[key]),
          to: withParams(search, { tab: key, edit: null, new: null }),
        }))}
      />
      <p className="mb-4 text-sm text-slate-600" data-testid="period">
        {found.period
          ? t('Showing {month}', { month: monthLabel(found.period, f) })
          : t('Showing the latest record of each kind')}
        {found.period ? (
          <>
            {' '}
            ·{' '}
            <Link
              to={withParams(search, { year: null, month: null, edit: null, new: null })}
              className="text-blue-700 underline"
            >
              {t('Show the latest')}
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
  const t = useT();
  const { broadband = null, mobile = null, access = null } = data.records;
  // Each card's record opens in its own tab's dialog.
  const edit = data.can.edit
    ? Object.fromEntries(
        RECORDS.keys.flatMap((key) => {
          const record = data.records[key];
          const title = DEFS[key].formTitles?.edit;
          return record
            ? [
                [
                  key,
                  {
                    to: withParams(search, { tab: key, edit: record.id, new: null }),
                    label: title ? t(title) : t('Edit {noun}', { noun: t(DEFS[key].noun) }),
                  },
                ],
              ]
            : [];
        }),
      )
    : {};
  const { broadband: broadbandPoints, mobile: mobilePoints } = data.trends;
  const first = (points: { label: string }[]) => points[0]?.label ?? '';
  const last = (points: { label: string }[]) => points.at(-1)?.label ?? '';
  return (
    <>
      <OverviewCards broadband={broadband} mobile={mobile} access={access} edit={edit} />
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <SeriesChart
            id="broadband-trend"
            size="half"
            title={t('Total broadband connections, last 12 recorded months')}
            description={
              broadbandPoints.length
                ? t('Total broadband connections of One Network per month from {first} to {last}.', {
                    first: first(broadbandPoints),
                    last: last(broadbandPoints),
                  })
                : t('Total broadband connections of One Network per month.')
            }
            series={[{ name: t('Total broadband'), points: broadbandPoints }]}
            unit={t('connections')}
            labelHeading={t('Month')}
          />
        </Card>
        <Card>
          <SeriesChart
            id="mobile-trend"
            size="half"
            kind="bar"
            title={t('Total mobile subscriptions, last 12 recorded months')}
            description={
              mobilePoints.length
                ? t('Total mobile subscriptions of One Network per month from {first} to {last}.', {
                    first: first(mobilePoints),
                    last: last(mobilePoints),
                  })
                : t('Total mobile subscriptions of One Network per month.')
            }
            series={[{ name: t('Total subscriptions'), points: mobilePoints }]}
            unit={t('subscriptions')}
            labelHeading={t('Month')}
          />
        </Card>
      </div>
    </>
  );
}

// Titles and labels are messages: RecordBreakdown shows them in the reader's language.
const BREAKDOWNS = {
  broadband: {
    title: msg('Broadband Connections'),
    summary: [
      [msg('Total Broadband'), 'totalBroadband'],
      [msg('New Connections'), 'newConnections'],
      [msg('Churn Connections'), 'churnConnections'],
    ],
    rows: [
      {
        label: msg('Fixed Broadband'),
        count: 'fixedBroadband',
        percent: 'fixedBroadbandPercentage',
        new: 'fixedBroadbandNew',
        churn: 'fixedBroadbandChurn',
      },
      {
        label: msg('Fixed Fiber'),
        count: 'fixedFiber',
        percent: 'fixedFiberPercentage',
        new: 'fixedFiberNew',
        churn: 'fixedFiberChurn',
        onlyWhenCounted: true,
      },
      {
        label: msg('Fixed FWA 5G Router'),
        count: 'fixedFwa5gRouter',
        percent: 'fixedFwa5gRouterPercentage',
        new: 'fixedFwa5gRouterNew',
        churn: 'fixedFwa5gRouterChurn',
      },
    ],
  },
  mobile: {
    title: msg('Mobile Subscription Patterns'),
    summary: [[msg('Total Mobile Subscriptions'), 'totalMobileSubscriptions']],
    rows: (['daily', 'weekly', 'monthly'] as const).map((c) => ({
      label: SUBSCRIPTION_TYPE_LABELS[c],
      count: `${c}Subscriptions`,
      percent: `${c}SubscriptionsPercentage`,
      new: `${c}New`,
      churn: `${c}Churn`,
    })),
  },
  access: {
    title: msg('Mobile Access Methods'),
    summary: [[msg('Total Devices'), 'totalDevices']],
    rows: [
      { label: msg('MiFi Devices'), count: 'mifiDevices', percent: 'mifiDevicesPercentage' },
      { label: msg('SIM Cards'), count: 'simCards', percent: 'simCardsPercentage' },
      { label: msg('eSIM'), count: 'eSim', percent: 'eSimPercentage' },
      { label: msg('FWA Mobile'), count: 'fwaMobile', percent: 'fwaMobilePercentage' },
    ],
  },
} as const satisfies Record<RecordTab, unknown>;

function RecordTabView({ data, tab }: { data: Found; tab: RecordTab }) {
  const { search } = useLocation();
  const actionData = useActionData<ActionAnswer>();
  const closeTo = useCloseUrl();
  const t = useT();
  const def = DEFS[tab];
  const record = data.records[tab] ?? null;
  const shape = BREAKDOWNS[tab];
  const formIntent = data.editing ? 'update' : 'create';
  return (
    <>
      {data.editing || data.creating ? (
        <FormPanel
          title={t((data.editing ? def.formTitles?.edit : def.formTitles?.create) ?? def.noun)}
          closeTo={closeTo}
        >
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
          kind={tab}
          period={data.period}
          addTo={data.can.create ? withParams(search, { new: 1, edit: null }) : null}
        />
      )}
    </>
  );
}
