// The checks of one imported row, as a form post or an API call of the same record would get them
// (resource-writes.server.ts), without a query a row: the rows the file's references may name
// (their names, companies and types, within the importer's company scope) and the keys the
// unique rules hold are read once, before the rows. A reference is given by name (what the export
// writes) or by id; a name several rows share is told apart by the row's company, then by the
// department a category is filed under.
import { canSeeCompany } from '../../lib/permissions.ts';
import { nameKey, normaliseName } from '../../lib/names.ts';
import {
  companyColumnOf,
  companyCopiedFrom,
  companyFieldOf,
  companySelf,
  referencedResource,
  type FieldDef,
  type ResourceDef,
} from '../define.ts';
import { recordSchema } from '../schema.ts';
import { actingUser, actorUserId, type ServiceContext } from '../../context.ts';
import { fieldErrorsFromZod, type FieldError } from '../../errors.ts';
import { baseQuery, columnOf, dynamic, namedCompanyId, toColumns, type Row } from '../resource-rows.server.ts';
import { narrowingOf } from '../resource-writes.server.ts';
import {
  ambiguousName,
  companyNotFound,
  notOfChosen,
  notOfCompanyType,
  notOfRowCompany,
  referenceNotFound,
  uniqueTaken,
} from '../record-errors.ts';
import { recordingEnglish } from '../../i18n/refusal-words.ts';
import { cellInput } from './import-cells.ts';
import type { ImportColumns } from './import-columns.ts';

/** A row that passed: the record as the schema gave it and the columns to store. */
export interface CheckedRow {
  value: Record<string, unknown>;
  columns: Row;
  /** The row's id in the file's ID column (rows updating existing ones). */
  id: number | null;
}

export type RowCheck = { ok: true; row: CheckedRow } | { ok: false; errors: FieldError[] };

interface Target {
  id: number;
  company: number | null;
  type: unknown;
  narrow: number | null;
}

/** A referenced resource's rows the importer may see: by name key, and by id. */
interface TargetIndex {
  byName: Map<string, Target[]>;
  byId: Map<number, Target>;
}

async function loadTargets(ctx: ServiceContext, def: ResourceDef, typeColumn?: string): Promise<TargetIndex> {
  const companyColumn = companyColumnOf(def);
  const label = def.choices?.label ?? 'name';
  const narrow = def.choices?.narrowBy;
  const columns = [
    't.id as id',
    `t.${label} as label`,
    ...(companyColumn ? [`t.${companyColumn} as company`] : []),
    ...(typeColumn ? [`t.${typeColumn} as type`] : []),
    ...(narrow ? [`t.${narrow} as narrow`] : []),
  ];
  const rows = await baseQuery(ctx, def, false).select(columns).execute();
  const index: TargetIndex = { byName: new Map(), byId: new Map() };
  for (const row of rows) {
    const target: Target = {
      id: Number(row.id),
      company: row.company == null ? null : Number(row.company),
      type: row.type,
      narrow: row.narrow == null ? null : Number(row.narrow),
    };
    index.byId.set(target.id, target);
    if (typeof row.label !== 'string') continue;
    const key = nameKey(row.label);
    const same = index.byName.get(key);
    if (same) same.push(target);
    else index.byName.set(key, [target]);
  }
  return index;
}

/** The key a unique rule compares: names by nameKey, other values as they are stored. */
function uniqueKey(values: unknown[]): string {
  return values.map((v) => (typeof v === 'string' ? nameKey(v) : String(v))).join('\u0000');
}

interface UniqueIndex {
  rule: NonNullable<ResourceDef['unique']>[number];
  columns: string[];
  /** Key → the id of the row holding it (0: a row of this file not stored yet). */
  taken: Map<string, number>;
}

