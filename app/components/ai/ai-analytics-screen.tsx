// The AI Analytics screen's markup (spec 3 §2.4): five tabs, each a GET form of filters and its
// results; charts are server-rendered SVG (SeriesChart) with their numbers as tables too.
import { Form, Link, useLocation, useNavigation } from '@remix-run/react';
import type { ReactNode } from 'react';
import type { BudgetAnalysis, ExpenseAnomaly, ExpensePrediction } from '../../services/ai-analytics.server.ts';
import type { Insight } from '../../services/ai-insights.server.ts';
import { SeriesChart } from '../chart/series-chart.tsx';
import { PageHeading } from '../layout/app-shell.tsx';
import { TabNav } from '../screen/action-result.tsx';
import { ScrollRegion } from '../table/scroll-region.tsx';
import { Alert, Card, inputClass } from '../ui/form.tsx';

export interface ChatTurn {
  type: 'user' | 'assistant';
  content: string;
  timestamp: string;
}

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
  error: string | null;
}

export const AI_TABS = [
  { key: 'insights', label: 'AI Insights' },
  { key: 'predictions', label: 'Predictions' },
  { key: 'anomalies', label: 'Anomalies' },
  { key: 'budget', label: 'Budget Analysis' },
  { key: 'chat', label: 'AI Chat' },
] as const;

export const WELCOME = 'Hello! I can answer questions about your expenses, revenue, budgets, anomalies and predictions. Ask me, for example, "What did we spend this year?"';
export const CLEARED = 'Chat cleared. Ask me about expenses, revenue, budgets, anomalies or predictions.';

