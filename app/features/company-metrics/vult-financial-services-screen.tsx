// The Vult Financial Services screen: the Overview (a month's metrics, the 12-month chart, the
// record counts and the API endpoints) and a tab per table with its add form beside its five most
// recent rows; the missing-company state.
import { useActionData, type useLoaderData } from '@remix-run/react';
import { PageHeading } from '../../ui/page-heading.tsx';
import { CompanyNotFound } from '../shell/index.ts';
import { formErrorOf, type ActionAnswer } from '../../platform/screen/action-result.tsx';
import { Card } from '../../ui/form.tsx';
import { useFormats, usePreferences, useT } from '../../platform/i18n/i18n-context.tsx';
import { msg } from '../../platform/i18n/messages.ts';
import { nounInText } from '../../platform/resources/noun.ts';
import { FINANCIAL_SERVICES_COMPANY, screenTitle } from '../../platform/screen/navigation.ts';
import { monthLabel } from './data.ts';
import { DataSummary, EndpointList, RecentRecords } from './data-warehouse.tsx';
import { AddForm } from './record-forms.tsx';
import { ActionAlert, EmptyState, MonthPicker, VultTabs } from './screen-parts.tsx';
import { MetricFigures, SubscriberTrend } from './subscriber-overview.tsx';
import { resourceTabs } from './tabs.ts';
import { vultCardTypes, vultSubscriberLevels, vultSubscriberMetrics } from './vult.ts';
import type { loader } from './vult-financial-services-route.server.ts';

const TITLE = screenTitle('/vult-financial-services');
const TABS = [
  { key: 'overview', label: msg('Overview') },
  { key: 'metrics', label: msg('Subscriber Metrics') },
  { key: 'levels', label: msg('Subscriber Levels') },
  { key: 'cards', label: msg('Card Types') },
] as const;
/** The tabs (?tab=). The overview has no form: a post there (or without ?tab=) is a subscriber-metrics one. */
export const FINANCIAL_SERVICES_TABS = resourceTabs({
  overview: vultSubscriberMetrics,
  metrics: vultSubscriberMetrics,
  levels: vultSubscriberLevels,
  cards: vultCardTypes,
});
const tabs = FINANCIAL_SERVICES_TABS;
const ADD_TABS = ['metrics', 'levels', 'cards'] as const;
type AddTabKey = (typeof ADD_TABS)[number];

export type VultFinancialServicesData = ReturnType<typeof useLoaderData<typeof loader>>;
type Data = Exclude<VultFinancialServicesData, { company: null }>;

function Overview({ data }: { data: Data }) {
  const { month, shown } = data;
  const f = useFormats();
  const t = useT();
  return (
    <div className="space-y-6">
      <MonthPicker tab="overview" month={month} />
      <Card
        title={
          data.requested && month ? t('Metrics for {month}', { month: monthLabel(month, f) }) : t('Latest Metrics')
        }
      >
        {shown && month ? (
          <>
            <p className="mb-3 text-sm text-slate-600" translate="no">
              {monthLabel(month, f)}
            </p>
            <MetricFigures
              row={shown}
              figures={['totalSubscribers', 'cardHolders', 'cardAdoptionRate', 'retentionRate', 'conversionRate']}
            />
          </>
        ) : (
          <EmptyState>
            {month
              ? t('No subscriber metrics for {month}.', { month: monthLabel(month, f) })
              : t('No subscriber metrics recorded for Vult yet.')}
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
  const t = useT();
  const { locale } = usePreferences();
  const create = def.formTitles?.create;
  return (
    <div className="grid gap-6 xl:grid-cols-5">
      {data.can.create ? (
        <Card
          title={create ? t(create) : t('Add {noun}', { noun: nounInText(t(def.noun), locale) })}
          className="xl:col-span-2"
        >
          <AddForm def={def} company={data.company} generation={data.totals[tab]} />
        </Card>
      ) : null}
      <RecentRecords tab={tab} def={def} rows={data.recent} className="xl:col-span-3" />
    </div>
  );
}

export function VultFinancialServicesScreen({ data }: { data: VultFinancialServicesData }) {
  const actionData = useActionData<ActionAnswer>();
  const t = useT();
  if (data.company === null) {
    return <CompanyNotFound title={TITLE} name={FINANCIAL_SERVICES_COMPANY} />;
  }
  // A failed add shows in its form; anything else (a refusal) up here.
  const formShown = data.tab !== 'overview' && data.can.create && actionData?.intent === 'create';
  return (
    <div>
      <PageHeading title={t(TITLE)} />
      <VultTabs tabs={TABS} current={data.tab} />
      <ActionAlert message={formShown ? null : formErrorOf(actionData)} />
      {data.tab === 'overview' ? <Overview data={data} /> : <AddTab data={data} tab={data.tab} />}
    </div>
  );
}
