// Create, update and delete of a declared resource. The checks that decide a write run in the
// write's own transaction, before it: the references exist and are visible to the actor (and
// give the row its company when the declaration copies it), the unique rules hold, nothing
// still uses a row being deleted; then writeRecord stores the row with its audit entry and
// version (joining this transaction). On PostgreSQL the rows checked are locked until commit;
// SQLite transactions begin immediate, so no other write runs in between. A constraint
// violation the checks could still not see (two requests at once) is a 400/409, never a 500.
import type { z } from 'zod';
import { dialectOf } from '../../../db/dialect.ts';
import { nameKey, normaliseName } from '../lib/names.ts';
import { canSeeCompany } from '../lib/permissions.ts';
import {
  companyColumnOf,
  companyCopiedFrom,
  companyNamed,
  companySelf,
  referencedResource,
  type FieldDef,
  type ResourceDef,
  type RowOf,
} from './define.ts';
import { patchSchema, recordSchema } from './schema.ts';
import { writeRecord } from '../audit.server.ts';
import { actingUser, actorUserId, inTransaction, type Db, type ServiceContext } from '../context.ts';
import {
  conflict,
  fieldErrorsFromZod,
  invalid,
  isDomainError,
  mapConstraintErrors,
  type FieldError,
} from '../errors.ts';
import { authorize, columnOf, dynamic, findRow, namedCompanyId, toApiRow, toColumns } from './resource-rows.server.ts';
import { INTL_LOCALES } from '../i18n/locales.ts';
import { alreadyExists, notOfChosen, notOfCompanyType, referenceNotFound, uniqueTaken } from './record-errors.ts';
import { nounInText as placedNoun } from './noun.ts';
import { marked } from '../i18n/refusal-words.ts';

// The errors below answer the API in English; each is marked with its text for a screen's reader
// (texts.ts), which the screens show instead.

const STILL_REFERENCED = 'This record is still referenced by other records';

interface WriteMeta {
  reason?: string | null;
  /** Create the row with this id (a deleted record restored from its last version); taken: 409. */
  id?: number;
}

function parse<T>(schema: z.ZodType<T>, input: unknown): T {
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    throw invalid([{ field: 'body', message: 'Expected a JSON object' }]);
  const result = schema.safeParse(input);
  if (!result.success) throw invalid(fieldErrorsFromZod(result.error.issues));
  return result.data;
}

/** Runs a write's checks and the write in one transaction, with the constraint fallback. */
function inWriteTransaction<T>(
  ctx: ServiceContext,
  def: ResourceDef,
  fn: (tx: ServiceContext) => Promise<T>,
): Promise<T> {
  const rule = def.unique?.[0];
  return mapConstraintErrors(() => inTransaction(ctx.db, (db) => fn({ ...ctx, db })), {
    unique: () =>
      rule?.conflict ? marked(conflict(rule.message), alreadyExists(rule.message)) : invalid([uniqueTaken(rule)]),
    foreignKey: STILL_REFERENCED,
  }).catch((error: unknown) => {
    if (isDomainError(error) && error.kind === 'conflict' && error.message === STILL_REFERENCED)
      marked(error, (r) => r.t('This record is still referenced by other records'));
    throw error;
  });
}

/** PostgreSQL: the row stays as read until the write commits (a concurrent update or delete waits). */
async function lockRow(db: Db, def: ResourceDef, id: number): Promise<void> {
  if (dialectOf(db) === 'postgres')
    await dynamic(db).selectFrom(def.table).select('id').where('id', '=', id).forUpdate().execute();
}

/**
 * The target's column that narrows its rows (`choices.narrowBy`: a category's department) and
 * the record's field choosing the same kind of row (the budget's department), if both exist.
 */
export function narrowingOf(def: ResourceDef, target: ResourceDef): { column: string; field: FieldDef } | null {
  const narrowBy = target.choices?.narrowBy;
  const by = narrowBy === undefined ? undefined : target.fields.find((f) => f.name === narrowBy);
  const field =
    by?.kind === 'reference'
      ? def.fields.find((f) => f.kind === 'reference' && referencedResource(f).table === referencedResource(by).table)
      : undefined;
  return by && field ? { column: by.name, field } : null;
}