const usd = (n: number) => n.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
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
      <button type="submit" className={BUTTON}>Analyze</button>
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
          <SeriesChart
            id="prediction-chart"
            title={`${top.categoryName} (${top.departmentName}): history and prediction`}
            description={`Monthly expenses and the next ${top.months} predicted months with their likely range, in US dollars.`}
            format={usd}
            unit="US dollars"
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
      {data.predictions?.length ? (
        <ScrollRegion label="Predictions">
          <table className="min-w-full divide-y divide-slate-200 bg-white text-sm">
            <thead className="bg-slate-50 text-left text-slate-700">
              <tr>{['Category', 'Department', 'Predicted amount', 'Confidence', 'Historical average', 'Seasonal pattern', 'Trend', 'Factors'].map((h) => <th key={h} scope="col" className="px-3 py-2 font-medium">{h}</th>)}</tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {data.predictions.map((p) => (
                <tr key={`${p.categoryId}-${p.departmentId}`} data-testid="prediction">
                  <td className="px-3 py-2">{p.categoryName}</td>
                  <td className="px-3 py-2">{p.departmentName}</td>
                  <td className="px-3 py-2 tabular-nums">{usd(p.predictedAmount)}</td>
                  <td className="px-3 py-2 tabular-nums">{Math.round(p.confidence * 100)}%</td>
                  <td className="px-3 py-2 tabular-nums">{usd(p.historicalAverage)}</td>
                  <td className="px-3 py-2">{p.seasonalPattern ? 'Yes' : 'No'}</td>
                  <td className="px-3 py-2 capitalize">{p.trend}</td>
                  <td className="px-3 py-2">{p.factors.join('; ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      ) : null}
    </>
  );
}

function AnomaliesTab({ data }: { data: AiAnalyticsData }) {
  return (
    <>
      <Filters data={data}>
        <Select name="departmentId" label="Department" value={data.filters.departmentId} options={data.departments} empty="All departments" />
        <Numbers name="lookbackDays" label="Window" value={data.filters.lookbackDays} options={[7, 14, 30, 90]} unit="day" />
      </Filters>
      {data.error ? <Alert title="Error">{`Failed to detect anomalies: ${data.error}`}</Alert> : null}
      {data.anomalies && data.anomalies.length === 0 ? <Empty>No anomalies detected</Empty> : null}
      {data.anomalies?.length ? (
        <ScrollRegion label="Anomalies">
          <table className="min-w-full divide-y divide-slate-200 bg-white text-sm">
            <thead className="bg-slate-50 text-left text-slate-700">
              <tr>{['Date', 'Category', 'Department', 'Type', 'Severity', 'Amount', 'Expected', 'Deviation', 'Explanation', 'Recommendations'].map((h) => <th key={h} scope="col" className="px-3 py-2 font-medium">{h}</th>)}</tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {data.anomalies.map((a) => (
                <tr key={`${a.anomalyType}-${a.expenseId}`} data-testid="anomaly">
                  <td className="whitespace-nowrap px-3 py-2">{a.date}</td>
                  <td className="px-3 py-2">{a.categoryName}</td>
                  <td className="px-3 py-2">{a.departmentName}</td>
                  <td className="px-3 py-2">{a.anomalyType.replace('_', ' ')}</td>
                  <td className={`px-3 py-2 font-semibold capitalize ${PRIORITY_CLASS[a.severity] ?? ''}`}>{a.severity}</td>
                  <td className="px-3 py-2 tabular-nums">{usd(a.amount)}</td>
                  <td className="px-3 py-2 tabular-nums">{usd(a.expectedAmount)}</td>
                  <td className="px-3 py-2 tabular-nums">{a.deviation}%</td>
                  <td className="px-3 py-2">{a.explanation}</td>
                  <td className="px-3 py-2"><ul className="list-disc pl-4">{a.recommendations.map((r) => <li key={r}>{r}</li>)}</ul></td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      ) : null}
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
            <SeriesChart
              id="budget-chart"
              kind="bar"
              title={`Budget and actual by category, ${b.year}`}
              description="Each category's budget for the year next to what was spent, in US dollars."
              format={usd}
              unit="US dollars"
              labelHeading="Category"
              series={[
                { name: 'Budget', points: b.categories.map((c) => ({ label: c.categoryName, value: c.budget })) },
                { name: 'Actual', points: b.categories.map((c) => ({ label: c.categoryName, value: c.actual })) },
              ]}
            />
          ) : null}
          <Card title="Recommendations">
            <ul className="list-disc pl-5 text-sm text-slate-700">{b.recommendations.map((r) => <li key={r}>{r}</li>)}</ul>
          </Card>
        </div>
      ) : null}
    </>
  );
}

function ChatTab({ data, chat }: { data: AiAnalyticsData; chat: { turns: ChatTurn[]; context: { companyId?: number | null; topic?: string } } | null }) {
  const { search } = useLocation();
  const busy = useNavigation().state === 'submitting';
  const cleared = new URLSearchParams(search).get('cleared') === '1';
  const turns: ChatTurn[] = chat?.turns ?? [];
  return (
    <div className="space-y-4">
      <ol className="space-y-3 rounded-lg border border-slate-200 bg-white p-4" aria-label="Conversation" data-testid="chat-log">
        <li className="text-sm text-slate-700">{cleared ? CLEARED : WELCOME}</li>
        {turns.map((t, i) => (
          <li key={i} className={`whitespace-pre-wrap rounded-md p-3 text-sm ${t.type === 'user' ? 'ml-8 bg-blue-50 text-slate-900' : 'mr-8 bg-slate-50 text-slate-800'}`} data-testid={`chat-${t.type}`}>
            <span className="sr-only">{t.type === 'user' ? 'You' : 'Assistant'}: </span>
            {t.content}
          </li>
        ))}
      </ol>
      <Form method="post" className="space-y-2" aria-label="Ask a question">
        <input type="hidden" name="intent" value="chat" />
        <input type="hidden" name="history" value={JSON.stringify(turns.slice(-10))} />
        {chat?.context.companyId ? <input type="hidden" name="companyId" value={chat.context.companyId} /> : null}
        {chat?.context.topic ? <input type="hidden" name="topic" value={chat.context.topic} /> : null}
        <label htmlFor="chat-message" className="block text-sm font-medium text-slate-700">Your question</label>
        <textarea id="chat-message" name="message" required rows={2} maxLength={2000} className={inputClass} placeholder="Ask about expenses, budgets, anomalies or predictions" />
        <div className="flex gap-2">
          <button type="submit" className={BUTTON} disabled={busy}>Send</button>
          <Link to="/ai-analytics?tab=chat&cleared=1" className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-800 hover:bg-slate-50">Clear</Link>
        </div>
      </Form>
      <p className="text-xs text-slate-600">Answers come from the books you may see; amounts are in US dollars.{data.companies.length === 1 ? ` Only ${data.companies[0].name} is included.` : ''}</p>
    </div>
  );
}

export function AiAnalyticsScreen({ data, chat, failure }: { data: AiAnalyticsData; chat: { turns: ChatTurn[]; context: { companyId?: number | null; topic?: string } } | null; failure?: { result?: { error?: Record<string, string[]> } } }) {
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
      {data.tab === 'chat' ? <ChatTab data={data} chat={chat} /> : null}
    </div>
  );
}
