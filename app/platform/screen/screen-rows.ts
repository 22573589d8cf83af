// What a list screen sends the browser of its rows and choices: only what it renders. The
// hydration data repeats every field of the HTML, so a stored row's other fields (ids, audit
// times, joined names the table does not show) and the form's dropdowns would weigh on every page.
import { packRows, type PackedRows, type PartialRow, type ScreenRow } from '../lib/packed-rows.ts';
import type { FormChoices, ResourceDef, RowOf } from '../resources/define.ts';

/** A declaration's row as its list screen sends it: some of its keys (see screenRows). */
export type ScreenRowOf<D extends ResourceDef> = PartialRow<RowOf<D>>;

/**
 * The rows' id, their name (the delete confirmation quotes it), the columns and the screen's own
 * fields, packed (lib/packed-rows.ts: the keys once, not once per row); `unpackRows` reads them.
 */
export function screenRows<R extends ScreenRow>(
  def: ResourceDef,
  rows: readonly R[],
  extra: readonly string[] = [],
): PackedRows<PartialRow<R>> {
  return packRows(rows, [...new Set(['id', 'name', ...def.list.columns.map((c) => c.key), ...extra])]);
}

/** With a form open all dropdowns; otherwise the filter's (value and label) and the lists the screen names. */
export function screenChoices(choices: FormChoices, formOpen: boolean, lists: readonly string[] = []): FormChoices {
  if (formOpen) return choices;
  const out: FormChoices = { filter: choices.filter.map(({ value, label }) => ({ value, label })) };
  for (const list of lists) out[list] = choices[list] ?? [];
  return out;
}