/**
 * Checks the record's references exist and are visible to the actor, each as the referenced
 * resource declares its company, and the company-type rule. Returns the company the row copies
 * from a reference, when its declaration says so.
 */
async function resolveReferences(
  ctx: ServiceContext,
  def: ResourceDef,
  value: Record<string, unknown>,
): Promise<number | undefined> {
  const errors: FieldError[] = [];
  const user = actingUser(ctx);
  const visible = (companyId: number | null) => companyId === null || !user || canSeeCompany(user, companyId);
  const copiedFrom = companyCopiedFrom(def);
  const typeField = def.companyTypeField;
  const pg = dialectOf(ctx.db) === 'postgres';
  let companyId: number | undefined;
  const mismatches: { error: FieldError; by: string }[] = [];
  for (const field of def.fields) {
    if (field.kind !== 'reference' || value[field.name] == null) continue;
    const target = referencedResource(field);
    const companyColumn = companyColumnOf(target);
    const typeColumn = typeField ? companySelf(target)?.typeColumn : undefined;
    const narrowing = narrowingOf(def, target);
    let q = dynamic(ctx.db)
      .selectFrom(target.table)
      .select([
        'id',
        ...(companyColumn && companyColumn !== 'id' ? [companyColumn] : []),
        ...(typeColumn ? [typeColumn] : []),
        ...(narrowing ? [narrowing.column] : []),
      ])
      .where('id', '=', Number(value[field.name]));
    // Neither changed nor deleted before the write commits.
    if (pg) q = q.forShare();
    const row = await q.executeTakeFirst();
    const rowCompany = row && companyColumn ? Number(row[companyColumn]) : null;
    if (!row || !visible(rowCompany)) {
      errors.push(referenceNotFound(field));
      continue;
    }
    if (field.name === copiedFrom && rowCompany !== null) companyId = rowCompany;
    // A category filed under one department is not chosen for another (one without is).
    const narrowedBy = narrowing && row[narrowing.column];
    if (
      narrowing &&
      narrowedBy != null &&
      value[narrowing.field.name] != null &&
      Number(narrowedBy) !== Number(value[narrowing.field.name])
    ) {
      mismatches.push({ error: notOfChosen(field, narrowing.field), by: narrowing.field.name });
    }
    if (typeField && typeColumn && value[typeField] !== row[typeColumn]) {
      errors.push(notOfCompanyType(field, String(value[typeField])));
    }
  }
  // Only against a chosen row that exists ('Department not found' says enough otherwise).
  for (const { error, by } of mismatches) if (!errors.some((e) => e.field === by)) errors.push(error);
  if (errors.length) throw invalid(errors);
  return companyId;
}

/**
 * The unique rules, compared as app/platform/lib/names.ts nameKey says (case-insensitive after NFKC):
 * rows agreeing on the rule's other fields are read (in this transaction) and their text
 * compared by key. The value's text fields of a rule are stored NFKC-normalised and trimmed.
 */
async function checkUnique(ctx: ServiceContext, def: ResourceDef, value: Record<string, unknown>, exceptId?: number) {
  for (const rule of def.unique ?? []) {
    for (const name of rule.fields)
      if (typeof value[name] === 'string') value[name] = normaliseName(value[name] as string);
  }
  const columns = toColumns(def, value);
  for (const rule of def.unique ?? []) {
    let q = dynamic(ctx.db).selectFrom(def.table).select('id');
    const texts: { column: string; key: string }[] = [];
    for (const name of rule.fields) {
      const field = def.fields.find((f) => f.name === name);
      const column = field ? columnOf(field) : name;
      const v = columns[column] ?? value[name];
      if (typeof v === 'string') {
        texts.push({ column, key: nameKey(v) });
        q = q.select(column);
      } else q = q.where(column, '=', v);
    }
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
    const rows = (await q.execute()) as Record<string, unknown>[];
    const clash = rows.some((row) =>
      texts.every(({ column, key }) => typeof row[column] === 'string' && nameKey(row[column] as string) === key),
    );
    if (clash && rule.conflict) throw marked(conflict(rule.message), alreadyExists(rule.message));
    if (clash) throw invalid([uniqueTaken(rule)]);
  }
}

