// Streams a declared resource's filtered list as CSV with the shared writer (the CLI export
// uses the same columns and cells).
import type { LoaderFunctionArgs } from '@remix-run/node';
import { findResource } from '../resources/index.ts';
import { exportColumns } from '../services/resource-csv.server.ts';
import { csvDownloadHeaders, csvReadableStream, exportFilename } from '../services/csv.server.ts';
import { isDomainError } from '../services/errors.ts';
import { screenListQuery, screenListState } from '../services/list-query.ts';
import { positiveIdParam } from '../lib/query.ts';
import { authorize, recordBatches } from '../services/resources.server.ts';
import { requireAuth, serviceContext } from './session.server.ts';

export async function exportResourceCsv({ request, context, params }: LoaderFunctionArgs): Promise<Response> {
  const auth = await requireAuth(request, context);
  const def = findResource(params.resource);
  if (!def) throw new Response('Not Found', { status: 404 });
  const ctx = serviceContext(request, context, auth);
  try {
    authorize(ctx, def, 'read');
  } catch (error) {
    if (isDomainError(error)) throw new Response(error.message, { status: error.status });
    throw error;
  }
  const url = new URL(request.url);
  const state = screenListState(def, url.searchParams);
  const { limit: _limit, offset: _offset, ...query } = screenListQuery(def, state, {
    companyType: url.searchParams.get('companyType') || null,
    companyId: positiveIdParam(url.searchParams.get('companyId')),
  });
  const batches = recordBatches(ctx, def, query);
  return new Response(csvReadableStream(exportColumns(def), { batches }), { headers: csvDownloadHeaders(exportFilename(def.exportName)) });
}
