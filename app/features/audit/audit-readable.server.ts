// The audit trail in the words of the screens: a stored column ('amountCents', 'categoryId') as
// its form label ('Amount', 'Category'), a stored value as the screens show it (money, dates,
// option labels, a referenced row's name). Labels and formats come from the resource
// declarations; the names of referenced rows are read for a whole page at once, in one
// statement, and only those the reader may see (another company's row shows as its number).
import { sql } from 'kysely';
import { FIXED_FORMATS, type ValueFormats } from '../../platform/lib/format.ts';
import { msg, type Translate } from '../../platform/i18n/messages.ts';
import { wordsLabel } from '../../platform/lib/labels.ts';
import { snakeCase } from '../../platform/lib/names.ts';
import { ROLE_LABELS } from '../../platform/lib/permissions.ts';
import {
  companyColumnOf,
  referencedResource,
  type FieldDef,
  type ResourceDef,
} from '../../platform/resources/define.ts';
import { companies, RESOURCE_LIST } from '../resources.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { columnOf, dynamic, scopeOf } from '../../platform/resources/resource-rows.server.ts';
import type { DeletedTally, ReadableChange, ReadableField } from './answers.ts';

export type { DeletedTally, ReadableChange, ReadableField };

/** A table whose rows a stored id may point to, and the column naming a row. */
interface Target {
  table: string;
  nameColumn: string;
  /** The column a company-limited reader's rows are found by (null: shared rows). */
  companyColumn: 'companyId' | 'id' | null;
}

type Kind = FieldDef['kind'] | 'instant' | 'flag' | 'plain';

interface ColumnInfo {
  label: string;
  kind: Kind;
  target?: Target;
  optionLabels?: Record<string, string>;
  widget?: 'year' | 'month';
  order: number;
}

const USERS: Target = { table: 'users', nameColumn: 'username', companyColumn: null };
const COMPANIES: Target = {
  table: companies.table,
  nameColumn: companies.choices?.label ?? 'name',
  companyColumn: 'id',
};

function targetOf(def: ResourceDef): Target {
  return { table: def.table, nameColumn: def.choices?.label ?? 'name', companyColumn: companyColumnOf(def) };
}

/** The resource stored under a snake_case table name (as the trail names tables). */
export function resourceOfTable(tableName: string): ResourceDef | undefined {
  return RESOURCE_LIST.find((def) => snakeCase(def.table) === tableName);
}

/** A table as its screen is titled ('actual_expenses' → 'Actual Expenses'). */
export function screenTableLabel(tableName: string): string {
  return resourceOfTable(tableName)?.title ?? wordsLabel(tableName);
}

const COLUMNS = new Map<string, Map<string, ColumnInfo>>();

/** The columns of a table the trail stores, as the declaration labels and formats them. */
function columnsOf(tableName: string): Map<string, ColumnInfo> {
  const cached = COLUMNS.get(tableName);
  if (cached) return cached;
  const columns = new Map<string, ColumnInfo>();
  const add = (column: string, info: Omit<ColumnInfo, 'order'>) => {
    if (!columns.has(column)) columns.set(column, { ...info, order: columns.size });
  };
  const def = resourceOfTable(tableName);
  for (const field of def?.fields ?? []) {
    add(columnOf(field), {
      label: field.label,
      kind: field.kind,
      target: field.kind === 'reference' ? targetOf(referencedResource(field)) : undefined,
      optionLabels: field.optionLabels,
      widget: field.widget ?? (field.name === 'year' ? 'year' : undefined),
    });
  }
  if (tableName === 'users') {
    add('username', { label: msg('Username'), kind: 'text' });
    add('role', { label: msg('Role'), kind: 'enum', optionLabels: ROLE_LABELS });
  }
  if (tableName === 'users' || (def && companyColumnOf(def) === 'companyId'))
    add('companyId', { label: msg('Company'), kind: 'reference', target: COMPANIES });
  add('createdBy', { label: msg('Created By'), kind: 'reference', target: USERS });
  add('createdAt', { label: msg('Created'), kind: 'instant' });
  add('updatedAt', { label: msg('Updated'), kind: 'instant' });
  COLUMNS.set(tableName, columns);
  return columns;
}

