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
import { useFormats, useT } from '../../platform/i18n/i18n-context.tsx';
import { msg } from '../../platform/i18n/messages.ts';
import { EditPanel } from './record-forms.tsx';
import { ActionAlert, EmptyState, MonthPicker, VultTabs } from './screen-parts.tsx';
import { CardPenetration, MetricFigures, SubscriberTrend } from './subscriber-overview.tsx';
import { resourceTabs } from './tabs.ts';
import { vultCardTypes, vultSubscriberLevels, vultSubscriberMetrics } from './vult.ts';
import type { loader } from './vult-subscriber-metrics-route.server.ts';

const TITLE = screenTitle('/vult-subscriber-metrics');
const TABS = [
  { key: 'overview', label: msg('Overview') },
  { key: 'levels', label: msg('Subscriber Levels') },
  { key: 'cards', label: msg('Card Types') },
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
  const f = useFormats();
  const t = useT();
  return (
    <div className="space-y-6">
      {row && data.month ? (
        <>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2 className="text-lg font-semibold text-slate-900" translate="no">
              {monthLabel(data.month, f)}
            </h2>
            {data.can.edit ? (
              <EditLink
                id={row.id}
                label={t('Edit subscriber metrics of {month}', { month: monthLabel(data.month, f) })}
              />
            ) : null}
          </div>
          <MetricFigures row={row} figures={['totalSubscribers', 'cardHolders', 'cardAdoptionRate', 'retentionRate']} />
          <CardPenetration row={row} />
        </>
      ) : (
        <EmptyState>
          {data.month
            ? t('No subscriber metrics for {month}.', { month: monthLabel(data.month, f) })
            : t('No subscriber metrics recorded for Vult yet.')}
        </EmptyState>
      )}
      {data.month && data.trend.length > 0 ? <SubscriberTrend rows={data.trend} last={data.month} /> : null}
    </div>
  );
}

function Breakdown({ data }: { data: Exclude<Data, { tab: 'overview' }> }) {
  const f = useFormats();
  const t = useT();
  const levels = data.tab === 'levels';
  if (!data.month || data.rows.length === 0) {
    const month = data.month ? monthLabel(data.month, f) : null;
    return (
      <EmptyState>
        {levels
          ? month
            ? t('No subscriber levels for {month}.', { month })
            : t('No subscriber levels recorded for Vult yet.')
          : month
            ? t('No card types for {month}.', { month })
            : t('No card types recorded for Vult yet.')}
      </EmptyState>
    );
  }
  const month = monthLabel(data.month, f);
  const caption = levels ? t('Subscriber levels of {month}', { month }) : t('Card types of {month}', { month });
  return (
    <div className="space-y-3">
      <h2 className="text-lg font-semibold text-slate-900">{month}</h2>
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
  const t = useT();
  if (data.company === null) {
    return <CompanyNotFound title={TITLE} name={FINANCIAL_SERVICES_COMPANY} />;
  }
  // A failed edit shows in its form; anything else (a refusal) up here.
  const formShown = data.editing !== null && actionData?.intent === 'update';
  return (
    <div>
      <PageHeading title={t(TITLE)} />
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
