// Vult Financial Services: the company named 'Vult'.
// Overview: a month's metrics (?year=&month=, else the latest), the 12-month chart, the record
// counts and the API endpoints. The other tabs: an add form beside the five most recent rows of
// their table; the tab of the posted URL picks the table, and the company is always Vult.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { PageHeading } from '../ui/page-heading.tsx';
import { CompanyNotFound } from '../features/shell/company-not-found.tsx';
import { formErrorOf, type ActionAnswer } from '../platform/screen/action-result.tsx';
import { Card } from '../ui/form.tsx';
import {
  monthLabel,
  monthOf,
  MONTHS_IN_RANGE,
  requestedMonth,
  sameMonth,
  trendRows,
} from '../features/company-metrics/data.ts';
import { DataSummary, EndpointList, RecentRecords } from '../features/company-metrics/data-warehouse.tsx';
import { AddForm } from '../features/company-metrics/record-forms.tsx';
import { ActionAlert, EmptyState, MonthPicker, VultTabs } from '../features/company-metrics/screen-parts.tsx';
import { MetricFigures, SubscriberTrend } from '../features/company-metrics/subscriber-overview.tsx';
import { resourceAction, screenPermissions } from '../platform/resources/resource-screen.server.ts';
import { resourceScreenAccess } from '../platform/screen/route-access.ts';
import { loadScreen } from '../platform/screen/screen.server.ts';
import { FINANCIAL_SERVICES_COMPANY, screenTitle } from '../platform/screen/navigation.ts';
import { vultCardTypes, vultSubscriberLevels, vultSubscriberMetrics } from '../features/company-metrics/vult.ts';
import { resourceTabs } from '../features/company-metrics/tabs.ts';
import { findScreenCompany } from '../platform/companies.server.ts';
import { listRecords, type ApiRow } from '../platform/resources/resources.server.ts';

const TITLE = screenTitle('/vult-financial-services');
const TABS = [
  { key: 'overview', label: 'Overview' },
  { key: 'metrics', label: 'Subscriber Metrics' },
  { key: 'levels', label: 'Subscriber Levels' },
  { key: 'cards', label: 'Card Types' },
] as const;
// The overview has no form: a post there (or without ?tab=) is a subscriber-metrics one.
const tabs = resourceTabs({
  overview: vultSubscriberMetrics,
  metrics: vultSubscriberMetrics,
  levels: vultSubscriberLevels,
  cards: vultCardTypes,
});
const ADD_TABS = ['metrics', 'levels', 'cards'] as const;
type AddTabKey = (typeof ADD_TABS)[number];
const RECENT = 5;
const noRows: ApiRow[] = [];

export const meta: MetaFunction = () => [{ title: `${TITLE} · Group Finance Hub` }];
export const access = resourceScreenAccess(vultSubscriberMetrics);

export const loader = (args: LoaderFunctionArgs) =>
  loadScreen(args, async ({ ctx, url }) => {
    const tab = tabs.tabOf(url);
    const company = await findScreenCompany(ctx, FINANCIAL_SERVICES_COMPANY);
    if (!company) return { company: null, tab };
    const companyId = company.id;
    const [metrics, levels, cards] = await Promise.all([
      // Every month's row (at most one per month): the latest, the chosen month and the chart's.
      listRecords(ctx, vultSubscriberMetrics, { limit: MONTHS_IN_RANGE, offset: 0, companyId }),
      listRecords(ctx, vultSubscriberLevels, { limit: RECENT, offset: 0, companyId }),
      listRecords(ctx, vultCardTypes, { limit: RECENT, offset: 0, companyId }),
    ]);
    const metricRows = metrics.rows;
    const requested = requestedMonth(url.searchParams);
    const month = requested ?? monthOf(metricRows[0]);
    return {
      company,
      tab,
      month,
      requested: requested !== null,
      shown: (month && metricRows.find((r) => sameMonth(r, month))) || null,
      trend: month ? trendRows(metricRows, month) : [],
      totals: { metrics: metrics.total, levels: levels.total, cards: cards.total },
      recent:
        tab === 'overview'
          ? noRows
          : { metrics: metrics.rows.slice(0, RECENT), levels: levels.rows, cards: cards.rows }[tab],
      can: screenPermissions(ctx, tabs.defOf(url)),
    };
  });

export const action = (args: ActionFunctionArgs) =>
  resourceAction(tabs.defOf(args.request.url), args, {
    company: FINANCIAL_SERVICES_COMPANY,
    // The rows are Vult's whatever the form says; another company's row is not found here.
    pinCompany: true,
  });

type Data = Exclude<ReturnType<typeof useLoaderData<typeof loader>>, { company: null }>;

function Overview({ data }: { data: Data }) {
  const { month, shown } = data;
  return (
    <div className="space-y-6">
      <MonthPicker tab="overview" month={month} />
      <Card title={data.requested && month ? `Metrics for ${monthLabel(month)}` : 'Latest Metrics'}>
        {shown && month ? (
          <>
            <p className="mb-3 text-sm text-slate-600">{monthLabel(month)}</p>
            <MetricFigures
              row={shown}
              figures={['totalSubscribers', 'cardHolders', 'cardAdoptionRate', 'retentionRate', 'conversionRate']}
            />
          </>
        ) : (
          <EmptyState>
            {month ? `No subscriber metrics for ${monthLabel(month)}.` : 'No subscriber metrics recorded for Vult yet.'}
          </EmptyState>
        )}
      </Card>
      {month && data.trend.length > 0 ? <SubscriberTrend rows={data.trend} last={month} /> : null}
      <div className="grid gap-6 lg:grid-cols-2">
        <DataSummary
          counts={ADD_TABS.map((tab) => ({ label: tabs.defs[tab].title, total: data.totals[tab] }))}
          company={data.company}
        />
        <EndpointList />
      </div>
    </div>
  );
}

function AddTab({ data, tab }: { data: Data; tab: AddTabKey }) {
  const def = tabs.defs[tab];
  return (
    <div className="grid gap-6 xl:grid-cols-5">
      {data.can.create ? (
        <Card title={def.formTitles?.create ?? `Add ${def.noun}`} className="xl:col-span-2">
          <AddForm def={def} company={data.company} generation={data.totals[tab]} />
        </Card>
      ) : null}
      <RecentRecords def={def} rows={data.recent} className="xl:col-span-3" />
    </div>
  );
}

export default function VultFinancialServicesScreen() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionAnswer>();
  if (data.company === null) {
    return <CompanyNotFound title={TITLE} name={FINANCIAL_SERVICES_COMPANY} />;
  }
  // A failed add shows in its form; anything else (a refusal) up here.
  const formShown = data.tab !== 'overview' && data.can.create && actionData?.intent === 'create';
  return (
    <div>
      <PageHeading title={TITLE} />
      <VultTabs tabs={TABS} current={data.tab} />
      <ActionAlert message={formShown ? null : formErrorOf(actionData)} />
      {data.tab === 'overview' ? <Overview data={data} /> : <AddTab data={data} tab={data.tab} />}
    </div>
  );
}

export { ShellErrorBoundary as ErrorBoundary } from '../features/shell/error-screen.tsx';