/** A row still used by others (referencedBy) is a 409 naming them. */
async function checkNotUsed(ctx: ServiceContext, def: ResourceDef, id: number) {
  const uses: string[] = [];
  const counted: { n: number; one: string; label: string }[] = [];
  for (const reference of def.referencedBy ?? []) {
    const row = await dynamic(ctx.db)
      .selectFrom(reference.table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(reference.column, '=', id)
      .executeTakeFirst();
    const n = Number(row?.n ?? 0);
    if (n > 0) uses.push(`${n.toLocaleString('en-US')} ${n === 1 ? reference.one : reference.label}`);
    if (n > 0) counted.push({ n, one: reference.one, label: reference.label });
  }
  if (uses.length)
    throw marked(conflict(`Cannot delete this ${nounInText(def.noun)}: it is still used by ${joinWords(uses)}`), (r) =>
      r.t('Cannot delete this {noun}: it is still used by {uses}', {
        noun: r.locale === 'en' ? nounInText(def.noun) : placedNoun(r.t(def.noun), r.locale, true),
        uses:
          r.locale === 'en'
            ? joinWords(uses)
            : new Intl.ListFormat(INTL_LOCALES[r.locale], { type: 'conjunction' }).format(
                counted.map(
                  ({ n, one, label }) => `${n.toLocaleString(INTL_LOCALES[r.locale])} ${r.t(n === 1 ? one : label)}`,
                ),
              ),
      }),
    );
}

/** A noun inside a sentence: lower case, acronyms kept ('API Source' → 'API source'). */
function nounInText(noun: string): string {
  return noun
    .split(' ')
    .map((word) => (/^[A-Z]{2,}$/.test(word) ? word : word.toLowerCase()))
    .join(' ');
}

function joinWords(items: string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/**
 * A new row without a company (the key absent, not empty) is the acting user's company when they
 * are limited to one; anyone else must name it (docs/api.md, "Choosing the company").
 */
function withOwnCompany(ctx: ServiceContext, def: ResourceDef, input: unknown): unknown {
  const companyId = actingUser(ctx)?.companyId ?? null;
  if (def.company !== 'column' || companyId === null) return input;
  if (input === null || typeof input !== 'object' || Array.isArray(input) || 'companyId' in input) return input;
  const field = def.fields.find((f) => f.name === 'companyId');
  return field?.kind === 'reference' ? { ...input, companyId } : input;
}

export async function createRecord<D extends ResourceDef>(
  ctx: ServiceContext,
  def: D,
  input: unknown,
  meta: WriteMeta = {},
): Promise<RowOf<D>> {
  authorize(ctx, def, 'create');
  const value = parse(recordSchema(def), withOwnCompany(ctx, def, input));
  if (def.pivot) return createPivot(ctx, def, value, meta);
  return inWriteTransaction(ctx, def, async (tx) => {
    // Rows of a named company ('One Network') take its id; it must exist and be the user's.
    const named = companyNamed(def);
    const namedId = named === null ? null : await namedCompanyId(tx, def);
    if (named !== null && namedId === null)
      throw marked(conflict(`The ${named} company does not exist`), (r) =>
        r.t('The {company} company does not exist', { company: named }),
      );
    const companyId = await resolveReferences(tx, def, value);
    await checkUnique(tx, def, value); // (normalises the unique names first)
    const values = toColumns(def, value);
    if (companyCopiedFrom(def)) values.companyId = companyId;
    if (namedId !== null) values.companyId = namedId;
    if (def.createdBy) values.createdBy = actorUserId(ctx.actor);
    if (meta.id !== undefined) {
      const taken = await dynamic(tx.db)
        .selectFrom(def.table)
        .select('id')
        .where('id', '=', meta.id)
        .executeTakeFirst();
      if (taken)
        throw marked(conflict(`A ${nounInText(def.noun)} with id ${meta.id} already exists`), (r) =>
          r.t('A {noun} with id {id} already exists', {
            noun: r.locale === 'en' ? nounInText(def.noun) : placedNoun(r.t(def.noun), r.locale, true),
            id: String(meta.id),
          }),
        );
      values.id = meta.id;
    }
    const row = await writeRecord(tx, def.table, { action: 'create', values }, { reason: meta.reason });
    // Read back with its joined names, within the caller's company scope.
    return toApiRow(def, await findRow(tx, def, Number(row.id)));
  });
}

/** Applies a subset of fields; the merged record must pass every rule of a new one. */
export async function updateRecord<D extends ResourceDef>(
  ctx: ServiceContext,
  def: D,
  id: number,
  input: unknown,
  meta: WriteMeta = {},
): Promise<RowOf<D>> {
  return (await updateRecordIfChanged(ctx, def, id, input, meta)).row;
}

/** updateRecord, saying whether anything changed (a patch with the values the row has writes nothing). */
export async function updateRecordIfChanged<D extends ResourceDef>(
  ctx: ServiceContext,
  def: D,
  id: number,
  input: unknown,
  meta: WriteMeta = {},
): Promise<{ row: RowOf<D>; changed: boolean }> {
  authorize(ctx, def, 'edit');
  const patch = parse(patchSchema(def), input);
  if (def.pivot) return updatePivot(ctx, def, id, patch, meta);
  return inWriteTransaction(ctx, def, async (tx) => {
    await lockRow(tx.db, def, id);
    const existing = toApiRow(def, await findRow(tx, def, id));
    const merged: Record<string, unknown> = { ...existing };
    for (const [key, v] of Object.entries(patch)) if (v !== undefined) merged[key] = v;
    const value = parse(
      recordSchema(def),
      Object.fromEntries(def.fields.map((f) => [f.name, merged[f.name] ?? undefined])),
    );
    // Nothing changes (an empty body, or the values it already has): no write, no audit entry,
    // no new version. Both sides go through the same schema, so they compare like for like.
    const stored = recordSchema(def).safeParse(
      Object.fromEntries(def.fields.map((f) => [f.name, existing[f.name] ?? undefined])),
    );
    if (
      stored.success &&
      def.fields.every((f) => JSON.stringify(stored.data[f.name] ?? null) === JSON.stringify(value[f.name] ?? null))
    )
      return { row: existing, changed: false };
    const companyId = await resolveReferences(tx, def, value);
    await checkUnique(tx, def, value, id);
    const values = toColumns(def, value);
    if (companyCopiedFrom(def)) values.companyId = companyId;
    await writeRecord(tx, def.table, { action: 'update', id, values }, { reason: meta.reason });
    await def.afterUpdate?.(tx, id, value);
    return { row: toApiRow(def, await findRow(tx, def, id)), changed: true };
  });
}

export async function deleteRecord<D extends ResourceDef>(
  ctx: ServiceContext,
  def: D,
  id: number,
  meta: WriteMeta = {},
): Promise<RowOf<D>> {
  authorize(ctx, def, 'delete');
  if (def.pivot) {
    const { source } = def.pivot;
    return inWriteTransaction(ctx, def, async (tx) => {
      const existing = toApiRow(def, await findRow(tx, def, id));
      for (const row of await monthRows(tx, def, existing)) await deleteRecord(tx, source, Number(row.id), meta);
      return existing;
    });
  }
  return inWriteTransaction(ctx, def, async (tx) => {
    await lockRow(tx.db, def, id);
    const existing = toApiRow(def, await findRow(tx, def, id));
    await checkNotUsed(tx, def, id);
    await writeRecord(tx, def.table, { action: 'delete', id }, { reason: meta.reason });
    return existing;
  });
}

// ---------------------------------------------------------------------------------------------
// A pivoted resource (a month of another resource's rows, one per type): each write is the
// writes of those rows, in one transaction, each with its own audit entry and version.

type Pivot = NonNullable<ResourceDef['pivot']>;

/** The source rows of a record's company and month (the record is the month's pivot). */
async function monthRows(
  tx: ServiceContext,
  def: ResourceDef,
  month: Record<string, unknown>,
): Promise<Record<string, unknown>[]> {
  const { source, typeField } = def.pivot!;
  return dynamic(tx.db)
    .selectFrom(source.table)
    .select(['id', typeField])
    .where('companyId', '=', Number(month.companyId))
    .where('year', '=', Number(month.year))
    .where('month', '=', Number(month.month))
    .execute();
}

/** A type's source values taken from a record. */
function partValues(fields: Readonly<Record<string, string>>, value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).map(([field, column]) => [column, value[field] ?? 0]));
}

