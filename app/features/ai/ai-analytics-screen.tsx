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
import { DollarChart, monthPoint } from '../../ui/chart/series-chart.tsx';
import { DateTime } from '../../platform/i18n/date-time.tsx';
import type { Formats } from '../../platform/i18n/formats.ts';
import { useFormats, useT } from '../../platform/i18n/i18n-context.tsx';
import { msg, type Translate } from '../../platform/i18n/messages.ts';
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
  { key: 'insights', label: msg('AI Insights') },
  { key: 'predictions', label: msg('Predictions') },
  { key: 'anomalies', label: msg('Anomalies') },
  { key: 'budget', label: msg('Budget Analysis') },
  { key: 'chat', label: msg('AI Chat') },
] as const;

/** A message of a table cell (a cell is a function of its row, not a component). */
function Said({ text }: { text: string }) {
  return <>{useT()(text)}</>;
}

/** Where a link or a <time> goes inside a translated sentence. */
const MARK = '\u0000';

/** Words of the values the books and the jobs keep in English (an enum's value, shown as a label). */
const SEVERITY_LABEL: Record<string, string> = {
  critical: msg('critical'),
  high: msg('high'),
  medium: msg('medium'),
  low: msg('low'),
};
const PRIORITY_LABEL: Record<string, string> = {
  critical: msg('critical priority'),
  high: msg('high priority'),
  medium: msg('medium priority'),
  low: msg('low priority'),
};
const IMPACT_LABEL: Record<string, string> = {
  positive: msg('positive impact'),
  negative: msg('negative impact'),
  neutral: msg('neutral impact'),
};
const INSIGHT_TYPE_LABEL: Record<string, string> = {
  trend: msg('trend'),
  forecast: msg('forecast'),
  optimization: msg('optimization'),
  alert: msg('alert'),
};
const TREND_LABEL: Record<string, string> = {
  increasing: msg('increasing'),
  decreasing: msg('decreasing'),
  stable: msg('stable'),
};
const ANOMALY_TYPE_LABEL: Record<string, string> = {
  unusual_amount: msg('unusual amount'),
  duplicate: msg('duplicate'),
  new_vendor: msg('new vendor'),
};
/** A label of one of these tables, or the value itself when it has none. */
const labelOf = (t: Translate, labels: Record<string, string>, value: string) =>
  labels[value] ? t(labels[value]) : value;

/** An amount in the reader's format (a table cell is a function of its row, not a component). */
function Money({ value }: { value: number }) {
  return <>{useFormats().money(value)}</>;
}

/** A percentage as computed (to a tenth): '12.5%', '100%'. */
const percentText = (f: Formats, value: number) => f.percent(value, Number.isInteger(value) ? 0 : 1);

