// Streams a declared resource's filtered list as CSV with the shared writer (the CLI export
// uses the same columns and cells).
import type { LoaderFunctionArgs } from '@remix-run/node';
import { positiveIdParam } from '../lib/query.ts';
import { findResource } from '../resources/index.ts';
import { csvDownloadHeaders, csvReadableStream, exportFilename } from '../services/csv.server.ts';
import { notFound } from '../services/errors.ts';
import { screenListQuery, screenListState } from '../services/list-query.ts';
import { exportColumns } from '../services/resource-csv.server.ts';
import { authorizeRead, recordBatches } from '../services/resources.server.ts';
import { loadDownload } from './screen.server.ts';

export function exportResourceCsv(args: LoaderFunctionArgs): Promise<Response> {
  return loadDownload(args, async ({ ctx, url }) => {
    const def = findResource(args.params.resource);
    if (!def) throw notFound();
    // Checked before the download starts: a refusal is a status, not a broken stream.
    await authorizeRead(ctx, def);
    const state = screenListState(def, url.searchParams);
    const { limit: _limit, offset: _offset, ...query } = screenListQuery(def, state, {
      companyType: url.searchParams.get('companyType') || null,
      companyId: positiveIdParam(url.searchParams.get('companyId')),
    });
    const batches = recordBatches(ctx, def, query);
    return new Response(csvReadableStream(exportColumns(def), { batches }), { headers: csvDownloadHeaders(exportFilename(def.exportName)) });
  });
}
