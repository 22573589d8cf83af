// What other areas use of ai on the server (services, job definitions). Areas import each
// other through their index files only (docs/architecture.md).
export { PredictionRequest } from './ai-analytics.server.ts';
export { AnomalyRequest } from './ai-anomalies.server.ts';
export { ChatRequest } from './ai-chat.server.ts';
export { StreamQuestion } from './ai-conversation.server.ts';
export {
  BudgetAnalysisAnswer,
  ChatReplyAnswer,
  ChatStreamAnswer,
  ExpenseAnomalyListAnswer,
  ExpensePredictionListAnswer,
  InsightListAnswer,
} from './answers.ts';