/** The record's id: its month (as the view numbers it). */
const pivotId = (value: Record<string, unknown>) => Number(value.year) * 100 + Number(value.month);

async function createPivot<D extends ResourceDef>(
  ctx: ServiceContext,
  def: D,
  value: Record<string, unknown>,
  meta: WriteMeta,
): Promise<RowOf<D>> {
  const { source, typeField, parts } = def.pivot as Pivot;
  return inWriteTransaction(ctx, def, async (tx) => {
    const companyId = await namedCompanyId(tx, def);
    if (companyId === null)
      throw marked(conflict(`The ${companyNamed(def)} company does not exist`), (r) =>
        r.t('The {company} company does not exist', { company: companyNamed(def) }),
      );
    if ((await monthRows(tx, def, { companyId, year: value.year, month: value.month })).length)
      throw marked(
        conflict(def.unique?.[0]?.message ?? 'This record already exists'),
        alreadyExists(def.unique?.[0]?.message),
      );
    const types = Object.entries(parts);
    for (const [index, [type, fields]] of types.entries()) {
      const values = partValues(fields, value);
      // A type with nothing to count is left out, but a month always has its first type's row.
      if (index > 0 && Object.values(values).every((v) => v === 0)) continue;
      await createRecord(
        tx,
        source,
        { companyId, year: value.year, month: value.month, [typeField]: type, ...values },
        { reason: meta.reason },
      );
    }
    return toApiRow(def, await findRow(tx, def, pivotId(value)));
  });
}

