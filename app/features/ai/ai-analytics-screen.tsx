// The AI Analytics screen's markup: five tabs, each a GET form of filters and its
// results; charts are server-rendered SVG (SeriesChart) with their numbers as tables too.
import { Form, Link, useNavigation } from '@remix-run/react';
import type { ReactNode } from 'react';
import type { BudgetAnalysis, ExpensePrediction } from './ai-analytics.server.ts';
import type { AnomalyDay, ExpenseAnomaly } from './ai-anomalies.server.ts';
import { recommendationsFor } from './stats/outliers.ts';
import type { Conversation } from './ai-conversation.server.ts';
import type { Insight } from './ai-insights.server.ts';
import { PLAN_RULE } from '../finance/index.ts';
import type { RankedPage } from '../../platform/lib/paging.ts';
import type { Toast } from '../../platform/lib/toast.ts';
import { ToastView } from '../../ui/toast.tsx';
import { ChatPanel } from './chat-panel.tsx';
import { useRefreshEvery } from '../../platform/screen/use-refresh.ts';
import { DollarChart } from '../../ui/chart/series-chart.tsx';
import { PageHeading } from '../../ui/page-heading.tsx';
import { TabNav } from '../../platform/screen/action-result.tsx';
import { ResultTable, type ResultColumn } from '../../ui/table/result-table.tsx';
import { ShowMore } from '../../ui/table/show-more.tsx';
import { Alert, Card, inputClass } from '../../ui/form.tsx';

export interface AiAnalyticsData {
  tab: 'insights' | 'predictions' | 'anomalies' | 'budget' | 'chat';
  companies: { id: number; name: string }[];
  departments: { id: number; name: string }[];
  categories: { id: number; name: string }[];
  filters: {
    companyId: number | null;
    departmentId: number | null;
    categoryId: number | null;
    months: number;
    lookbackDays: number;
    year: number;
  };
  insights: Insight[];
  /** A page of the ranked predictions (their monthly series left out). */
  predictions: PredictionRow[] | null;
  /** The first prediction with its (recent) series: the chart's. */
  predictionChart: ExpensePrediction | null;
  /** A page of the ranked anomalies (their advice is worded from the type here); null while being computed. */
  anomalies: ScreenAnomaly[] | null;
  /** When the anomalies shown were computed; stale: the books changed since (a new computation is on its way). */
  computed: { ago: string; at: string; stale: boolean } | null;
  /** No anomalies computed yet: the first computation is under way. */
  computing: boolean;
  /** Which rows of a long result this page holds. */
  page: RankedPage | null;
  budget: BudgetAnalysis | null;
  /** The anomaly window's daily totals (weekly beyond 31 days: each dated by its first day), the series the anomalies are marked on. */
  daily: AnomalyDay[] | null;
  error: string | null;
  /** 'Analysis Complete' (or the failure) after an Analyze. */
  toast: Toast | null;
  /** The AI Chat tab: the session's conversation. */
  conversation: Conversation | null;
  cleared: boolean;
  mode: 'model' | 'offline';
}

export type ScreenAnomaly = Omit<ExpenseAnomaly, 'recommendations' | 'companyId'>;
export type PredictionRow = Omit<ExpensePrediction, 'history' | 'forecast' | 'months'>;

export const AI_TABS = [
  { key: 'insights', label: 'AI Insights' },
  { key: 'predictions', label: 'Predictions' },
  { key: 'anomalies', label: 'Anomalies' },
  { key: 'budget', label: 'Budget Analysis' },
  { key: 'chat', label: 'AI Chat' },
] as const;

const usd = (n: number) => n.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
/** Every chart of this screen is in US dollars. */

const BUTTON = 'rounded-md bg-blue-700 px-3 py-2 text-sm font-medium text-white hover:bg-blue-800 disabled:opacity-60';
const PRIORITY_CLASS: Record<string, string> = {
  critical: 'text-red-700',
  high: 'text-amber-700',
  medium: 'text-blue-700',
  low: 'text-slate-600',
};

