// GET /api/export/{table}/csv: one of the backup and export tables as a CSV download (the
// Export tab of Backup & Recovery), streamed through the shared CSV writer. Needs the backups permission; a
// user limited to one company gets that company's rows only.
import { apiRoute } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { csvByteStream, csvChunks, csvDownloadHeaders, exportFilename } from '../platform/resources/csv.server.ts';
import { isDomainError, notFound } from '../platform/errors.ts';
import {
  EXPORT_TABLES,
  exportTable,
  exportTableNames,
  resolveExportTable,
} from '../features/backups/exports.server.ts';
import { authorize } from '../platform/resources/resources.server.ts';
import { namedCompanyId } from '../platform/resources/resource-rows.server.ts';
import { snakeCase } from '../platform/lib/names.ts';

const route = apiRoute({
  GET: {
    allow: allow.to('backups'),
    run: async ({ params, ctx }) => {
      const table = resolveExportTable(params.table ?? '');
      if (!table) throw notFound();
      // Checked before the download starts: a refusal is a status, not a broken stream.
      const def = EXPORT_TABLES.get(table);
      if (def) authorize(ctx, def, 'read');
      // A table of one named company (One Network's) holds none of another company's rows:
      // its export for a user limited to that other company is the header alone.
      const foreign = def
        ? await namedCompanyId(ctx, def).then(
            () => false,
            (error: unknown) => (isDomainError(error) && error.kind === 'notFound' ? true : Promise.reject(error)),
          )
        : false;
      const exported = exportTable(ctx, table);
      const chunks = foreign ? csvChunks(exported.columns, []) : exported.csv().chunks;
      const name = snakeCase(table).replaceAll('_', '-');
      return new Response(csvByteStream(chunks), { headers: csvDownloadHeaders(exportFilename(name)) });
    },
  },
});

export const { loader, action } = route;
/** One manifest entry per table (the path's :table). */
export const access = exportTableNames().map((table) => ({ ...route.access[0], params: { table } }));
