import { expenseAnomaliesJob } from './expense-anomalies.ts';
import { refreshExpenseAnomalies } from '../expense-anomalies.server.ts';
import { handleJob } from '../../../platform/jobs/handler.ts';

export default handleJob(expenseAnomaliesJob, async (_payload, ctx) => {
  const result = await refreshExpenseAnomalies(ctx.db);
  if (result.skipped === null)
    ctx.log(
      `expense-anomalies: ${result.findings} finding(s) for ${result.companies} companies in ${result.seconds.toFixed(1)} s (generation ${result.generation})`,
    );
  return result;
});