function Percent({ value }: { value: number }) {
  return <>{percentText(useFormats(), value)}</>;
}

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
  const t = useT();
  return (
    <Form
      method="get"
      className="mb-4 grid grid-cols-1 items-end gap-3 sm:grid-cols-2 lg:grid-cols-5"
      aria-label={t('Analysis filters')}
    >
      <input type="hidden" name="tab" value={data.tab} />
      <Select
        name="companyId"
        label={t('Company')}
        value={data.filters.companyId}
        options={data.companies}
        empty={scoped ? undefined : data.tab === 'budget' ? t('Select a company') : t('All companies')}
      />
      {children}
      <button type="submit" name="run" value="1" className={BUTTON}>
        {t('Analyze')}
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
  /** An option in words ('3 months'); none: the number alone. */
  unit?: (n: number) => string;
}) {
  return (
    <label className="block text-sm">
      <span className="font-medium text-slate-700">{label}</span>
      <select name={name} defaultValue={value} className={`${inputClass} mt-1`}>
        {options.map((o) => (
          <option key={o} value={o}>
            {unit ? unit(o) : o}
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
  const t = useT();
  return (
    <>
      <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
        <Form method="get" className="flex items-end gap-3" aria-label={t('Insight filters')}>
          <input type="hidden" name="tab" value="insights" />
          <Select
            name="companyId"
            label={t('Company')}
            value={data.filters.companyId}
            options={data.companies}
            empty={data.companies.length === 1 ? undefined : t('All companies and the group')}
          />
          <button type="submit" className={BUTTON}>
            {t('Show')}
          </button>
        </Form>
        <Form method="post">
          <input type="hidden" name="intent" value="generate" />
          {data.filters.companyId ? <input type="hidden" name="companyId" value={data.filters.companyId} /> : null}
          <button type="submit" className={BUTTON} disabled={busy}>
            {t('Generate now')}
          </button>
        </Form>
      </div>
      {data.insights.length === 0 ? (
        <Empty>{t('No insights yet: they are generated every night, or now with Generate now.')}</Empty>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2">
          {data.insights.map((i) => (
            <li key={i.id} className="rounded-lg border border-slate-200 bg-white p-4" data-testid="insight">
              <div className="flex flex-wrap items-center gap-2 text-xs">
                <span className="rounded border border-slate-300 px-1.5 capitalize text-slate-700">
                  {labelOf(t, INSIGHT_TYPE_LABEL, i.type)}
                </span>
                <span className={`font-semibold capitalize ${PRIORITY_CLASS[i.priority] ?? ''}`}>
                  {labelOf(t, PRIORITY_LABEL, i.priority)}
                </span>
                <span className="capitalize text-slate-600">{labelOf(t, IMPACT_LABEL, i.impact)}</span>
                {i.companyName ? (
                  <span className="text-slate-600" translate="no">
                    {i.companyName}
                  </span>
                ) : (
                  <span className="text-slate-600">{t('Group')}</span>
                )}
                {i.narrated ? (
                  <span className="rounded border border-blue-300 px-1.5 text-blue-800">
                    {t('Written by the language model')}
                  </span>
                ) : null}
              </div>
              {/* Written by the job in each language; a summary as the model wrote it (docs/languages.md). */}
              <h3 className="mt-2 font-semibold text-slate-900" translate="no">
                {i.title}
              </h3>
              <p className="mt-1 text-sm text-slate-700" translate="no">
                {i.description}
              </p>
              {i.actionItems.length ? (
                <ul className="mt-2 list-disc pl-5 text-sm text-slate-700" translate="no">
                  {i.actionItems.map((a) => (
                    <li key={a}>{a}</li>
                  ))}
                </ul>
              ) : null}
              <p className="mt-2 text-xs text-slate-600">
                <GeneratedAt at={i.generatedAt} />
              </p>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** 'Generated <time>' in the reader's words. */
function GeneratedAt({ at }: { at: string }) {
  const t = useT();
  const [before, after] = t('Generated {at}', { at: MARK }).split(MARK);
  return (
    <>
      {before}
      <DateTime value={at} kind="instant" />
      {after}
    </>
  );
}

/** Data of a cell: names and texts kept as written. */
const dataCell = (text: string) => <span translate="no">{text}</span>;

/** The columns with their headings in the reader's words. */
const translated = <Row,>(t: Translate, columns: ResultColumn<Row>[]) =>
  columns.map((c) => ({ ...c, heading: t(c.heading) }));

const PREDICTION_COLUMNS: ResultColumn<PredictionRow>[] = [
  { heading: msg('Company'), cell: (p) => dataCell(p.companyName) },
  { heading: msg('Category'), cell: (p) => dataCell(p.categoryName) },
  { heading: msg('Department'), cell: (p) => dataCell(p.departmentName) },
  { heading: msg('Predicted amount'), cell: (p) => <Money value={p.predictedAmount} />, className: 'tabular-nums' },
  {
    heading: msg('Confidence'),
    cell: (p) => <Percent value={Math.round(p.confidence * 100)} />,
    className: 'tabular-nums',
  },
  { heading: msg('Historical average'), cell: (p) => <Money value={p.historicalAverage} />, className: 'tabular-nums' },
  { heading: msg('Seasonal pattern'), cell: (p) => <Said text={p.seasonalPattern ? msg('Yes') : msg('No')} /> },
  { heading: msg('Trend'), cell: (p) => <Said text={TREND_LABEL[p.trend] ?? p.trend} />, className: 'capitalize' },
  // Worded by the loader in the reader's language.
  { heading: msg('Factors'), cell: (p) => p.factors.join('; '), detail: true },
];

const ANOMALY_COLUMNS: ResultColumn<ScreenAnomaly>[] = [
  { heading: msg('Date'), cell: (a) => <DateTime value={a.date} kind="day" />, className: 'whitespace-nowrap' },
  { heading: msg('Company'), cell: (a) => dataCell(a.companyName) },
  // The department under its category: one column less, so the table fits a laptop's width.
  {
    heading: msg('Category'),
    cell: (a) => (
      <>
        {dataCell(a.categoryName)}
        <span className="block text-xs text-slate-600" translate="no">
          {a.departmentName}
        </span>
      </>
    ),
  },
  { heading: msg('Type'), cell: (a) => <Said text={ANOMALY_TYPE_LABEL[a.anomalyType] ?? a.anomalyType} /> },
  {
    heading: msg('Severity'),
    cell: (a) => <Said text={SEVERITY_LABEL[a.severity] ?? a.severity} />,
    className: (a) => `font-semibold capitalize ${PRIORITY_CLASS[a.severity] ?? ''}`,
  },
  { heading: msg('Amount'), cell: (a) => <Money value={a.amount} />, className: 'tabular-nums' },
  { heading: msg('Expected'), cell: (a) => <Money value={a.expectedAmount} />, className: 'tabular-nums' },
  { heading: msg('Deviation'), cell: (a) => <Percent value={a.deviation} />, className: 'tabular-nums' },
  // Written by the anomalies job; in the reader's language when it kept its message (docs/languages.md).
  { heading: msg('Explanation'), cell: (a) => dataCell(a.explanation), detail: true },
  {
    heading: msg('Recommendations'),
    cell: (a) => (
      <ul className="list-disc pl-4">
        {recommendationsFor(a.anomalyType, a.amount, a.expectedAmount).map((r) => (
          <li key={r}>
            <Said text={r} />
          </li>
        ))}
      </ul>
    ),
    detail: true,
  },
];
/** Group-wide, a row also names its company. */
const ANOMALY_COMPANY: ResultColumn<ScreenAnomaly> = { heading: msg('Company'), cell: (a) => dataCell(a.companyName) };

function PredictionsTab({ data }: { data: AiAnalyticsData }) {
  const top = data.predictionChart;
  const f = useFormats();
  const t = useT();
  return (
    <>
      <Filters data={data}>
        <Select
          name="departmentId"
          label={t('Department')}
          value={data.filters.departmentId}
          options={data.departments}
          empty={t('All departments')}
        />
        <Select
          name="categoryId"
          label={t('Category')}
          value={data.filters.categoryId}
          options={data.categories}
          empty={t('All categories')}
        />
        <Numbers
          name="months"
          label={t('Horizon')}
          value={data.filters.months}
          options={[1, 3, 6, 12]}
          unit={(count) => t('{count, plural, one {# month} other {# months}}', { count })}
        />
      </Filters>
      {data.error ? (
        <Alert title={t('Error')}>{t('Failed to predict expenses: {error}', { error: data.error })}</Alert>
      ) : null}
      {data.predictions && data.page?.total === 0 ? (
        <Empty>{t('No expenses to predict from for these filters.')}</Empty>
      ) : null}
      {top ? (
        <div className="mb-4">
          <DollarChart
            id="prediction-chart"
            title={t('{company}, {category} ({department}): history and prediction', {
              company: top.companyName,
              category: top.categoryName,
              department: top.departmentName,
            })}
            description={t(
              '{count, plural, one {Monthly expenses and the next # predicted month with its likely range, in US dollars.} other {Monthly expenses and the next # predicted months with their likely range, in US dollars.}}',
              { count: top.months },
            )}
            labelHeading={t('Month')}
            series={[
              {
                name: t('Actual'),
                points: [
                  ...top.history.map((h) => ({ label: monthPoint(f, h.month), value: h.amount })),
                  ...top.forecast.map((m) => ({ label: monthPoint(f, m.month), value: Number.NaN })),
                ],
              },
              {
                name: t('Predicted'),
                points: [
                  ...top.history.map((h, i) => ({
                    label: monthPoint(f, h.month),
                    value: i === top.history.length - 1 ? h.amount : Number.NaN,
                  })),
                  ...top.forecast.map((m) => ({ label: monthPoint(f, m.month), value: m.amount })),
                ],
              },
              {
                name: t('Low'),
                points: [
                  ...top.history.map((h) => ({ label: monthPoint(f, h.month), value: Number.NaN })),
                  ...top.forecast.map((m) => ({ label: monthPoint(f, m.month), value: m.low })),
                ],
              },
              {
                name: t('High'),
                points: [
                  ...top.history.map((h) => ({ label: monthPoint(f, h.month), value: Number.NaN })),
                  ...top.forecast.map((m) => ({ label: monthPoint(f, m.month), value: m.high })),
                ],
              },
            ]}
          />
        </div>
      ) : null}
      {data.predictions?.length ? (
        <ResultTable
          label={t('Predictions')}
          columns={translated(t, PREDICTION_COLUMNS)}
          rows={data.predictions}
          rowKey={(p) => `${p.categoryId}-${p.departmentId}`}
          rowTestId="prediction"
        />
      ) : null}
      <ShowMore page={data.page} noun={t('predictions')} />
    </>
  );
}

/** When the anomalies were computed, and whether the books moved on since. */
function ComputedNote({ computed }: { computed: NonNullable<AiAnalyticsData['computed']> }) {
  const t = useT();
  const [before, after] = (
    computed.stale
      ? t('{computed} from the books as they were then; they have changed since, and new figures are being computed.', {
          computed: MARK,
        })
      : t('{computed} from the books as they are.', { computed: MARK })
  ).split(MARK);
  return (
    <p className="mb-3 text-sm text-slate-600" data-testid="anomalies-computed">
      {before}
      <time dateTime={computed.at}>{t('Computed {ago}', { ago: computed.ago })}</time>
      {after}
    </p>
  );
}

/** 'Anomalies are being computed …; Reload to see them.', the link in the sentence. */
function ComputingNote({ to }: { to: string }) {
  const t = useT();
  const [before, after] = t(
    'Anomalies are being computed for the first time from the books; this takes a moment. {reload} to see them.',
    { reload: MARK },
  ).split(MARK);
  return (
    <Empty>
      {before}
      <Link to={to} className="text-blue-700 underline">
        {t('Reload')}
      </Link>
      {after}
    </Empty>
  );
}

function AnomaliesTab({ data }: { data: AiAnalyticsData }) {
  // With JavaScript the figures come in by themselves once computed; without, a reload brings them.
  useRefreshEvery(5_000, data.computing || !!data.computed?.stale);
  const weekly = data.daily !== null && data.daily.length < data.filters.lookbackDays;
  const f = useFormats();
  const t = useT();
  const columns = data.filters.companyId
    ? ANOMALY_COLUMNS
    : [...ANOMALY_COLUMNS.slice(0, 1), ANOMALY_COMPANY, ...ANOMALY_COLUMNS.slice(1)];
  return (
    <>
      <Filters data={data}>
        <Select
          name="departmentId"
          label={t('Department')}
          value={data.filters.departmentId}
          options={data.departments}
          empty={t('All departments')}
        />
        <Numbers
          name="lookbackDays"
          label={t('Window')}
          value={data.filters.lookbackDays}
          options={[7, 14, 30, 90]}
          unit={(count) => t('{count, plural, one {# day} other {# days}}', { count })}
        />
      </Filters>
      {data.error ? (
        <Alert title={t('Error')}>{t('Failed to detect anomalies: {error}', { error: data.error })}</Alert>
      ) : null}
      {data.computing ? (
        <div role="status" data-testid="anomalies-computing">
          <ComputingNote
            to={`?${new URLSearchParams({ tab: 'anomalies', lookbackDays: String(data.filters.lookbackDays), ...(data.filters.companyId ? { companyId: String(data.filters.companyId) } : {}), ...(data.filters.departmentId ? { departmentId: String(data.filters.departmentId) } : {}) })}`}
          />
        </div>
      ) : null}
      {data.computed ? <ComputedNote computed={data.computed} /> : null}
      {data.anomalies && data.page?.total === 0 ? <Empty>{t('No anomalies detected')}</Empty> : null}
      {data.daily?.length && data.anomalies?.length ? (
        <div className="mb-4">
          <DollarChart
            id="anomaly-chart"
            title={
              weekly
                ? t('Weekly expenses of the last {days} days, anomalies marked', { days: data.filters.lookbackDays })
                : t('Daily expenses of the last {days} days, anomalies marked', { days: data.filters.lookbackDays })
            }
            description={
              weekly
                ? t(
                    "Each week's (from the day shown) expenses in US dollars; the marked points are the weeks with an unusual expense, at the largest such expense's amount.",
                  )
                : t(
                    "Each day's expenses in US dollars; the marked points are the days with an unusual expense, at the largest such expense's amount.",
                  )
            }
            labelHeading={weekly ? t('Week from') : t('Day')}
            series={[
              {
                name: weekly ? t('Weekly expenses') : t('Daily expenses'),
                points: data.daily.map((d) => ({ label: f.day(d.date), value: d.amount })),
              },
              {
                name: t('Anomaly'),
                points: data.daily.map((d) => ({ label: f.day(d.date), value: d.flagged ?? Number.NaN })),
              },
            ]}
          />
        </div>
      ) : null}
      {data.anomalies?.length ? (
        <ResultTable
          label={t('Anomalies')}
          columns={translated(t, columns)}
          rows={data.anomalies}
          rowKey={(a) => `${a.anomalyType}-${a.expenseId}`}
          rowTestId="anomaly"
        />
      ) : null}
      {data.anomalies ? <ShowMore page={data.page} noun={t('anomalies')} /> : null}
    </>
  );
}

function BudgetTab({ data }: { data: AiAnalyticsData }) {
  const b = data.budget;
  const f = useFormats();
  const t = useT();
  return (
    <>
      <Filters data={data}>
        <Numbers name="year" label={t('Year')} value={data.filters.year} options={[2024, 2025, 2026]} />
      </Filters>
      {data.error ? <Alert title={t('Error')}>{data.error}</Alert> : null}
      {b ? (
        <div className="space-y-4">
          <dl className="grid grid-cols-2 gap-3 md:grid-cols-4" data-testid="budget-totals">
            {[
              [t('Total budget'), f.money(b.totalBudget)],
              [t('Total actual'), f.money(b.totalActual)],
              [t('Variance'), f.money(b.variance)],
              [t('Variance percentage'), b.variancePercentage === null ? '—' : percentText(f, b.variancePercentage)],
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
              title={t('Budget and actual by category, {year}', { year: String(b.year) })}
              description={`${t("Each category's budget for the year next to what was spent, in US dollars.")} ${t(PLAN_RULE)}`}
              labelHeading={t('Category')}
              series={[
                { name: t('Budget'), points: b.categories.map((c) => ({ label: c.categoryName, value: c.budget })) },
                { name: t('Actual'), points: b.categories.map((c) => ({ label: c.categoryName, value: c.actual })) },
              ]}
            />
          ) : null}
          <p className="text-xs text-slate-600" data-testid="budget-rule">
            {t(PLAN_RULE)} {t("A year's budget is the sum of its months' plans.")}
          </p>
          <Card title={t('Recommendations')}>
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
  const t = useT();
  return (
    <div>
      <PageHeading title={t('AI Insights')} />
      <TabNav
        label={t('AI analytics sections')}
        current={data.tab}
        tabs={AI_TABS.map((tab) => ({ ...tab, label: t(tab.label), to: `/ai-analytics?tab=${tab.key}${company}` }))}
      />
      {formError ? (
        <div className="mb-4">
          {/* The action's failure: a message of this screen, or already in the reader's words. */}
          <Alert title={t('Error')}>{t(formError)}</Alert>
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
          scopeCompany={data.companies.length === 1 ? data.companies[0].name : null}
        />
      ) : null}
      {data.toast ? <ToastView toast={data.toast} /> : null}
    </div>
  );
}