async function loadUnique(ctx: ServiceContext, def: ResourceDef): Promise<UniqueIndex[]> {
  const indexes: UniqueIndex[] = [];
  for (const rule of def.unique ?? []) {
    const columns = rule.fields.map((name) => {
      const field = def.fields.find((f) => f.name === name);
      return field ? columnOf(field) : name;
    });
    // Uniqueness spans every company: read outside the importer's scope.
    const rows = await dynamic(ctx.db)
      .selectFrom(def.table)
      .select(['id', ...columns])
      .execute();
    const taken = new Map<string, number>();
    for (const row of rows) taken.set(uniqueKey(columns.map((c) => row[c])), Number(row.id));
    indexes.push({ rule, columns, taken });
  }
  return indexes;
}

export interface RowChecker {
  /** Checks a record's cells; a passing row's unique keys are held for the rows after it. */
  check(cells: readonly string[]): RowCheck;
  /** The companies the importer may name (for the 'Company' column). */
  companies: TargetIndex | null;
}

/**
 * Reads what the checks need and returns the checker of this file's rows. Rows of a named
 * company ('One Network') need it to exist and be the importer's (else the whole import is a
 * 404 or 409, as a single create would be).
 */
export async function rowChecker(
  ctx: ServiceContext,
  def: ResourceDef,
  columns: ImportColumns,
  options: { updateById?: boolean } = {},
): Promise<RowChecker> {
  const user = actingUser(ctx);
  // The schema's messages remembered with their words, for the refused rows' readers.
  const wording = recordingEnglish();
  const schema = recordSchema(def, {}, { t: wording.t });
  const typeField = def.companyTypeField;
  const references = def.fields.filter((f) => f.kind === 'reference');
  const targets = new Map<string, TargetIndex>();
  for (const field of references) {
    const target = referencedResource(field);
    const typeColumn = typeField ? companySelf(target)?.typeColumn : undefined;
    targets.set(field.name, await loadTargets(ctx, target, typeColumn));
  }
  const companyField = companyFieldOf(def);
  const companyDef = companyField ? referencedResource(companyField) : undefined;
  const copiedFrom = companyCopiedFrom(def);
  // The companies the 'Company' column names (a row copying its company from a category).
  const copiedFromDef = copiedFrom ? referencedResource(def.fields.find((f) => f.name === copiedFrom)!) : undefined;
  const copiedCompanyField = copiedFromDef ? companyFieldOf(copiedFromDef) : undefined;
  const companiesDef = companyDef ?? (copiedCompanyField ? referencedResource(copiedCompanyField) : undefined);
  const companies =
    companyField && targets.has(companyField.name)
      ? targets.get(companyField.name)!
      : companiesDef
        ? await loadTargets(ctx, companiesDef)
        : null;
  const namedId = await namedCompanyId(ctx, def);
  const unique = await loadUnique(ctx, def);
  const ownCompany = def.company === 'column' && companyField?.name === 'companyId' ? (user?.companyId ?? null) : null;

  /** The one row a reference names, else the error to give. */
  function resolve(
    field: FieldDef,
    text: string,
    company: number | null,
    value: Record<string, unknown>,
  ): Target | FieldError {
    const index = targets.get(field.name)!;
    let found = index.byName.get(nameKey(text)) ?? [];
    if (found.length > 1 && company !== null) found = found.filter((t) => t.company === company || t.company === null);
    if (found.length > 1) {
      // A category filed under the row's department before one filed under another.
      const narrowing = narrowingOf(def, referencedResource(field));
      const chosen = narrowing ? value[narrowing.field.name] : undefined;
      if (typeof chosen === 'number') {
        const narrowed = found.filter((t) => t.narrow === chosen);
        if (narrowed.length > 0) found = narrowed;
      }
    }
    if (found.length === 1) return found[0];
    if (found.length > 1) return ambiguousName(field, text);
    if (/^\d+$/.test(text)) {
      const byId = index.byId.get(Number(text));
      if (byId) return byId;
    }
    return referenceNotFound(field);
  }

  function check(cells: readonly string[]): RowCheck {
    const errors: FieldError[] = [];
    const input: Record<string, unknown> = {};
    const chosen = new Map<string, Target>();
    for (const field of def.fields) {
      const at = columns.mapping[field.name];
      const v = at === null || at === undefined ? undefined : cellInput(field, cells[at]);
      if (v !== undefined && field.kind !== 'reference') input[field.name] = v;
    }
    // The row's company first: it tells apart the names the other references share.
    let company: number | null = namedId;
    const companyText = columns.company === null ? '' : normaliseName(cells[columns.company] ?? '');
    if (companies && companyText !== '') {
      const found = companies.byName.get(nameKey(companyText));
      if (found?.length === 1) company = found[0].id;
      else errors.push(companyNotFound(copiedFrom ?? 'companyId'));
    }
    const ordered = [...references].sort((a, b) => Number(b === companyField) - Number(a === companyField));
    for (const field of ordered) {
      const at = columns.mapping[field.name];
      const text = at === null || at === undefined ? undefined : cellInput(field, cells[at]);
      if (text === undefined) {
        if (field === companyField && ownCompany !== null) {
          input[field.name] = ownCompany;
          company = ownCompany;
        }
        continue;
      }
      const target = resolve(field, String(text), company, input);
      if ('message' in target) {
        errors.push(target);
        continue;
      }
      input[field.name] = target.id;
      chosen.set(field.name, target);
      if (field === companyField) company = target.id;
    }
    const parsed = schema.safeParse(input);
    if (!parsed.success) {
      for (const error of fieldErrorsFromZod(parsed.error.issues))
        if (!errors.some((e) => e.field === error.field)) errors.push(wording.mark(error));
    }
    if (errors.length || !parsed.success) return { ok: false, errors };
    const value = parsed.data as Record<string, unknown>;

    // The write's own rules (resolveReferences): the row's company, the company type, the narrowing.
    let copiedCompany: number | null = null;
    for (const [name, target] of chosen) {
      const field = def.fields.find((f) => f.name === name)!;
      if (name === copiedFrom && target.company !== null) {
        if (company !== null && target.company !== company) errors.push(notOfRowCompany(field));
        copiedCompany = target.company;
      }
      if (typeField && target.type !== undefined && value[typeField] !== target.type)
        errors.push(notOfCompanyType(field, String(value[typeField])));
      const narrowing = narrowingOf(def, referencedResource(field));
      const narrowedBy = narrowing ? value[narrowing.field.name] : null;
      if (narrowing && target.narrow !== null && narrowedBy != null && target.narrow !== narrowedBy)
        errors.push(notOfChosen(field, narrowing.field));
    }
    const rowCompany = copiedCompany ?? (companyField ? (value[companyField.name] as number | null) : null) ?? namedId;
    if (user && companyColumnOf(def) === 'companyId' && rowCompany !== null && !canSeeCompany(user, rowCompany))
      errors.push(companyNotFound(companyField?.name ?? copiedFrom ?? 'companyId'));
    if (errors.length) return { ok: false, errors };

    const id = options.updateById && columns.id !== null ? Number(cells[columns.id]?.trim() || NaN) : NaN;
    const rowId = Number.isSafeInteger(id) && id > 0 ? id : null;
    for (const rule of def.unique ?? [])
      for (const name of rule.fields)
        if (typeof value[name] === 'string') value[name] = normaliseName(value[name] as string);
    const stored = toColumns(def, value);
    if (copiedFrom) stored.companyId = copiedCompany;
    if (namedId !== null) stored.companyId = namedId;
    if (def.createdBy) stored.createdBy = actorUserId(ctx.actor);
    const keys: [UniqueIndex, string][] = [];
    for (const index of unique) {
      const key = uniqueKey(index.columns.map((c) => stored[c] ?? value[c]));
      const holder = index.taken.get(key);
      if (holder !== undefined && holder !== rowId) {
        return { ok: false, errors: [uniqueTaken(index.rule)] };
      }
      keys.push([index, key]);
    }
    for (const [index, key] of keys) index.taken.set(key, rowId ?? 0);
    return { ok: true, row: { value, columns: stored, id: rowId } };
  }

  return { check, companies };
}
