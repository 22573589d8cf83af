// Test fixture: `npm run worker` (worker/main.ts) with the test jobs (test-jobs.ts) beside the
// app's, for the tests that spawn workers (a slow job to kill mid-run, a job writing a file).
import { appJobs } from '../app/features/jobs.ts';
import { runWorker } from './main.ts';
import { withTestJobs } from './test-jobs.ts';

runWorker((config) => withTestJobs(appJobs(config)));
