// Vult Subscriber Metrics: one month of the company
// named 'Vult' (?year=&month=, else the latest of the tab's table). Overview: the figures, card
// penetration and the 12-month chart; levels and card types of that month. Each row is edited in
// a dialog opened by the URL (?edit=ID); the tab of the posted URL picks the table.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { PageHeading } from '../ui/page-heading.tsx';
import { CompanyNotFound } from '../features/shell/company-not-found.tsx';
import { formErrorOf, type ActionAnswer } from '../platform/screen/action-result.tsx';
import { CardTypeList, EditLink, LevelList } from '../features/company-metrics/breakdowns.tsx';
import { monthLabel, monthOf, MONTHS_IN_RANGE, requestedMonth, trendRows } from '../features/company-metrics/data.ts';
import { EditPanel } from '../features/company-metrics/record-forms.tsx';
import { ActionAlert, EmptyState, MonthPicker, VultTabs } from '../features/company-metrics/screen-parts.tsx';
import { CardPenetration, MetricFigures, SubscriberTrend } from '../features/company-metrics/subscriber-overview.tsx';
import { resourceAction, screenPermissions } from '../platform/resources/resource-screen.server.ts';
import { loadScreen } from '../platform/screen/screen.server.ts';
import { resourceScreenAccess } from '../platform/screen/route-access.ts';
import { FINANCIAL_SERVICES_COMPANY, screenTitle } from '../platform/screen/navigation.ts';
import { positiveIdParam } from '../platform/lib/query.ts';
import { vultCardTypes, vultSubscriberLevels, vultSubscriberMetrics } from '../features/company-metrics/vult.ts';
import { resourceTabs } from '../features/company-metrics/tabs.ts';
import { findScreenCompany } from '../platform/companies.server.ts';
import { notFound } from '../platform/errors.ts';
import { getRecord, listRecords } from '../platform/resources/resources.server.ts';
import type { ResourceDef } from '../platform/resources/define.ts';

const TITLE = screenTitle('/vult-subscriber-metrics');
const TABS = [
  { key: 'overview', label: 'Overview' },
  { key: 'levels', label: 'Subscriber Levels' },
  { key: 'cards', label: 'Card Types' },
] as const;
/** A month has one row per level or card type: at most six. */
const MONTH_ROWS = 10;
const tabs = resourceTabs({ overview: vultSubscriberMetrics, levels: vultSubscriberLevels, cards: vultCardTypes });

export const meta: MetaFunction = () => [{ title: `${TITLE} · Group Finance Hub` }];
export const access = resourceScreenAccess(vultSubscriberMetrics);

export const loader = (args: LoaderFunctionArgs) =>
  loadScreen(args, async ({ ctx, url }) => {
    const tab = tabs.tabOf(url);
    const company = await findScreenCompany(ctx, FINANCIAL_SERVICES_COMPANY);
    if (!company) return { company: null, tab };
    const def = tabs.defOf(url);
    const companyId = company.id;
    // The tab's newest row is the default month (lists come newest month first).
    const latest = async () => monthOf((await listRecords(ctx, def, { limit: 1, offset: 0, companyId })).rows[0]);
    const month = requestedMonth(url.searchParams) ?? (await latest());
    const monthRows = async <D extends ResourceDef>(of: D) =>
      month ? (await listRecords(ctx, of, { limit: MONTH_ROWS, offset: 0, companyId, exact: { ...month } })).rows : [];
    // The rows typed by their tab's table.
    const shown =
      tab === 'levels'
        ? { tab, rows: await monthRows(vultSubscriberLevels) }
        : tab === 'cards'
          ? { tab, rows: await monthRows(vultCardTypes) }
          : { tab, rows: await monthRows(vultSubscriberMetrics) };
    const allMetrics = async () =>
      (await listRecords(ctx, vultSubscriberMetrics, { limit: MONTHS_IN_RANGE, offset: 0, companyId })).rows;
    const trend = tab === 'overview' && month ? trendRows(await allMetrics(), month) : [];
    const can = screenPermissions(ctx, def);
    const editId = positiveIdParam(url.searchParams.get('edit'));
    const editing = editId !== null && can.edit ? await getRecord(ctx, def, editId) : null;
    // Only Vult's rows are edited here.
    if (editing && editing.companyId !== companyId) throw notFound();
    return { company, ...shown, month, trend, editing, can };
  });

export const action = (args: ActionFunctionArgs) =>
  resourceAction(tabs.defOf(args.request.url), args, {
    company: FINANCIAL_SERVICES_COMPANY,
    // The rows are Vult's whatever the form says; another company's row is not found here.
    pinCompany: true,
  });

type Data = Exclude<ReturnType<typeof useLoaderData<typeof loader>>, { company: null }>;

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

export default function VultSubscriberMetricsScreen() {
  const data = useLoaderData<typeof loader>();
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
      {data.editing ? <EditPanel def={tabs.defs[data.tab]} record={data.editing} company={data.company} /> : null}
      <MonthPicker tab={data.tab} month={data.month} />
      {data.tab === 'overview' ? <Overview data={data} /> : <Breakdown data={data} />}
    </div>
  );
}

export { ShellErrorBoundary as ErrorBoundary } from '../features/shell/error-screen.tsx';