/** A column the declaration does not name: its words, formatted by what it holds. */
function infoOf(tableName: string, column: string): ColumnInfo {
  const known = columnsOf(tableName).get(column);
  if (known) return known;
  const kind: Kind = /^(is|can|has)[A-Z]/.test(column) ? 'flag' : /At$/.test(column) ? 'instant' : 'plain';
  return { label: wordsLabel(column), kind, order: Number.MAX_SAFE_INTEGER };
}

const NONE = '—';
const refKey = (target: Target, id: number) => `${target.table}:${id}`;

function refId(value: unknown): number | null {
  const id = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(id) ? id : null;
}

/** The /api's words: English, as declared. */
const english: Translate = (message) => message;

/**
 * A stored value as the screens show it, in `f` (the reader's formats, or the /api's fixed ones)
 * and an option's label in `t`'s words; a referenced row by its name (`names`), else its number.
 */
function formatValue(
  info: ColumnInfo,
  value: unknown,
  names: Map<string, string>,
  f: ValueFormats,
  t: Translate,
): string {
  if (value === null || value === undefined || value === '') return NONE;
  const number = Number(value);
  switch (info.kind) {
    case 'money':
      return Number.isFinite(number) ? f.money(number / 100) : String(value);
    case 'decimal':
      return Number.isFinite(number) ? f.number(number / 100) : String(value);
    case 'percent':
      return Number.isFinite(number) ? f.percent(number / 100) : String(value);
    case 'integer':
      if (info.widget === 'month') return f.month(number);
      if (info.widget === 'year') return String(value);
      return Number.isFinite(number) ? f.number(number) : String(value);
    case 'date':
      return f.day(String(value));
    case 'instant':
      return typeof value === 'string' ? f.instant(value) : String(value);
    case 'enum':
      return info.optionLabels?.[String(value)] ? t(info.optionLabels[String(value)]) : String(value);
    case 'boolean':
    case 'flag': {
      const on = value === true || value === 1 || value === 'true';
      const labels = info.optionLabels;
      return t(labels?.[String(on)] ?? (on ? msg('Yes') : msg('No')));
    }
    case 'reference': {
      const id = refId(value);
      if (id === null || !info.target) return String(value);
      return names.get(refKey(info.target, id)) ?? `#${id}`;
    }
    default:
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}

/** The referenced rows a set of stored rows points to, by target. */
class Wanted {
  readonly byTarget = new Map<string, { target: Target; ids: Set<number> }>();

  add(tableName: string, data: Record<string, unknown> | null | undefined) {
    for (const [column, value] of Object.entries(data ?? {})) {
      const info = infoOf(tableName, column);
      const id = refId(value);
      if (info.kind !== 'reference' || !info.target || id === null) continue;
      const entry = this.byTarget.get(info.target.table) ?? { target: info.target, ids: new Set<number>() };
      entry.ids.add(id);
      this.byTarget.set(info.target.table, entry);
    }
  }
}

/** The names of the wanted rows the reader may see, in one statement over all their tables. */
async function namesOf(ctx: ServiceContext, wanted: Wanted): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const scope = scopeOf(ctx);
  const db = dynamic(ctx.db);
  const parts = [...wanted.byTarget.values()].map(({ target, ids }) => {
    const q = db
      .selectFrom(target.table)
      .select([sql.lit(target.table).as('target'), 'id', sql<string>`${sql.ref(target.nameColumn)}`.as('name')])
      .where('id', 'in', [...ids]);
    return scope !== null && target.companyColumn ? q.where(target.companyColumn, '=', scope) : q;
  });
  if (parts.length === 0) return names;
  const query = parts.slice(1).reduce((all, part) => all.unionAll(part), parts[0]);
  for (const row of await query.execute()) names.set(`${String(row.target)}:${Number(row.id)}`, String(row.name));
  return names;
}

