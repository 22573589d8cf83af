// Streams a declared resource's filtered list as CSV (resourceCsv: the CLI export's columns and
// cells; on PostgreSQL the database writes the records).
import type { LoaderFunctionArgs } from '@remix-run/node';
import { positiveIdParam } from '../lib/query.ts';
import type { ResourceDef } from '../resources/define.ts';
import { csvByteStream, csvDownloadHeaders, exportFilename } from '../resources/csv.server.ts';
import { notFound } from '../errors.ts';
import { screenListQuery, screenListState } from '../resources/list-query.ts';
import { resourceCsv } from '../resources/resource-csv.server.ts';
import { authorizeRead } from '../resources/resources.server.ts';
import { loadDownload } from '../screen/screen.server.ts';

/** The export of the declaration (of `defs`, those the route binds) named by the path's `resource` segment. */
export function exportResourceCsv(args: LoaderFunctionArgs, defs: readonly ResourceDef[]): Promise<Response> {
  return loadDownload(args, async ({ ctx, url }) => {
    const def = defs.find((d) => d.key === args.params.resource);
    if (!def) throw notFound();
    // Checked before the download starts: a refusal is a status, not a broken stream.
    await authorizeRead(ctx, def);
    const state = screenListState(def, url.searchParams);
    const {
      limit: _limit,
      offset: _offset,
      ...query
    } = screenListQuery(def, state, {
      companyType: url.searchParams.get('companyType') || null,
      companyId: positiveIdParam(url.searchParams.get('companyId')),
    });
    return new Response(csvByteStream(resourceCsv(ctx, def, query).chunks), {
      headers: csvDownloadHeaders(exportFilename(def.exportName)),
    });
  });
}
