// The generic service behind every declared resource (app/resources): list, read, create,
// update and delete with permission checks, company scope, validation, reference checks and
// the audit/version write helper. Routes, the API, the CLI and jobs all call these. Nothing
// here names a table: each declaration says how its rows are scoped, checked and offered.
//   resource-rows.server.ts     permissions, rows ↔ columns, the scoped base query
//   resource-list.server.ts     list conditions, sorts, totals, pages and export batches
//   resource-writes.server.ts   create/update/delete with their checks in one transaction
//   resource-choices.server.ts  dropdown choices derived from the referenced declarations
import type { ResourceDef, RowOf } from './define.ts';
import type { ServiceContext } from '../context.ts';
import { authorize, findRow, toApiRow } from './resource-rows.server.ts';

export { authorize, authorizeRead, type ApiRow } from './resource-rows.server.ts';
export { EXPORT_BATCH_ROWS, listRecords, recordBatches, resolveSort, type ListQuery } from './resource-list.server.ts';
export { createRecord, deleteRecord, updateRecord } from './resource-writes.server.ts';
export { formChoices } from './resource-choices.server.ts';

export async function getRecord<D extends ResourceDef>(ctx: ServiceContext, def: D, id: number): Promise<RowOf<D>> {
  authorize(ctx, def, 'read');
  return toApiRow(def, await findRow(ctx, def, id));
}
