// Checks or imports a CSV file too big to run while its upload waits (docs/imports.md). Safe to
// run twice: a finished import is left alone, one left running by a crash starts again (its
// transaction was rolled back, so nothing of it was written).
import { z } from 'zod';
import { defineJob } from '../../../platform/jobs/define.ts';

export const csvImportJob = defineJob({
  name: 'csv-import',
  description: 'Checks or imports an uploaded CSV file into its table and records how it ended',
  payload: z.object({ importId: z.number().int().positive() }),
  // A million rows take a minute or two; a retry starts the file again.
  queue: { retryLimit: 2, retryDelay: 30, retryBackoff: true, expireInSeconds: 3600 },
  runsHereWithoutEngine: true,
});
