import { csvImportJob } from './csv-import.ts';
import { importSummary, performImport } from '../imports.server.ts';
import { handleJob } from '../../../platform/jobs/handler.ts';

export default handleJob(csvImportJob, async (payload, ctx) => {
  const done = await performImport(ctx, ctx, payload.importId);
  ctx.log(`csv-import: import #${done.id} ${done.status} (${importSummary(done)})`);
  return { id: done.id, status: done.status };
});
