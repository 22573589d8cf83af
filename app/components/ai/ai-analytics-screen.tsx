// The AI Analytics screen's markup (spec 3 §2.4): five tabs, each a GET form of filters and its
// results; charts are server-rendered SVG (SeriesChart) with their numbers as tables too.
import { Form, useNavigation } from '@remix-run/react';
import type { ReactNode } from 'react';
import type { BudgetAnalysis, ExpenseAnomaly, ExpensePrediction } from '../../services/ai-analytics.server.ts';
import type { Conversation } from '../../services/ai-conversation.server.ts';
import type { Insight } from '../../services/ai-insights.server.ts';
import { PLAN_RULE } from '../../lib/plan-rule.ts';
import type { Toast } from '../../lib/toast.ts';
import { ToastView } from '../ui/toast.tsx';
import { ChatPanel } from './chat-panel.tsx';
import { DollarChart } from '../chart/series-chart.tsx';
import { PageHeading } from '../layout/app-shell.tsx';
import { TabNav } from '../screen/action-result.tsx';
import { ResultTable, type ResultColumn } from '../table/result-table.tsx';
import { Alert, Card, inputClass } from '../ui/form.tsx';

export interface AiAnalyticsData {
  tab: 'insights' | 'predictions' | 'anomalies' | 'budget' | 'chat';
  companies: { id: number; name: string }[];
  departments: { id: number; name: string }[];
  categories: { id: number; name: string }[];
  filters: { companyId: number | null; departmentId: number | null; categoryId: number | null; months: number; lookbackDays: number; year: number };
  insights: Insight[];
  predictions: ExpensePrediction[] | null;
  anomalies: ExpenseAnomaly[] | null;
  budget: BudgetAnalysis | null;
  /** The anomaly window's daily totals, the series the anomalies are marked on. */
  daily: { date: string; amount: number }[] | null;
  error: string | null;
  /** 'Analysis Complete' (or the failure) after an Analyze. */
  toast: Toast | null;
  /** The AI Chat tab: the session's conversation. */
  conversation: Conversation | null;
  cleared: boolean;
  mode: 'model' | 'offline';
}

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
const PRIORITY_CLASS: Record<string, string> = { critical: 'text-red-700', high: 'text-amber-700', medium: 'text-blue-700', low: 'text-slate-600' };

function Select({ name, label, value, options, empty }: { name: string; label: string; value: number | null; options: { id: number; name: string }[]; empty?: string }) {
  return (
    <label className="block text-sm">
      <span className="font-medium text-slate-700">{label}</span>
      <select name={name} defaultValue={value ?? ''} className={`${inputClass} mt-1`}>
        {empty !== undefined ? <option value="">{empty}</option> : null}
        {options.map((o) => <option key={o.id} value={o.id}>{o.name}</option>)}
      </select>
    </label>
  );
}

function Filters({ data, children }: { data: AiAnalyticsData; children?: ReactNode }) {
  const scoped = data.companies.length === 1;
  return (
    <Form method="get" className="mb-4 grid grid-cols-1 items-end gap-3 sm:grid-cols-2 lg:grid-cols-5" aria-label="Analysis filters">
      <input type="hidden" name="tab" value={data.tab} />
      <Select name="companyId" label="Company" value={data.filters.companyId} options={data.companies} empty={scoped ? undefined : data.tab === 'budget' ? 'Select a company' : 'All companies'} />
      {children}
      <button type="submit" name="run" value="1" className={BUTTON}>Analyze</button>
    </Form>
  );
}

function Numbers({ name, label, value, options, unit }: { name: string; label: string; value: number; options: readonly number[]; unit: string }) {
  return (
    <label className="block text-sm">
      <span className="font-medium text-slate-700">{label}</span>
      <select name={name} defaultValue={value} className={`${inputClass} mt-1`}>
        {options.map((o) => <option key={o} value={o}>{o} {unit}{o === 1 ? '' : 's'}</option>)}
      </select>
    </label>
  );
}

function Empty({ children }: { children: ReactNode }) {
  return <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600">{children}</p>;
}

