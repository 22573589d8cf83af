// Export Data: the current filtered list of a declared resource as a streamed CSV download.
import type { LoaderFunctionArgs } from '@remix-run/node';
import { exportResourceCsv } from '../http/resource-export.server.ts';

export const loader = (args: LoaderFunctionArgs) => exportResourceCsv(args);
