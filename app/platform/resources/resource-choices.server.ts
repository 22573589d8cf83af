// The dropdowns of a resource screen, each derived from the declaration of the resource it
// offers: its rows as the caller's company scope allows, labelled, ordered and grouped as its
// `choices` declare (expense categories under their company's name); the filter's choices are
// the referenced list, or the distinct values of its column among the rows the screen lists
// (through the column's index when its declaration says it leads one).
import { sql, type CompiledQuery } from 'kysely';
import { runCompiled } from '../../../db/compiled-cache.ts';
import {
  companiesOf,
  companyColumnOf,
  companySelf,
  referenceChoices,
  referencedResource,
  type Choice,
  type FieldDef,
  type FormChoices,
  type ResourceDef,
} from './define.ts';
import type { ServiceContext } from '../context.ts';
import { applyWhere, conditions, type ListQuery } from './resource-list.server.ts';
import { authorize, baseQuery, dynamic, scopeOf, type Row } from './resource-rows.server.ts';

/** The reference field whose row's label groups a resource's choices. */
function groupFieldOf(target: ResourceDef): FieldDef | undefined {
  const groupBy = target.choices?.groupBy;
  return groupBy === undefined ? undefined : target.fields.find((f) => f.name === groupBy && f.kind === 'reference');
}

/** The reference field that narrows a resource's choices (categories by department). */
function narrowFieldOf(target: ResourceDef): FieldDef | undefined {
  const narrowBy = target.choices?.narrowBy;
  return narrowBy === undefined ? undefined : target.fields.find((f) => f.name === narrowBy && f.kind === 'reference');
}

type ChoiceSource = NonNullable<ResourceDef['choices']>;

/** The rows a referenced resource offers, and how it declares them. */
async function choiceRows(
  ctx: ServiceContext,
  def: ResourceDef,
  target: ResourceDef,
  fixed: Partial<ListQuery>,
): Promise<{ source: ChoiceSource; rows: Row[] }> {
  const source = target.choices;
  if (!source) throw new Error(`${target.key} is referenced but declares no choices`);
  const scope = scopeOf(ctx);
  const companyColumn = companyColumnOf(target);
  const byCompany = scope !== null && !!companyColumn;
  // A screen of one company type (Mobile Metrics, Fintech Metrics) offers only such companies.
  const self = companySelf(target);
  const byType = !!(self && def.companyTypeField && fixed.companyType);
  // Every screen with a form or a filter reads these lists: compiled once per shape (db/compiled-cache.ts).
  const values = [...(byCompany ? [scope] : []), ...(byType ? [fixed.companyType] : [])];
  const rows = await runCompiled<Row>(
    ctx.db,
    `choices:${target.key}:${byCompany ? 'company' : ''}:${byType ? 'type' : ''}`,
    values,
    (vs) => {
      const given = [...vs];
      let q = dynamic(ctx.db)
        .selectFrom(target.table)
        .select([
          'id',
          source.label,
          ...(source.groupBy ? [source.groupBy] : []),
          ...(source.narrowBy ? [source.narrowBy] : []),
        ]);
      if (byCompany) q = q.where(companyColumn!, '=', given.shift());
      if (byType) q = q.where(self!.typeColumn, '=', given.shift());
      for (const column of source.orderBy ?? [source.label]) q = q.orderBy(column);
      return q;
    },
  );
  return { source, rows };
}