function Select({
  name,
  label,
  value,
  options,
  empty,
}: {
  name: string;
  label: string;
  value: number | null;
  options: { id: number; name: string }[];
  empty?: string;
}) {
  return (
    <label className="block text-sm">
      <span className="font-medium text-slate-700">{label}</span>
      <select name={name} defaultValue={value ?? ''} className={`${inputClass} mt-1`}>
        {empty !== undefined ? <option value="">{empty}</option> : null}
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
    </label>
  );
}

function Filters({ data, children }: { data: AiAnalyticsData; children?: ReactNode }) {
  const scoped = data.companies.length === 1;
  return (
    <Form
      method="get"
      className="mb-4 grid grid-cols-1 items-end gap-3 sm:grid-cols-2 lg:grid-cols-5"
      aria-label="Analysis filters"
    >
      <input type="hidden" name="tab" value={data.tab} />
      <Select
        name="companyId"
        label="Company"
        value={data.filters.companyId}
        options={data.companies}
        empty={scoped ? undefined : data.tab === 'budget' ? 'Select a company' : 'All companies'}
      />
      {children}
      <button type="submit" name="run" value="1" className={BUTTON}>
        Analyze
      </button>
    </Form>
  );
}

function Numbers({
  name,
  label,
  value,
  options,
  unit,
}: {
  name: string;
  label: string;
  value: number;
  options: readonly number[];
  unit: string;
}) {
  return (
    <label className="block text-sm">
      <span className="font-medium text-slate-700">{label}</span>
      <select name={name} defaultValue={value} className={`${inputClass} mt-1`}>
        {options.map((o) => (
          <option key={o} value={o}>
            {unit ? `${o} ${unit}${o === 1 ? '' : 's'}` : o}
          </option>
        ))}
      </select>
    </label>
  );
}

function Empty({ children }: { children: ReactNode }) {
  return (
    <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600">
      {children}
    </p>
  );
}

