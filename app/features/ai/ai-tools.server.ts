// The language model's tools (docs/decisions.md): the only way the model reads the books. Each
// tool calls the same services as the screens with the asking user's service context, so it has
// exactly their permissions and company scope; a refusal or a bad argument goes back to the model
// as {error} for it to recover from, never as another company's data. Results are trimmed to what
// an answer needs (no audit change payloads, no addresses).
import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import {
  analyzeCompanyBudget,
  ANOMALY_WINDOWS,
  BUDGET_YEARS,
  PREDICTION_MONTHS,
  predictExpenses,
} from './ai-analytics.server.ts';
import { ANOMALIES_COMPUTING, detectExpenseAnomalies } from './ai-anomalies.server.ts';
import { GROUPINGS, LEDGERS, ledgerTotals, visibleCompanies } from './ai-books.server.ts';
import { listAuditLogs, parseAuditQuery } from '../audit/index.server.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { isDomainError } from '../../platform/errors.ts';

interface Tool {
  description: string;
  parameters: Record<string, unknown>;
  run(ctx: ServiceContext, args: Record<string, unknown>, now: Date): Promise<unknown>;
}

const id = (description: string) => ({ type: 'integer', minimum: 1, description });
const TOP = 10;

export const TOOLS: Record<string, Tool> = {
  list_companies: {
    description:
      'The companies this user may see, with their ids and types. Call it first to turn a company name into its id.',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
    run: (ctx) => visibleCompanies(ctx),
  },
  ledger_totals: {
    description:
      'Total expenses or revenue in US dollars over a date range, for one company or all visible companies, optionally grouped (expenses: category, department, company, month; revenue: source, company, month).',
    parameters: {
      type: 'object',
      properties: {
        ledger: { type: 'string', enum: [...LEDGERS] },
        companyId: id('Company id; omit for all visible companies'),
        from: { type: 'string', description: 'First day, YYYY-MM-DD' },
        to: { type: 'string', description: 'Last day, YYYY-MM-DD' },
        groupBy: { type: 'string', enum: [...GROUPINGS] },
        category: { type: 'string', description: 'Expenses only: just the expense categories with this exact name' },
      },
      required: ['ledger', 'from', 'to'],
      additionalProperties: false,
    },
    run: (ctx, args) => ledgerTotals(ctx, args),
  },
  budget_vs_actual: {
    description: `Budget against actual expenses of one company for a year (${BUDGET_YEARS.join(', ')}): totals, variance (actual − budget; positive is over budget), the categories with the largest variances, and recommendations.`,
    parameters: {
      type: 'object',
      properties: { companyId: id('Company id'), year: { type: 'integer', enum: [...BUDGET_YEARS] } },
      required: ['companyId', 'year'],
      additionalProperties: false,
    },
    run: async (ctx, args) => {
      const analysis = await analyzeCompanyBudget(ctx, args);
      const categories = [...analysis.categories]
        .sort((a, b) => Math.abs(b.variance) - Math.abs(a.variance))
        .slice(0, TOP);
      return { ...analysis, categories };
    },
  },
  expense_anomalies: {
    description: `Unusual expenses over the last ${ANOMALY_WINDOWS.join(', ')} days: statistical outliers against the category's usual amount, duplicates and large first payments to a vendor, most severe first, as last computed (computedAt).`,
    parameters: {
      type: 'object',
      properties: {
        companyId: id('Company id; omit for all visible companies'),
        departmentId: id('Department id'),
        lookbackDays: { type: 'integer', enum: [...ANOMALY_WINDOWS] },
      },
      additionalProperties: false,
    },
    run: async (ctx, args, now) => {
      const found = await detectExpenseAnomalies(ctx, { ...args, limit: TOP }, now);
      if (found.computedAt === null) return { error: ANOMALIES_COMPUTING };
      return { count: found.total, computedAt: found.computedAt, anomalies: found.anomalies };
    },
  },
  expense_predictions: {
    description: `Predicted expenses per category and department for the next ${PREDICTION_MONTHS.join(', ')} months, from the monthly history (trend and, with two years of data, seasonality), with confidence 0-1.`,
    parameters: {
      type: 'object',
      properties: {
        companyId: id('Company id; omit for all visible companies'),
        departmentId: id('Department id'),
        categoryId: id('Expense category id'),
        months: { type: 'integer', enum: [...PREDICTION_MONTHS] },
      },
      additionalProperties: false,
    },
    run: async (ctx, args, now) => {
      const predictions = await predictExpenses(ctx, args, now);
      const total = predictions.reduce((sum, p) => sum + p.predictedAmount, 0);
      return {
        total: Math.round(total * 100) / 100,
        series: predictions.length,
        largest: [...predictions]
          .sort((a, b) => b.predictedAmount - a.predictedAmount)
          .slice(0, TOP)
          .map(({ history: _history, forecast: _forecast, ...p }) => p),
      };
    },
  },
  recent_changes: {
    description:
      'The latest entries of the audit trail (who changed which table and record, when, and why); needs the audit permission.',
    parameters: {
      type: 'object',
      properties: {
        tableName: { type: 'string', description: 'Only this table, e.g. actual_expenses' },
        limit: { type: 'integer', minimum: 1, maximum: 20 },
      },
      additionalProperties: false,
    },
    run: async (ctx, args) => {
      const query = parseAuditQuery({ tableName: args.tableName, limit: Math.min(20, Number(args.limit ?? 10) || 10) });
      const { rows, total } = await listAuditLogs(ctx, query);
      return {
        total,
        changes: rows.map((r) => ({
          action: r.action,
          table: r.tableName,
          recordId: r.recordId,
          user: r.username,
          at: r.timestamp,
          reason: r.reason,
        })),
      };
    },
  },
};

/** The tools as the chat completions API declares them. */
export const TOOL_DEFINITIONS: ChatCompletionFunctionTool[] = Object.entries(TOOLS).map(([name, tool]) => ({
  type: 'function',
  function: { name, description: tool.description, parameters: tool.parameters },
}));

/**
 * Runs one tool call for the asking user. What the model gets back is JSON text: the result, or
 * {error} for an unknown tool, arguments that are not JSON, or a refusal by the services.
 */
export async function runTool(ctx: ServiceContext, name: string, rawArguments: string, now: Date): Promise<string> {
  const tool = Object.hasOwn(TOOLS, name) ? TOOLS[name] : undefined;
  if (!tool) return JSON.stringify({ error: `Unknown tool: ${name}` });
  let args: unknown;
  try {
    args = rawArguments.trim() ? JSON.parse(rawArguments) : {};
  } catch {
    return JSON.stringify({ error: 'The arguments are not valid JSON' });
  }
  if (!args || typeof args !== 'object' || Array.isArray(args))
    return JSON.stringify({ error: 'The arguments must be a JSON object' });
  try {
    return JSON.stringify(await tool.run(ctx, args as Record<string, unknown>, now));
  } catch (error) {
    if (!isDomainError(error)) throw error;
    if (error.kind === 'forbidden') return JSON.stringify({ error: 'This user is not permitted to read that' });
    if (error.kind === 'notFound') return JSON.stringify({ error: 'No such company or record for this user' });
    return JSON.stringify({ error: error.message, fields: error.errors ?? [] });
  }
}