/** Dropdown choices for a resource's form and filter, limited to what the user may see. */
export async function formChoices(
  ctx: ServiceContext,
  def: ResourceDef,
  fixed: Partial<ListQuery> = {},
  options: { form?: boolean } = {},
): Promise<FormChoices> {
  authorize(ctx, def, 'read');
  const choices: FormChoices = { filter: [] };

  // The lists this screen needs: its reference fields' (a form-only list only with an open
  // form; none for a read-only resource, which has no form), the filter's when it compares a
  // reference, and the lists whose labels group another list. Every list it could show is sent,
  // empty when not read.
  const filter = def.list.filter;
  const filterField: FieldDef | undefined = filter && def.fields.find((f) => f.name === filter.column);
  const needed = new Set<ResourceDef>();
  const offered = new Set<ResourceDef>();
  const add = (to: Set<ResourceDef>, target: ResourceDef) => {
    to.add(target);
    for (const field of [groupFieldOf(target), narrowFieldOf(target)]) if (field) to.add(referencedResource(field));
  };
  const need = (target: ResourceDef, read = true) => {
    add(offered, target);
    if (read) add(needed, target);
  };
  for (const field of def.fields) {
    if (field.kind !== 'reference') continue;
    const target = referencedResource(field);
    need(target, !def.readOnly && !(target.choices?.formOnly && options.form === false));
  }
  if (filterField?.kind === 'reference') need(referencedResource(filterField));
  const companies = def.list.companyFilter ? companiesOf(def) : undefined;
  if (companies) need(companies);
  for (const target of offered) if (target.choices) choices[target.choices.list] = [];

  const loaded = new Map<ResourceDef, { source: ChoiceSource; rows: Row[] }>();
  for (const target of needed) loaded.set(target, await choiceRows(ctx, def, target, fixed));
  const toChoice = (source: ChoiceSource, row: Row): Choice => ({
    id: Number(row.id),
    value: String(row.id),
    label: String(row[source.label]),
  });
  for (const { source, rows } of loaded.values()) choices[source.list] = rows.map((row) => toChoice(source, row));
  // Grouped lists take their groups' labels from the lists just read (categories: company
  // names, then department names: 'Spark Marketing · Marketing').
  for (const [target, { source, rows }] of loaded) {
    const groupField = groupFieldOf(target);
    if (!groupField) continue;
    const narrowField = narrowFieldOf(target);
    const labels = new Map(referenceChoices(groupField, choices).map((c) => [c.id, c.label]));
    const narrowLabels = new Map(narrowField ? referenceChoices(narrowField, choices).map((c) => [c.id, c.label]) : []);
    choices[source.list] = rows.map((row) => {
      const group = labels.get(Number(row[groupField.name])) ?? '';
      if (!narrowField) return { ...toChoice(source, row), group };
      const narrow = row[narrowField.name] == null ? '' : String(row[narrowField.name]);
      const sub = narrow ? narrowLabels.get(Number(narrow)) : undefined;
      return { ...toChoice(source, row), group: sub ? `${group} · ${sub}` : group, narrow };
    });
  }

  if (filterField?.kind === 'reference') choices.filter = referenceChoices(filterField, choices);
  else if (filter) {
    const labels = filterField?.optionLabels;
    const values = await filterValues(ctx, def, fixed).execute();
    choices.filter = values.map(({ value }) => ({
      value: String(value),
      label: labels?.[String(value)] ?? String(value),
    }));
  }
  return choices;
}

/** The most values a filter offers. */
const FILTER_VALUES = 500;

/**
 * The statement of a non-reference filter's choices: the first distinct values of its column
 * among the rows the screen can list (e.g. only fintech metric names), in order. A column that
 * leads an index is read a value at a time, each step the first value after the previous one
 * (one index lookup), so the cost follows the values offered, not the rows; DISTINCT reads every
 * row the screen may list.
 */
export function filterValues(
  ctx: ServiceContext,
  def: ResourceDef,
  fixed: Partial<ListQuery>,
): { execute(): Promise<{ value: unknown }[]>; compile(): CompiledQuery } {
  const filter = def.list.filter;
  if (!filter) throw new Error(`${def.key} declares no filter`);
  const { where } = conditions(ctx, def, {
    companyId: fixed.companyId,
    companyType: fixed.companyType,
    limit: 0,
    offset: 0,
  });
  const column = `t.${filter.column}`;
  const rows = () => applyWhere(baseQuery(ctx, def, false), where);
  if (!filter.leadsIndex) {
    const query = rows().select(`${column} as value`).distinct().orderBy(column).limit(FILTER_VALUES);
    return { execute: () => query.execute(), compile: () => query.compile() };
  }
  const first = rows().select(column).orderBy(column).limit(1);
  const next = rows().select(column).where(column, '>', sql.ref('v.value')).orderBy(column).limit(1);
  const query = sql<{ value: unknown }>`
    with recursive v (value, n) as (
      select ${first}, 1
      union all
      select ${next}, v.n + 1 from v where v.value is not null and v.n < ${sql.lit(FILTER_VALUES)}
    )
    select value from v where value is not null order by value`;
  return { execute: async () => (await query.execute(ctx.db)).rows, compile: () => query.compile(ctx.db) };
}
