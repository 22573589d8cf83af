// What the AI calls of /api answer, as zod schemas: the one description of these answers. The
// services' and the screens' types are these schemas' outputs, and the OpenAPI document describes
// the answers with them (app/features/api-docs), so the code and the document cannot disagree.
import { z } from 'zod';
import { id } from '../../platform/lib/answer-fields.ts';
import {
  INSIGHT_TYPES,
  type ExpenseAnomaliesTable,
  type InsightImpact,
  type InsightPriority,
} from '../../../db/types.ts';
import type { Assert, Same } from '../../platform/lib/type-checks.ts';
import type { Trend } from './stats/forecast.ts';
import type { AnomalyType, Severity } from './stats/outliers.ts';

const dollars = z.number().describe('US dollars');
const month = z.string().describe('YYYY-MM');
const percentOfBudget = z.number().nullable().describe('Percent of the budget (null without a budget)');

const TrendAnswer = z.enum(['increasing', 'decreasing', 'stable']);
type _TrendsMatch = Assert<Same<z.output<typeof TrendAnswer>, Trend>>;

/** POST /api/ai/predict-expenses: one category × department. */
export const ExpensePredictionAnswer = z.strictObject({
  companyId: id.describe('The category’s company: the same category name exists in every company'),
  companyName: z.string(),
  categoryId: id,
  categoryName: z.string(),
  departmentId: id,
  departmentName: z.string(),
  predictedAmount: dollars.describe('US dollars over the whole horizon (months)'),
  confidence: z.number().min(0).max(1),
  historicalAverage: dollars.describe('US dollars, the average recorded month'),
  seasonalPattern: z.boolean().describe('Seasonal indices were applied (two full years of history)'),
  trend: TrendAnswer,
  factors: z.array(z.string()).describe('What drove the number, in words'),
  months: z.number().int().describe('The horizon asked for: 1, 3, 6 or 12 months from the current one'),
  history: z.array(z.strictObject({ month, amount: dollars })).describe('The complete months recorded, oldest first'),
  forecast: z
    .array(z.strictObject({ month, amount: dollars, low: dollars, high: dollars }))
    .describe('Each predicted month with its band'),
});
export type ExpensePrediction = z.output<typeof ExpensePredictionAnswer>;
export const ExpensePredictionListAnswer = z.array(ExpensePredictionAnswer);

const AnomalyTypeAnswer = z.enum(['unusual_amount', 'duplicate', 'new_vendor']);
const SeverityAnswer = z.enum(['critical', 'high', 'medium', 'low']);
type _AnomalyTypesMatch = Assert<Same<z.output<typeof AnomalyTypeAnswer>, AnomalyType>>;
type _StoredTypesMatch = Assert<Same<AnomalyType, ExpenseAnomaliesTable['anomalyType']>>;
type _SeveritiesMatch = Assert<Same<z.output<typeof SeverityAnswer>, Severity>>;
type _StoredSeveritiesMatch = Assert<Same<Severity, ExpenseAnomaliesTable['severity']>>;

/** POST /api/ai/detect-anomalies: an expense that stands out. */
export const ExpenseAnomalyAnswer = z.strictObject({
  expenseId: id,
  companyId: id,
  companyName: z.string(),
  categoryName: z.string(),
  departmentName: z.string(),
  anomalyType: AnomalyTypeAnswer.describe(
    'unusual_amount: far from the category’s usual amounts; duplicate: the same charge twice; new_vendor: a large first payment to a vendor',
  ),
  severity: SeverityAnswer,
  amount: dollars,
  expectedAmount: dollars,
  deviation: z.number().describe('Percent above (or below) the expected amount'),
  date: z.string().describe('YYYY-MM-DD'),
  explanation: z.string(),
  recommendations: z.array(z.string()),
});
export type ExpenseAnomaly = z.output<typeof ExpenseAnomalyAnswer>;
export const ExpenseAnomalyListAnswer = z.array(ExpenseAnomalyAnswer);

/** GET /api/ai/budget-analysis/{id}/{year}: the company's year, budget against actual. */
export const BudgetAnalysisAnswer = z.strictObject({
  companyId: id,
  year: z.number().int(),
  totalBudget: dollars,
  totalActual: dollars,
  variance: dollars.describe('US dollars, actual − budget (above 0: over budget)'),
  variancePercentage: percentOfBudget,
  categories: z.array(
    z.strictObject({
      categoryName: z.string(),
      budget: dollars,
      actual: dollars,
      variance: dollars,
      variancePercentage: percentOfBudget,
    }),
  ),
  recommendations: z.array(z.string()),
});
export type BudgetAnalysis = z.output<typeof BudgetAnalysisAnswer>;

const InsightPriorityAnswer = z.enum(['critical', 'high', 'medium', 'low']);
const InsightImpactAnswer = z.enum(['positive', 'negative', 'neutral']);
type _PrioritiesMatch = Assert<Same<z.output<typeof InsightPriorityAnswer>, InsightPriority>>;
type _ImpactsMatch = Assert<Same<z.output<typeof InsightImpactAnswer>, InsightImpact>>;

/** GET /api/ai/insights: a stored insight. */
export const InsightAnswer = z.strictObject({
  id,
  companyId: id.nullable().describe('null: the whole group'),
  companyName: z.string().nullable(),
  type: z.enum(INSIGHT_TYPES),
  priority: InsightPriorityAnswer,
  impact: InsightImpactAnswer,
  title: z.string(),
  description: z.string(),
  actionItems: z.array(z.string()),
  generatedAt: z.string().describe('ISO 8601 instant'),
  narrated: z.boolean().describe('Written by the language model: a summary of the computed insights beside it'),
});
export type Insight = z.output<typeof InsightAnswer>;
export const InsightListAnswer = z.array(InsightAnswer);

/** What the chat remembers between questions; the client sends it back with the next one. */
export const ChatContextAnswer = z.strictObject({
  companyId: id.nullable().optional().describe('The company the conversation is about (null: the group)'),
  topic: z.string().optional(),
  mode: z
    .enum(['offline', 'model'])
    .optional()
    .describe('How the answer was made: from the books directly, or by the language model through its tools'),
});
export type ChatContext = z.output<typeof ChatContextAnswer>;

/** POST /api/ai/chat. */
export const ChatReplyAnswer = z.strictObject({ response: z.string(), context: ChatContextAnswer });
export type ChatAnswer = z.output<typeof ChatReplyAnswer>;

/** One line of POST /api/ai/chat/stream: pieces of the answer, then how it ended. */
export const ChatStreamEvent = z.union([
  z.strictObject({ delta: z.string() }),
  z.strictObject({ done: z.literal(true), context: ChatContextAnswer }),
  z.strictObject({ error: z.string().describe('Chat failed: …') }),
]);
export type ChatStreamEvent = z.output<typeof ChatStreamEvent>;

/** POST /api/ai/chat/stream: the body as a whole, newline-delimited JSON (each line a ChatStreamEvent). */
export const ChatStreamAnswer = z
  .string()
  .describe(
    'Newline-delimited JSON, one event a line: {"delta": text} for each piece of the answer, then {"done": true, "context": {companyId?, topic?, mode?}} or {"error": "Chat failed: …"}',
  );