async function updatePivot<D extends ResourceDef>(
  ctx: ServiceContext,
  def: D,
  id: number,
  patch: Record<string, unknown>,
  meta: WriteMeta,
): Promise<{ row: RowOf<D>; changed: boolean }> {
  const { source, typeField, parts } = def.pivot as Pivot;
  return inWriteTransaction(ctx, def, async (tx) => {
    const existing = toApiRow(def, await findRow(tx, def, id));
    const merged: Record<string, unknown> = { ...existing };
    for (const [key, v] of Object.entries(patch)) if (v !== undefined) merged[key] = v;
    const value = parse(
      recordSchema(def),
      Object.fromEntries(def.fields.map((f) => [f.name, merged[f.name] ?? undefined])),
    );
    const rows = await monthRows(tx, def, existing);
    const moved = value.year !== existing.year || value.month !== existing.month;
    if (
      moved &&
      (await monthRows(tx, def, { companyId: existing.companyId, year: value.year, month: value.month })).length
    ) {
      throw marked(
        conflict(def.unique?.[0]?.message ?? 'This record already exists'),
        alreadyExists(def.unique?.[0]?.message),
      );
    }
    let changed = false;
    for (const [type, fields] of Object.entries(parts)) {
      const values = partValues(fields, value);
      const row = rows.find((r) => r[typeField] === type);
      if (row) {
        changed =
          (
            await updateRecordIfChanged(
              tx,
              source,
              Number(row.id),
              { year: value.year, month: value.month, ...values },
              { reason: meta.reason },
            )
          ).changed || changed;
      } else if (Object.values(values).some((v) => v !== 0)) {
        await createRecord(
          tx,
          source,
          { companyId: existing.companyId, year: value.year, month: value.month, [typeField]: type, ...values },
          { reason: meta.reason },
        );
        changed = true;
      }
    }
    return { row: changed ? toApiRow(def, await findRow(tx, def, pivotId(value))) : existing, changed };
  });
}
