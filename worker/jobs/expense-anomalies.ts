import { expenseAnomaliesJob } from '../../app/jobs/expense-anomalies.ts';
import { refreshExpenseAnomalies } from '../../app/services/expense-anomalies.server.ts';
import { handleJob } from '../define.ts';

export default handleJob(expenseAnomaliesJob, async (_payload, ctx) => {
  const result = await refreshExpenseAnomalies(ctx.db);
  if (result.skipped === null) ctx.log(`expense-anomalies: ${result.findings} finding(s) for ${result.companies} companies in ${result.seconds.toFixed(1)} s (generation ${result.generation})`);
  return result;
});