const byOrder = (tableName: string) => (a: string, b: string) =>
  infoOf(tableName, a).order - infoOf(tableName, b).order;

/**
 * Entries' `changes` as labelled, formatted changes, in the form's order; one statement for the
 * names. `formats` and `t`: the screen's reader's (the /api's fixed formats and English by
 * default); the labels stay English, the screen shows them through `t`.
 */
export async function readableChanges(
  ctx: ServiceContext,
  entries: readonly { tableName: string; changes: Record<string, { old: unknown; new: unknown }> | null }[],
  formats: ValueFormats = FIXED_FORMATS,
  t: Translate = english,
): Promise<ReadableChange[][]> {
  const wanted = new Wanted();
  for (const entry of entries) {
    const changes = Object.entries(entry.changes ?? {});
    wanted.add(entry.tableName, Object.fromEntries(changes.map(([column, c]) => [column, c?.old])));
    wanted.add(entry.tableName, Object.fromEntries(changes.map(([column, c]) => [column, c?.new])));
  }
  const names = await namesOf(ctx, wanted);
  return entries.map((entry) => {
    const changes = entry.changes ?? {};
    return Object.keys(changes)
      .sort(byOrder(entry.tableName))
      .map((column) => {
        const info = infoOf(entry.tableName, column);
        return {
          field: column,
          label: info.label,
          old: formatValue(info, changes[column]?.old, names, formats, t),
          new: formatValue(info, changes[column]?.new, names, formats, t),
        };
      });
  });
}

/** Versions' data as labelled, formatted fields (the record's id left out); one statement for the names. */
export async function readableVersionData(
  ctx: ServiceContext,
  versions: readonly { tableName: string; data: Record<string, unknown> | null }[],
  formats: ValueFormats = FIXED_FORMATS,
  t: Translate = english,
): Promise<ReadableField[][]> {
  const wanted = new Wanted();
  for (const version of versions) wanted.add(version.tableName, version.data);
  const names = await namesOf(ctx, wanted);
  return versions.map((version) => {
    const data = version.data ?? {};
    return Object.keys(data)
      .filter((column) => column !== 'id')
      .sort(byOrder(version.tableName))
      .map((column) => {
        const info = infoOf(version.tableName, column);
        return { field: column, label: info.label, value: formatValue(info, data[column], names, formats, t) };
      });
  });
}

/** The deletes inside each anomaly's window, by table; one statement for all the anomalies. */
export async function anomalyDeletes(
  ctx: ServiceContext,
  anomalies: readonly { userId: number | null; windowStart: string; windowEnd: string }[],
): Promise<DeletedTally[][]> {
  const windows = anomalies.filter((a) => a.userId !== null);
  if (windows.length === 0) return anomalies.map(() => []);
  const deletes = await ctx.db
    .selectFrom('auditLogs')
    .select(['userId', 'tableName', 'timestamp'])
    .where('action', '=', 'delete')
    .where((eb) =>
      eb.or(
        windows.map((a) =>
          eb.and([
            eb('userId', '=', a.userId),
            eb('timestamp', '>=', a.windowStart),
            eb('timestamp', '<=', a.windowEnd),
          ]),
        ),
      ),
    )
    .execute();
  return anomalies.map((a) => {
    const counts = new Map<string, number>();
    for (const d of deletes) {
      const at = Date.parse(d.timestamp);
      if (d.userId !== a.userId || at < Date.parse(a.windowStart) || at > Date.parse(a.windowEnd)) continue;
      counts.set(d.tableName, (counts.get(d.tableName) ?? 0) + 1);
    }
    return [...counts]
      .map(([tableName, count]) => ({ table: screenTableLabel(tableName), count }))
      .sort((x, y) => y.count - x.count || x.table.localeCompare(y.table));
  });
}
