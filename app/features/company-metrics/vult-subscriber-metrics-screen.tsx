// The Vult Subscriber Metrics screen: a month's figures, card penetration and 12-month chart
// (Overview), or that month's subscriber levels or card types; the edit dialog (?edit=ID); the
// missing-company state.
import { useActionData, type useLoaderData } from '@remix-run/react';
import { PageHeading } from '../../ui/page-heading.tsx';
import { CompanyNotFound } from '../shell/index.ts';
import { formErrorOf, type ActionAnswer } from '../../platform/screen/action-result.tsx';
import { FINANCIAL_SERVICES_COMPANY, screenTitle } from '../../platform/screen/navigation.ts';
import { CardTypeList, EditLink, LevelList } from './breakdowns.tsx';
import { monthLabel } from './data.ts';
import { EditPanel } from './record-forms.tsx';
import { ActionAlert, EmptyState, MonthPicker, VultTabs } from './screen-parts.tsx';
import { CardPenetration, MetricFigures, SubscriberTrend } from './subscriber-overview.tsx';
import { resourceTabs } from './tabs.ts';
import { vultCardTypes, vultSubscriberLevels, vultSubscriberMetrics } from './vult.ts';
import type { loader } from './vult-subscriber-metrics-route.server.ts';

const TITLE = screenTitle('/vult-subscriber-metrics');
const TABS = [
  { key: 'overview', label: 'Overview' },
  { key: 'levels', label: 'Subscriber Levels' },
  { key: 'cards', label: 'Card Types' },
] as const;
/** The tabs (?tab=) and their tables: the loader lists, the action writes and the dialog edits the tab's. */
export const SUBSCRIBER_METRICS_TABS = resourceTabs({
  overview: vultSubscriberMetrics,
  levels: vultSubscriberLevels,
  cards: vultCardTypes,
});

export type VultSubscriberMetricsData = ReturnType<typeof useLoaderData<typeof loader>>;
type Data = Exclude<VultSubscriberMetricsData, { company: null }>;

function Overview({ data }: { data: Extract<Data, { tab: 'overview' }> }) {
  const row = data.rows.at(0);
  return (
    <div className="space-y-6">
      {row && data.month ? (
        <>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2 className="text-lg font-semibold text-slate-900">{monthLabel(data.month)}</h2>
            {data.can.edit ? <EditLink id={row.id} label={`subscriber metrics of ${monthLabel(data.month)}`} /> : null}
          </div>
          <MetricFigures row={row} figures={['totalSubscribers', 'cardHolders', 'cardAdoptionRate', 'retentionRate']} />
          <CardPenetration row={row} />
        </>
      ) : (
        <EmptyState>
          {data.month
            ? `No subscriber metrics for ${monthLabel(data.month)}.`
            : 'No subscriber metrics recorded for Vult yet.'}
        </EmptyState>
      )}
      {data.month && data.trend.length > 0 ? <SubscriberTrend rows={data.trend} last={data.month} /> : null}
    </div>
  );
}

function Breakdown({ data }: { data: Exclude<Data, { tab: 'overview' }> }) {
  const noun = data.tab === 'levels' ? 'subscriber levels' : 'card types';
  if (!data.month || data.rows.length === 0) {
    return (
      <EmptyState>
        {data.month ? `No ${noun} for ${monthLabel(data.month)}.` : `No ${noun} recorded for Vult yet.`}
      </EmptyState>
    );
  }
  const caption = `${data.tab === 'levels' ? 'Subscriber levels' : 'Card types'} of ${monthLabel(data.month)}`;
  return (
    <div className="space-y-3">
      <h2 className="text-lg font-semibold text-slate-900">{monthLabel(data.month)}</h2>
      {data.tab === 'levels' ? (
        <LevelList rows={data.rows} caption={caption} canEdit={data.can.edit} />
      ) : (
        <CardTypeList rows={data.rows} caption={caption} canEdit={data.can.edit} />
      )}
    </div>
  );
}

export function VultSubscriberMetricsScreen({ data }: { data: VultSubscriberMetricsData }) {
  const actionData = useActionData<ActionAnswer>();
  if (data.company === null) {
    return <CompanyNotFound title={TITLE} name={FINANCIAL_SERVICES_COMPANY} />;
  }
  // A failed edit shows in its form; anything else (a refusal) up here.
  const formShown = data.editing !== null && actionData?.intent === 'update';
  return (
    <div>
      <PageHeading title={TITLE} />
      <VultTabs tabs={TABS} current={data.tab} />
      <ActionAlert message={formShown ? null : formErrorOf(actionData)} />
      {data.editing ? (
        <EditPanel def={SUBSCRIBER_METRICS_TABS.defs[data.tab]} record={data.editing} company={data.company} />
      ) : null}
      <MonthPicker tab={data.tab} month={data.month} />
      {data.tab === 'overview' ? <Overview data={data} /> : <Breakdown data={data} />}
    </div>
  );
}