function InsightsTab({ data }: { data: AiAnalyticsData }) {
  const busy = useNavigation().state === 'submitting';
  return (
    <>
      <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
        <Form method="get" className="flex items-end gap-3" aria-label="Insight filters">
          <input type="hidden" name="tab" value="insights" />
          <Select
            name="companyId"
            label="Company"
            value={data.filters.companyId}
            options={data.companies}
            empty={data.companies.length === 1 ? undefined : 'All companies and the group'}
          />
          <button type="submit" className={BUTTON}>
            Show
          </button>
        </Form>
        <Form method="post">
          <input type="hidden" name="intent" value="generate" />
          {data.filters.companyId ? <input type="hidden" name="companyId" value={data.filters.companyId} /> : null}
          <button type="submit" className={BUTTON} disabled={busy}>
            Generate now
          </button>
        </Form>
      </div>
      {data.insights.length === 0 ? (
        <Empty>No insights yet: they are generated every night, or now with Generate now.</Empty>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2">
          {data.insights.map((i) => (
            <li key={i.id} className="rounded-lg border border-slate-200 bg-white p-4" data-testid="insight">
              <div className="flex flex-wrap items-center gap-2 text-xs">
                <span className="rounded border border-slate-300 px-1.5 capitalize text-slate-700">{i.type}</span>
                <span className={`font-semibold capitalize ${PRIORITY_CLASS[i.priority] ?? ''}`}>
                  {i.priority} priority
                </span>
                <span className="capitalize text-slate-600">{i.impact} impact</span>
                <span className="text-slate-600">{i.companyName ?? 'Group'}</span>
                {i.narrated ? (
                  <span className="rounded border border-blue-300 px-1.5 text-blue-800">
                    Written by the language model
                  </span>
                ) : null}
              </div>
              <h3 className="mt-2 font-semibold text-slate-900">{i.title}</h3>
              <p className="mt-1 text-sm text-slate-700">{i.description}</p>
              {i.actionItems.length ? (
                <ul className="mt-2 list-disc pl-5 text-sm text-slate-700">
                  {i.actionItems.map((a) => (
                    <li key={a}>{a}</li>
                  ))}
                </ul>
              ) : null}
              <p className="mt-2 text-xs text-slate-600">
                Generated {new Date(i.generatedAt).toLocaleString('en-US', { timeZone: 'UTC' })} UTC
              </p>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

const PREDICTION_COLUMNS: ResultColumn<PredictionRow>[] = [
  { heading: 'Company', cell: (p) => p.companyName },
  { heading: 'Category', cell: (p) => p.categoryName },
  { heading: 'Department', cell: (p) => p.departmentName },
  { heading: 'Predicted amount', cell: (p) => usd(p.predictedAmount), className: 'tabular-nums' },
  { heading: 'Confidence', cell: (p) => `${Math.round(p.confidence * 100)}%`, className: 'tabular-nums' },
  { heading: 'Historical average', cell: (p) => usd(p.historicalAverage), className: 'tabular-nums' },
  { heading: 'Seasonal pattern', cell: (p) => (p.seasonalPattern ? 'Yes' : 'No') },
  { heading: 'Trend', cell: (p) => p.trend, className: 'capitalize' },
  { heading: 'Factors', cell: (p) => p.factors.join('; '), detail: true },
];

const ANOMALY_COLUMNS: ResultColumn<ScreenAnomaly>[] = [
  { heading: 'Date', cell: (a) => a.date, className: 'whitespace-nowrap' },
  { heading: 'Company', cell: (a) => a.companyName },
  // The department under its category: one column less, so the table fits a laptop's width.
  {
    heading: 'Category',
    cell: (a) => (
      <>
        {a.categoryName}
        <span className="block text-xs text-slate-600">{a.departmentName}</span>
      </>
    ),
  },
  { heading: 'Type', cell: (a) => a.anomalyType.replace('_', ' ') },
  {
    heading: 'Severity',
    cell: (a) => a.severity,
    className: (a) => `font-semibold capitalize ${PRIORITY_CLASS[a.severity] ?? ''}`,
  },
  { heading: 'Amount', cell: (a) => usd(a.amount), className: 'tabular-nums' },
  { heading: 'Expected', cell: (a) => usd(a.expectedAmount), className: 'tabular-nums' },
  { heading: 'Deviation', cell: (a) => `${a.deviation}%`, className: 'tabular-nums' },
  { heading: 'Explanation', cell: (a) => a.explanation, detail: true },
  {
    heading: 'Recommendations',
    cell: (a) => (
      <ul className="list-disc pl-4">
        {recommendationsFor(a.anomalyType, a.amount, a.expectedAmount).map((r) => (
          <li key={r}>{r}</li>
        ))}
      </ul>
    ),
    detail: true,
  },
];
/** Group-wide, a row also names its company. */
const ANOMALY_COMPANY: ResultColumn<ScreenAnomaly> = { heading: 'Company', cell: (a) => a.companyName };

function PredictionsTab({ data }: { data: AiAnalyticsData }) {
  const top = data.predictionChart;
  return (
    <>
      <Filters data={data}>
        <Select
          name="departmentId"
          label="Department"
          value={data.filters.departmentId}
          options={data.departments}
          empty="All departments"
        />
        <Select
          name="categoryId"
          label="Category"
          value={data.filters.categoryId}
          options={data.categories}
          empty="All categories"
        />
        <Numbers name="months" label="Horizon" value={data.filters.months} options={[1, 3, 6, 12]} unit="month" />
      </Filters>
      {data.error ? <Alert title="Error">{`Failed to predict expenses: ${data.error}`}</Alert> : null}
      {data.predictions && data.page?.total === 0 ? (
        <Empty>No expenses to predict from for these filters.</Empty>
      ) : null}
      {top ? (
        <div className="mb-4">
          <DollarChart
            id="prediction-chart"
            title={`${top.companyName}, ${top.categoryName} (${top.departmentName}): history and prediction`}
            description={`Monthly expenses and the next ${top.months} predicted months with their likely range, in US dollars.`}
            labelHeading="Month"
            series={[
              {
                name: 'Actual',
                points: [
                  ...top.history.map((h) => ({ label: h.month, value: h.amount })),
                  ...top.forecast.map((f) => ({ label: f.month, value: Number.NaN })),
                ],
              },
              {
                name: 'Predicted',
                points: [
                  ...top.history.map((h, i) => ({
                    label: h.month,
                    value: i === top.history.length - 1 ? h.amount : Number.NaN,
                  })),
                  ...top.forecast.map((f) => ({ label: f.month, value: f.amount })),
                ],
              },
              {
                name: 'Low',
                points: [
                  ...top.history.map((h) => ({ label: h.month, value: Number.NaN })),
                  ...top.forecast.map((f) => ({ label: f.month, value: f.low })),
                ],
              },
              {
                name: 'High',
                points: [
                  ...top.history.map((h) => ({ label: h.month, value: Number.NaN })),
                  ...top.forecast.map((f) => ({ label: f.month, value: f.high })),
                ],
              },
            ]}
          />
        </div>
      ) : null}
      {data.predictions?.length ? (
        <ResultTable
          label="Predictions"
          columns={PREDICTION_COLUMNS}
          rows={data.predictions}
          rowKey={(p) => `${p.categoryId}-${p.departmentId}`}
          rowTestId="prediction"
        />
      ) : null}
      <ShowMore page={data.page} noun="predictions" />
    </>
  );
}

/** When the anomalies were computed, and whether the books moved on since. */
function ComputedNote({ computed }: { computed: NonNullable<AiAnalyticsData['computed']> }) {
  return (
    <p className="mb-3 text-sm text-slate-600" data-testid="anomalies-computed">
      <time dateTime={computed.at}>{`Computed ${computed.ago}`}</time>
      {computed.stale
        ? ' from the books as they were then; they have changed since, and new figures are being computed.'
        : ' from the books as they are.'}
    </p>
  );
}

function AnomaliesTab({ data }: { data: AiAnalyticsData }) {
  // With JavaScript the figures come in by themselves once computed; without, a reload brings them.
  useRefreshEvery(5_000, data.computing || !!data.computed?.stale);
  const weekly = data.daily !== null && data.daily.length < data.filters.lookbackDays;
  const columns = data.filters.companyId
    ? ANOMALY_COLUMNS
    : [...ANOMALY_COLUMNS.slice(0, 1), ANOMALY_COMPANY, ...ANOMALY_COLUMNS.slice(1)];
  return (
    <>
      <Filters data={data}>
        <Select
          name="departmentId"
          label="Department"
          value={data.filters.departmentId}
          options={data.departments}
          empty="All departments"
        />
        <Numbers
          name="lookbackDays"
          label="Window"
          value={data.filters.lookbackDays}
          options={[7, 14, 30, 90]}
          unit="day"
        />
      </Filters>
      {data.error ? <Alert title="Error">{`Failed to detect anomalies: ${data.error}`}</Alert> : null}
      {data.computing ? (
        <div role="status" data-testid="anomalies-computing">
          <Empty>
            Anomalies are being computed for the first time from the books; this takes a moment.{' '}
            <Link
              to={`?${new URLSearchParams({ tab: 'anomalies', lookbackDays: String(data.filters.lookbackDays), ...(data.filters.companyId ? { companyId: String(data.filters.companyId) } : {}), ...(data.filters.departmentId ? { departmentId: String(data.filters.departmentId) } : {}) })}`}
              className="text-blue-700 underline"
            >
              Reload
            </Link>{' '}
            to see them.
          </Empty>
        </div>
      ) : null}
      {data.computed ? <ComputedNote computed={data.computed} /> : null}
      {data.anomalies && data.page?.total === 0 ? <Empty>No anomalies detected</Empty> : null}
      {data.daily?.length && data.anomalies?.length ? (
        <div className="mb-4">
          <DollarChart
            id="anomaly-chart"
            title={`${weekly ? 'Weekly' : 'Daily'} expenses of the last ${data.filters.lookbackDays} days, anomalies marked`}
            description={`Each ${weekly ? "week's (from the day shown)" : "day's"} expenses in US dollars; the marked points are the ${weekly ? 'weeks' : 'days'} with an unusual expense, at the largest such expense's amount.`}
            labelHeading={weekly ? 'Week from' : 'Day'}
            series={[
              {
                name: `${weekly ? 'Weekly' : 'Daily'} expenses`,
                points: data.daily.map((d) => ({ label: d.date, value: d.amount })),
              },
              { name: 'Anomaly', points: data.daily.map((d) => ({ label: d.date, value: d.flagged ?? Number.NaN })) },
            ]}
          />
        </div>
      ) : null}
      {data.anomalies?.length ? (
        <ResultTable
          label="Anomalies"
          columns={columns}
          rows={data.anomalies}
          rowKey={(a) => `${a.anomalyType}-${a.expenseId}`}
          rowTestId="anomaly"
        />
      ) : null}
      {data.anomalies ? <ShowMore page={data.page} noun="anomalies" /> : null}
    </>
  );
}

function BudgetTab({ data }: { data: AiAnalyticsData }) {
  const b = data.budget;
  return (
    <>
      <Filters data={data}>
        <Numbers name="year" label="Year" value={data.filters.year} options={[2024, 2025, 2026]} unit="" />
      </Filters>
      {data.error ? <Alert title="Error">{data.error}</Alert> : null}
      {b ? (
        <div className="space-y-4">
          <dl className="grid grid-cols-2 gap-3 md:grid-cols-4" data-testid="budget-totals">
            {[
              ['Total budget', usd(b.totalBudget)],
              ['Total actual', usd(b.totalActual)],
              ['Variance', usd(b.variance)],
              ['Variance percentage', b.variancePercentage === null ? '—' : `${b.variancePercentage}%`],
            ].map(([label, value]) => (
              <div key={label} className="rounded-lg border border-slate-200 bg-white p-3">
                <dt className="text-xs text-slate-600">{label}</dt>
                <dd className="text-lg font-semibold text-slate-900">{value}</dd>
              </div>
            ))}
          </dl>
          {b.categories.length ? (
            <DollarChart
              id="budget-chart"
              kind="bar"
              title={`Budget and actual by category, ${b.year}`}
              description={`Each category's budget for the year next to what was spent, in US dollars. ${PLAN_RULE}`}
              labelHeading="Category"
              series={[
                { name: 'Budget', points: b.categories.map((c) => ({ label: c.categoryName, value: c.budget })) },
                { name: 'Actual', points: b.categories.map((c) => ({ label: c.categoryName, value: c.actual })) },
              ]}
            />
          ) : null}
          <p className="text-xs text-slate-600" data-testid="budget-rule">
            {PLAN_RULE} A year's budget is the sum of its months' plans.
          </p>
          <Card title="Recommendations">
            <ul className="list-disc pl-5 text-sm text-slate-700">
              {b.recommendations.map((r) => (
                <li key={r}>{r}</li>
              ))}
            </ul>
          </Card>
        </div>
      ) : null}
    </>
  );
}

export function AiAnalyticsScreen({
  data,
  failure,
}: {
  data: AiAnalyticsData;
  failure?: { result?: { error?: Record<string, string[]> } };
}) {
  const company = data.filters.companyId ? `&companyId=${data.filters.companyId}` : '';
  const formError = failure?.result?.error?.['']?.[0];
  return (
    <div>
      <PageHeading title="AI Insights" />
      <TabNav
        label="AI analytics sections"
        current={data.tab}
        tabs={AI_TABS.map((t) => ({ ...t, to: `/ai-analytics?tab=${t.key}${company}` }))}
      />
      {formError ? (
        <div className="mb-4">
          <Alert title="Error">{formError}</Alert>
        </div>
      ) : null}
      {data.tab === 'insights' ? <InsightsTab data={data} /> : null}
      {data.tab === 'predictions' ? <PredictionsTab data={data} /> : null}
      {data.tab === 'anomalies' ? <AnomaliesTab data={data} /> : null}
      {data.tab === 'budget' ? <BudgetTab data={data} /> : null}
      {data.tab === 'chat' ? (
        <ChatPanel
          turns={data.conversation?.turns ?? []}
          cleared={data.cleared}
          mode={data.mode}
          scopeNote={data.companies.length === 1 ? ` Only ${data.companies[0].name} is included.` : ''}
        />
      ) : null}
      {data.toast ? <ToastView toast={data.toast} /> : null}
    </div>
  );
}