function InsightsTab({ data }: { data: AiAnalyticsData }) {
  const busy = useNavigation().state === 'submitting';
  return (
    <>
      <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
        <Form method="get" className="flex items-end gap-3" aria-label="Insight filters">
          <input type="hidden" name="tab" value="insights" />
          <Select name="companyId" label="Company" value={data.filters.companyId} options={data.companies} empty={data.companies.length === 1 ? undefined : 'All companies and the group'} />
          <button type="submit" className={BUTTON}>Show</button>
        </Form>
        <Form method="post">
          <input type="hidden" name="intent" value="generate" />
          {data.filters.companyId ? <input type="hidden" name="companyId" value={data.filters.companyId} /> : null}
          <button type="submit" className={BUTTON} disabled={busy}>Generate now</button>
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
                <span className={`font-semibold capitalize ${PRIORITY_CLASS[i.priority] ?? ''}`}>{i.priority} priority</span>
                <span className="capitalize text-slate-600">{i.impact} impact</span>
                <span className="text-slate-600">{i.companyName ?? 'Group'}</span>
                {i.narrated ? <span className="rounded border border-blue-300 px-1.5 text-blue-800">Written by the language model</span> : null}
              </div>
              <h3 className="mt-2 font-semibold text-slate-900">{i.title}</h3>
              <p className="mt-1 text-sm text-slate-700">{i.description}</p>
              {i.actionItems.length ? (
                <ul className="mt-2 list-disc pl-5 text-sm text-slate-700">{i.actionItems.map((a) => <li key={a}>{a}</li>)}</ul>
              ) : null}
              <p className="mt-2 text-xs text-slate-600">Generated {new Date(i.generatedAt).toLocaleString('en-US', { timeZone: 'UTC' })} UTC</p>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

const PREDICTION_COLUMNS: ResultColumn<ExpensePrediction>[] = [
  { heading: 'Category', cell: (p) => p.categoryName },
  { heading: 'Department', cell: (p) => p.departmentName },
  { heading: 'Predicted amount', cell: (p) => usd(p.predictedAmount), className: 'tabular-nums' },
  { heading: 'Confidence', cell: (p) => `${Math.round(p.confidence * 100)}%`, className: 'tabular-nums' },
  { heading: 'Historical average', cell: (p) => usd(p.historicalAverage), className: 'tabular-nums' },
  { heading: 'Seasonal pattern', cell: (p) => (p.seasonalPattern ? 'Yes' : 'No') },
  { heading: 'Trend', cell: (p) => p.trend, className: 'capitalize' },
  { heading: 'Factors', cell: (p) => p.factors.join('; ') },
];

const ANOMALY_COLUMNS: ResultColumn<ExpenseAnomaly>[] = [
  { heading: 'Date', cell: (a) => a.date, className: 'whitespace-nowrap' },
  { heading: 'Category', cell: (a) => a.categoryName },
  { heading: 'Department', cell: (a) => a.departmentName },
  { heading: 'Type', cell: (a) => a.anomalyType.replace('_', ' ') },
  { heading: 'Severity', cell: (a) => a.severity, className: (a) => `font-semibold capitalize ${PRIORITY_CLASS[a.severity] ?? ''}` },
  { heading: 'Amount', cell: (a) => usd(a.amount), className: 'tabular-nums' },
  { heading: 'Expected', cell: (a) => usd(a.expectedAmount), className: 'tabular-nums' },
  { heading: 'Deviation', cell: (a) => `${a.deviation}%`, className: 'tabular-nums' },
  { heading: 'Explanation', cell: (a) => a.explanation },
  { heading: 'Recommendations', cell: (a) => <ul className="list-disc pl-4">{a.recommendations.map((r) => <li key={r}>{r}</li>)}</ul> },
];

function PredictionsTab({ data }: { data: AiAnalyticsData }) {
  const top = data.predictions?.[0];
  return (
    <>
      <Filters data={data}>
        <Select name="departmentId" label="Department" value={data.filters.departmentId} options={data.departments} empty="All departments" />
        <Select name="categoryId" label="Category" value={data.filters.categoryId} options={data.categories} empty="All categories" />
        <Numbers name="months" label="Horizon" value={data.filters.months} options={[1, 3, 6, 12]} unit="month" />
      </Filters>
      {data.error ? <Alert title="Error">{`Failed to predict expenses: ${data.error}`}</Alert> : null}
      {data.predictions && data.predictions.length === 0 ? <Empty>No expenses to predict from for these filters.</Empty> : null}
      {top ? (
        <div className="mb-4">
          <DollarChart
            id="prediction-chart"
            title={`${top.categoryName} (${top.departmentName}): history and prediction`}
            description={`Monthly expenses and the next ${top.months} predicted months with their likely range, in US dollars.`}
            labelHeading="Month"
            series={[
              { name: 'Actual', points: [...top.history.map((h) => ({ label: h.month, value: h.amount })), ...top.forecast.map((f) => ({ label: f.month, value: Number.NaN }))] },
              { name: 'Predicted', points: [...top.history.map((h, i) => ({ label: h.month, value: i === top.history.length - 1 ? h.amount : Number.NaN })), ...top.forecast.map((f) => ({ label: f.month, value: f.amount }))] },
              { name: 'Low', points: [...top.history.map((h) => ({ label: h.month, value: Number.NaN })), ...top.forecast.map((f) => ({ label: f.month, value: f.low }))] },
              { name: 'High', points: [...top.history.map((h) => ({ label: h.month, value: Number.NaN })), ...top.forecast.map((f) => ({ label: f.month, value: f.high }))] },
            ]}
          />
        </div>
      ) : null}
      {data.predictions?.length ? <ResultTable label="Predictions" columns={PREDICTION_COLUMNS} rows={data.predictions} rowKey={(p) => `${p.categoryId}-${p.departmentId}`} rowTestId="prediction" /> : null}
    </>
  );
}

/** The largest flagged amount of a day (NaN: nothing flagged, no mark). */
const largestOn = (anomalies: ExpenseAnomaly[], date: string) => anomalies.filter((a) => a.date === date).reduce((max, a) => (Number.isNaN(max) || a.amount > max ? a.amount : max), Number.NaN);

function AnomaliesTab({ data }: { data: AiAnalyticsData }) {
  return (
    <>
      <Filters data={data}>
        <Select name="departmentId" label="Department" value={data.filters.departmentId} options={data.departments} empty="All departments" />
        <Numbers name="lookbackDays" label="Window" value={data.filters.lookbackDays} options={[7, 14, 30, 90]} unit="day" />
      </Filters>
      {data.error ? <Alert title="Error">{`Failed to detect anomalies: ${data.error}`}</Alert> : null}
      {data.anomalies && data.anomalies.length === 0 ? <Empty>No anomalies detected</Empty> : null}
      {data.daily?.length && data.anomalies?.length ? (
        <div className="mb-4">
          <DollarChart
            id="anomaly-chart"
            title={`Daily expenses of the last ${data.filters.lookbackDays} days, anomalies marked`}
            description="Each day's expenses in US dollars; the marked points are the days with an unusual expense, at that expense's amount."
            labelHeading="Day"
            series={[
              { name: 'Daily expenses', points: data.daily.map((d) => ({ label: d.date, value: d.amount })) },
              { name: 'Anomaly', points: data.daily.map((d) => ({ label: d.date, value: largestOn(data.anomalies!, d.date) })) },
            ]}
          />
        </div>
      ) : null}
      {data.anomalies?.length ? <ResultTable label="Anomalies" columns={ANOMALY_COLUMNS} rows={data.anomalies} rowKey={(a) => `${a.anomalyType}-${a.expenseId}`} rowTestId="anomaly" /> : null}
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
            {[['Total budget', usd(b.totalBudget)], ['Total actual', usd(b.totalActual)], ['Variance', usd(b.variance)], ['Variance percentage', b.variancePercentage === null ? '—' : `${b.variancePercentage}%`]].map(([label, value]) => (
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
          <p className="text-xs text-slate-600" data-testid="budget-rule">{PLAN_RULE} A year's budget is the sum of its months' plans.</p>
          <Card title="Recommendations">
            <ul className="list-disc pl-5 text-sm text-slate-700">{b.recommendations.map((r) => <li key={r}>{r}</li>)}</ul>
          </Card>
        </div>
      ) : null}
    </>
  );
}

export function AiAnalyticsScreen({ data, failure }: { data: AiAnalyticsData; failure?: { result?: { error?: Record<string, string[]> } } }) {
  const company = data.filters.companyId ? `&companyId=${data.filters.companyId}` : '';
  const formError = failure?.result?.error?.['']?.[0];
  return (
    <div>
      <PageHeading title="AI Insights" />
      <TabNav label="AI analytics sections" current={data.tab} tabs={AI_TABS.map((t) => ({ ...t, to: `/ai-analytics?tab=${t.key}${company}` }))} />
      {formError ? <div className="mb-4"><Alert title="Error">{formError}</Alert></div> : null}
      {data.tab === 'insights' ? <InsightsTab data={data} /> : null}
      {data.tab === 'predictions' ? <PredictionsTab data={data} /> : null}
      {data.tab === 'anomalies' ? <AnomaliesTab data={data} /> : null}
      {data.tab === 'budget' ? <BudgetTab data={data} /> : null}
      {data.tab === 'chat' ? (
        <ChatPanel turns={data.conversation?.turns ?? []} cleared={data.cleared} mode={data.mode} scopeNote={data.companies.length === 1 ? ` Only ${data.companies[0].name} is included.` : ''} />
      ) : null}
      {data.toast ? <ToastView toast={data.toast} /> : null}
    </div>
  );
}
