// The shape of a resource declaration and `defineResource` that checks it against the database
// types. Isomorphic and free of zod at run time (every list page loads it): the generic screens
// render forms and tables from the field and column lists; the zod schemas derived from the
// fields are in schema.ts, and the forms' HTML constraints in constraint.ts.
import type { Selectable } from 'kysely';
import type { z } from 'zod';
import type { Database } from '../../../db/types.ts';
import { isIsoDay } from '../lib/dates.ts';
import type { Area } from '../lib/permissions.ts';
import type { FieldError } from '../lib/field-error.ts';
import type { ServiceContext } from '../context.ts';
import { msg } from '../i18n/messages.ts';
import { nounFor, type ScreenText } from './texts.ts';

/** Largest amount with 12 digits of which 2 are decimals. */
export const MAX_AMOUNT = 9_999_999_999.99;
/** Largest count (subscribers, devices): what every integer column of both databases holds. */
export const MAX_COUNT = 2_147_483_647;

// ---------------------------------------------------------------------------------------------
// Names checked against db/types.ts. A declaration is written against one table's real columns
// (`defineResource` infers the table); the generic layer sees the checked result with plain
// strings, so declarations of different tables sit in one registry.

type TableName = keyof Database & string;
/** Tables with an `id`: what a resource is declared over (and what a reference points to). */
export type ResourceTable = { [K in TableName]: Database[K] extends { id: unknown } ? K : never }[TableName];
/** Columns (camelCase) of a table; of a union of tables, the columns they all have. */
type ColumnOf<T extends TableName> = keyof Database[T] & string;
/** `amount` for a column `amountCents` and the suffix 'Cents'. */
type Stem<Column extends string, Suffix extends string> = Column extends `${infer Name extends string}${Suffix}`
  ? Name
  : never;

/**
 * The names a declaration may use: plain text here (what the generic layer reads once a
 * declaration passed the check); `TableNames` below narrows each to one table's real names.
 */
interface Names {
  /** A column of the main table. */
  column: string;
  /** A money field: stored in the column `<name>Cents`. */
  money: string;
  /** A decimal field: stored in the column `<name>Hundredths`. */
  decimal: string;
  /** A sort key as declared in `list.sorts`… */
  sort: string;
  /** …and as the columns and the default sort refer to it (never widening the declared keys). */
  sortRef: string;
  /** A searched column: of the main table, or `alias.column` of a join. */
  search: string;
  join: JoinDef;
  use: ReferencedBy;
  company: CompanyRule;
  /** `true` when the table has the column the flag needs (else the flag cannot be set). */
  creator: true;
  counted: true;
}

type FieldName<N extends Names> = N['column'] | N['money'] | N['decimal'];

// ---------------------------------------------------------------------------------------------
// Fields

interface FieldOptions {
  label: string;
  required?: boolean;
  /** Message when a required field is missing (default '<Label> is required'). */
  requiredMessage?: string;
  /** Longest text accepted. */
  max?: number;
  /** What a text must hold: an http(s) URL, or a JSON object. */
  format?: 'url' | 'json';
  options?: readonly string[];
  optionLabels?: Record<string, string>;
  /** Value a new record's form starts with. */
  defaultValue?: string;
  /** A reference that may be cleared ('None'). */
  nullable?: boolean;
  placeholder?: string;
  /** Suggestions for a text field (datalist). */
  suggestions?: readonly string[];
  /** Smallest and largest value of an integer field (default 0 and MAX_COUNT). */
  range?: readonly [number, number];
  /**
   * How a form offers an integer field: a year (this year and the nine before, new records
   * start at this year) or a month (January–December, new records start at this month).
   */
  widget?: 'year' | 'month';
}

/** A field in forms and the API (camelCase name); money and decimals are stored scaled. */
type Field<N extends Names> =
  | (FieldOptions & { name: N['money']; kind: 'money'; reference?: never })
  | (FieldOptions & { name: N['decimal']; kind: 'decimal' | 'percent'; reference?: never })
  | (FieldOptions & { name: N['column']; kind: 'integer'; reference?: never })
  | (FieldOptions & { name: N['column']; kind: 'text' | 'textarea' | 'date' | 'enum' | 'boolean'; reference?: never })
  | (FieldOptions & {
      name: N['column'];
      kind: 'reference';
      /**
       * The referenced resource (`() => companies`: read when used, so declarations may refer to
       * each other): its declaration says how the reference is checked and offered.
       */
      reference: () => ResourceDef;
    });

export type FieldDef = Field<Names>;
/** A field of table T (or of every table of a union: shared pieces). */
export type FieldOf<T extends TableName> = Field<TableNames<T>>;

// ---------------------------------------------------------------------------------------------
// Company scope (docs/security.md)

/**
 * How a row finds its company: its own `companyId` column chosen in the form; `companyId`
 * copied from the row a reference field points to (budgets from their expense category); the
 * row is a company (with its name and type columns); or shared data with no company.
 */
type CompanyRule =
  'column' | { copiedFrom: string } | { self: { nameColumn: string; typeColumn: string } } | { named: string } | 'none';

/** The column holding a row's company: its own `companyId`, its `id` (a company), or none (shared data). */
export function companyColumnOf(def: { company: CompanyRule }): 'companyId' | 'id' | null {
  if (def.company === 'none') return null;
  return typeof def.company === 'object' && 'self' in def.company ? 'id' : 'companyId';
}

/** The reference field a row copies its company from, if it does. */
export function companyCopiedFrom(def: { company: CompanyRule }): string | null {
  return typeof def.company === 'object' && 'copiedFrom' in def.company ? def.company.copiedFrom : null;
}

/**
 * The companies every company rule refers to: their table, and the columns naming and typing
 * them (the `self` rule of their declaration). A named company is found by its name, and a list
 * joined to the companies is filtered by name or type through the join.
 */
export const COMPANY_TABLE = 'companies' satisfies TableName;
export const COMPANY_COLUMNS = { nameColumn: 'name', typeColumn: 'type' } as const satisfies Record<
  string,
  ColumnOf<typeof COMPANY_TABLE>
>;

/** The company whose name a resource's rows all belong to ('One Network'), if its rule names one. */
export function companyNamed(def: { company: CompanyRule }): string | null {
  return typeof def.company === 'object' && 'named' in def.company ? def.company.named : null;
}

/** The name and type columns of a resource whose rows are companies. */
export function companySelf(def: { company: CompanyRule }): { nameColumn: string; typeColumn: string } | null {
  return typeof def.company === 'object' && 'self' in def.company ? def.company.self : null;
}

type CompanyOf<T extends TableName> =
  | 'none'
  | { self: { nameColumn: ColumnOf<T>; typeColumn: ColumnOf<T> } }
  | ('companyId' extends ColumnOf<T> ? 'column' | { copiedFrom: ColumnOf<T> } | { named: string } : never);

// ---------------------------------------------------------------------------------------------
// List screens, joins and references

type ColumnFormat = 'text' | 'money' | 'decimal' | 'number' | 'percent' | 'month' | 'date' | 'instant' | 'label';

interface Column<Sort extends string> {
  /** Key of the API row shown in this column. */
  key: string;
  label: string;
  format?: ColumnFormat;
  /** Characters shown before an ellipsis. */
  truncate?: number;
  /** Text shown for an empty value ('N/A', 'Unknown'). */
  fallback?: string;
  /** Sort key (see `list.sorts`) when the header sorts. */
  sort?: Sort;
  /**
   * Shown under the row's first cell ('Label: value') instead of in a column of its own: what a
   * reader needs less than the other columns, so that a wide list fits a laptop's screen.
   */
  secondary?: boolean;
}
export type ColumnDef = Column<string>;

interface Filter<Col extends string> {
  /** URL/API parameter. */
  param: string;
  label: string;
  /**
   * Column of the main table the filter compares with. A reference field's filter offers the
   * referenced resource's choices; another column offers its distinct values.
   */
  column: Col;
  /**
   * The column is never null and leads an index of the table, also after `company_id` (a user
   * or a screen of one company): its distinct values are read by jumping through the index from
   * one to the next instead of reading every row (a large table's free-text column).
   */
  leadsIndex?: boolean;
}
export type FilterOf<T extends TableName> = Filter<ColumnOf<T>>;

interface Join<On extends string, Table extends ResourceTable, Select extends string> {
  table: Table;
  alias: string;
  /** Column of the main table holding the referenced id. */
  on: On;
  /** API key → column of the joined table. */
  select: Record<string, Select>;
}
type JoinDef = Join<string, ResourceTable, string>;
export type JoinOf<T extends TableName> = { [J in ResourceTable]: Join<ColumnOf<T>, J, ColumnOf<J>> }[ResourceTable];
/** 'alias.column' of each join. */
type JoinColumns<J> = J extends { alias: infer A extends string; table: infer R extends ResourceTable }
  ? `${A}.${ColumnOf<R>}`
  : never;

/** Rows of another table that point to this one: a delete answers 409 while they exist. */
interface Use<Table extends TableName, Col extends string> {
  table: Table;
  column: Col;
  /** Plural label, e.g. 'budget entries'. */
  label: string;
  /** Singular label, e.g. 'budget entry'. */
  one: string;
}
type ReferencedBy = Use<TableName, string>;
type UseOf = { [R in TableName]: Use<R, ColumnOf<R>> }[TableName];

/** A value computed for the API row (see `derived`). */
type Derive = (row: Record<string, unknown>, read: Record<string, unknown>) => number | null;

/** zod, as schema.ts hands it to a declaration's `refine`. */
export type Zod = typeof z;

/** The texts of a resource's screen: messages (`msg('…')`), or texts written for the reader (texts.ts). */
export interface Messages {
  created: ScreenText;
  updated: ScreenText;
  deleted: ScreenText;
  createFailed: ScreenText;
  updateFailed: ScreenText;
  deleteFailed: ScreenText;
  /** The browser confirmation before a delete; a message may name the row as `{name}`. */
  confirmDelete: ScreenText;
}

// ---------------------------------------------------------------------------------------------
// The declaration

interface ResourceShape<N extends Names> {
  /** Registry key and /api path segment ('budgets', 'actual-revenues'). */
  key: string;
  title: string;
  /** Singular noun for headings ('Budget Entry'). */
  noun: string;
  area: Area;
  company: N['company'];
  /** The row records who created it (`createdBy`), set on create and shown in the API. */
  createdBy?: N['creator'];
  /** Rows per company are kept in row_counts by triggers (migration 0003). */
  rowCounts?: N['counted'];
  /** A field that must equal the type of the company the row's company reference chooses. */
  companyTypeField?: FieldName<N>;
  /** A log: list, filter, search, sort, paging and export; no create, update or delete. */
  readOnly?: boolean;
  /** Label in the audit trail's table filter (default: the title). */
  auditLabel?: string;
  fields: readonly Field<N>[];
  /**
   * Cross-field rules, checked on the whole record (after merging an update). A rule written
   * with zod uses the `zod` handed in by the schema (schema.ts), so that a declaration, which
   * every list page loads, does not bring zod along.
   */
  refine?: (value: Record<string, unknown>, zod: Zod) => FieldError[];
  /**
   * Server work in the write's transaction once an update is stored (`value`: the whole record
   * as written). The browser loads declarations too: server code is imported when it runs.
   */
  afterUpdate?: (ctx: ServiceContext, id: number, value: Record<string, unknown>) => Promise<void>;
  joins: readonly N['join'][];
  list: {
    columns: readonly Column<N['sortRef']>[];
    /** Columns searched by the free-text search: 'column' of the main table or 'alias.column'. */
    search: readonly N['search'][];
    filter?: Filter<N['column']>;
    /**
     * Rows of several companies share names (departments, categories): the screen offers a
     * Company dropdown (`?companyId=`), within the user's company scope.
     */
    companyFilter?: boolean;
    /** Integer fields the API filters by equality (`?year=2026&month=3`). */
    exact?: readonly N['column'][];
    sorts: Record<
      N['sort'],
      {
        /** Column of the main table (camelCase), never null. */
        column: N['column'];
        /** A second column ordered the same way (year, then month). */
        then?: N['column'];
      }
    >;
    defaultSort: { key: N['sortRef']; dir: 'asc' | 'desc' };
  };
  /** Unique rules checked before writing: fields and the message for the last field. */
  unique?: readonly {
    fields: readonly FieldName<N>[];
    message: string;
    /** A clash is a 409 with the message (one record per month), not a field error. */
    conflict?: boolean;
  }[];
  referencedBy?: readonly N['use'][];
  /** How other resources' forms and filters offer this one's rows. */
  choices?: {
    /** Name of the list in the form choices ('companies'). */
    list: string;
    /** Column shown as the option's text. */
    label: N['column'];
    /** Order of the options (default: the label). */
    orderBy?: readonly N['column'][];
    /** A reference field whose row's label groups the options (categories by company). */
    groupBy?: N['column'];
    /**
     * A reference field that narrows the options (categories by department): its label joins the
     * group's, and a form that also chooses that field's resource offers the options of the
     * chosen row and those without one, and accepts no other.
     */
    narrowBy?: N['column'];
    /** A long list: sent only with an open form. */
    formOnly?: boolean;
  };
  messages: Messages;
  /** Form headings when they are not 'Add <noun>' / 'Edit <noun>'. */
  formTitles?: { create: string; edit: string };
  /** CSV export file base name. */
  exportName: string;
  /**
   * The /api paths of the collection (item: `/{id}` below it), when not just `key`; a
   * `latest` path answers its GET with the newest row (default sort) as one object, or 404.
   */
  apiPaths?: readonly { path: string; latest?: boolean }[];
  /** Columns the API rows and the table show but no form sets (an endpoint's last sync, written by the engine). */
  readOnlyColumns?: readonly N['column'][];
  /**
   * Values computed for the API and the table (a churn rate, a share): from the API row so far
   * (fields and the values derived before) and the row as read (with its `monthTotals`).
   */
  derived?: Record<string, Derive>;
  /**
   * Sums read with each row: alias → a column summed over the rows of the same company, year
   * and month (the month's total a row's share is taken of).
   */
  monthTotals?: Record<string, N['column']>;
  /**
   * The rows are a month of another resource's rows, one per type, pivoted (a view): writes go
   * to those rows, a field of this resource being the column of one type's row.
   */
  pivot?: {
    source: ResourceDef;
    /** The source's field holding the type. */
    typeField: string;
    /** Per type, in the order written: this resource's field → the source's field. */
    parts: Readonly<Record<string, Readonly<Record<string, string>>>>;
  };
}

/** One table's names: S are the declared sort keys, J the declared joins (for 'alias.column'). */
interface TableNames<T extends TableName, S extends string = string, J = JoinOf<T>> {
  column: ColumnOf<T>;
  money: Stem<ColumnOf<T>, 'Cents'>;
  decimal: Stem<ColumnOf<T>, 'Hundredths'>;
  sort: S;
  sortRef: NoInfer<S>;
  search: NoInfer<ColumnOf<T> | JoinColumns<J>>;
  join: JoinOf<T>;
  use: UseOf;
  company: CompanyOf<T>;
  creator: 'createdBy' extends ColumnOf<T> ? true : never;
  counted: 'companyId' extends ColumnOf<T> ? true : never;
}

/**
 * What a declaration is written as; a read-only resource needs no messages. The parts its rows'
 * type is made of are kept as written (`RowParts`).
 */
type ResourceDeclaration<T extends ResourceTable, S extends string, P extends RowParts<T>> = Omit<
  ResourceShape<TableNames<NoInfer<T>, S, P['joins'][number]>>,
  'messages' | 'readOnly' | keyof RowParts<T>
> & {
  /** Kysely table name (camelCase). */
  table: T;
  joins: P['joins'];
  fields: P['fields'];
  company: P['company'];
  createdBy?: P['createdBy'];
  derived?: Record<P['derived'], Derive>;
  readOnlyColumns?: P['readOnlyColumns'];
} & ({ readOnly?: false; messages: Messages } | { readOnly: true; messages?: Messages });

/** The parts of a declaration its rows' type is made of (see `DeclaredRow`). */
interface RowParts<T extends TableName> {
  joins: readonly JoinOf<T>[];
  fields: readonly FieldOf<T>[];
  company: CompanyOf<T>;
  createdBy: TableNames<T>['creator'];
  /** The keys of `derived`. */
  derived: string;
  readOnlyColumns: readonly ColumnOf<T>[];
}
/** One declaration's parts, as defineResource infers them. */
type Parts<J, F, C, B, X, R> = { joins: J; fields: F; company: C; createdBy: B; derived: X; readOnlyColumns: R };

declare const declared: unique symbol;
declare const rowType: unique symbol;

/** A row as the API and the screens get it: fields by name, money and decimals as numbers. */
export type ApiRow = Record<string, unknown> & { id: number };

/**
 * A declaration that passed `defineResource`: the generic layer's view of it, with plain names,
 * so declarations over different tables sit in one registry. `Row`: its rows' type (`RowOf`).
 */
export type ResourceDef<Row extends ApiRow = ApiRow> = ResourceShape<Names> & {
  /** Kysely table name (camelCase). */
  readonly table: ResourceTable;
  readonly [declared]: true;
  /** Never set: carries the rows' type to the generic service and the screens. */
  readonly [rowType]?: Row;
};

/** The rows of a declaration as the service gives them (`RowOf<typeof budgets>`); ApiRow for any declaration. */
export type RowOf<D extends ResourceDef> = NonNullable<D[typeof rowType]>;

// A declaration's rows, typed from its table's columns (db/types.ts) as toApiRow
// (resource-rows.server.ts) makes them: the id, the fields by name, the company, the creator,
// the joins' names, the read-only columns, the derived values and the times.
type Selected<T extends TableName> = Selectable<Database[T]>;
type ValueOf<T extends TableName, C> = C extends keyof Selected<T> ? Selected<T>[C] : never;
/** The column a field is stored in. */
type StoredIn<F> = F extends { kind: 'money'; name: infer N extends string }
  ? `${N}Cents`
  : F extends { kind: 'decimal' | 'percent'; name: infer N extends string }
    ? `${N}Hundredths`
    : F extends { name: infer N extends string }
      ? N
      : never;
type FieldValues<T extends TableName, F> = {
  [E in F as E extends { name: infer N extends string } ? N : never]: ValueOf<T, StoredIn<E>>;
};
type JoinPairs<J> = J extends { table: infer R extends ResourceTable; select: infer Sel }
  ? { [K in keyof Sel & string]: [K, ValueOf<R, Sel[K]>] }[keyof Sel & string]
  : never;
type JoinValues<J> = { [P in JoinPairs<J> as P[0]]: P[1] | null };
type Flat<O> = { [K in keyof O]: O[K] };
type DeclaredRow<T extends ResourceTable, P extends RowParts<T>> = Flat<
  { id: number } & FieldValues<T, P['fields'][number]> &
    JoinValues<P['joins'][number]> &
    (P['company'] extends 'none' | { self: unknown } ? unknown : Pick<Selected<T>, 'companyId' & keyof Selected<T>>) &
    ([P['createdBy']] extends [never] ? unknown : { createdBy: number | null }) & {
      [C in P['readOnlyColumns'][number]]: ValueOf<T, C> | null;
    } & (string extends P['derived'] ? unknown : { [K in P['derived']]: number | null }) &
    Pick<Selected<T>, ('createdAt' | 'updatedAt') & keyof Selected<T>>
>;

/**
 * Declares a resource over a table of `Database`: the table, field names (money as
 * `<name>Cents`, decimals as `<name>Hundredths`), sort, search, filter and join columns,
 * unique rules, the tables that reference it and its company rule must all exist, so a wrong
 * name fails `tsc` (see define.test-d.ts). The result carries its rows' type (`RowOf`).
 */
export function defineResource<
  T extends ResourceTable,
  S extends string,
  const J extends RowParts<T>['joins'],
  const F extends RowParts<T>['fields'],
  const C extends RowParts<T>['company'],
  B extends RowParts<T>['createdBy'] = never,
  X extends string = never,
  const R extends RowParts<T>['readOnlyColumns'] = readonly [],
>(
  declaration: ResourceDeclaration<T, S, Parts<J, F, C, B, X, R>>,
): ResourceDef<DeclaredRow<T, Parts<J, F, C, B, X, R>>> {
  const def: ResourceShape<Names> & { table: ResourceTable } = {
    ...declaration,
    messages: declaration.messages ?? messagesFor(declaration.noun.toLowerCase()),
  };
  return def as ResourceDef<DeclaredRow<T, Parts<J, F, C, B, X, R>>>;
}

// ---------------------------------------------------------------------------------------------
// References between declarations

/** The resource a reference field points to. */
export function referencedResource(field: FieldDef): ResourceDef {
  if (field.reference === undefined) throw new Error(`${field.name} is not a reference`);
  return field.reference();
}

/** The field choosing the row's company (a reference to the companies), if the form has one. */
export function companyFieldOf(def: Pick<ResourceDef, 'fields'>): FieldDef | undefined {
  return def.fields.find((f) => f.kind === 'reference' && referencedResource(f).table === COMPANY_TABLE);
}

/**
 * The declaration of the companies a resource's rows belong to, found as its company rule finds a
 * row's company: the resource itself (`self`), the one its company field references, or that of
 * the resource it copies its company from. None for shared data and a named company's rows.
 */
export function companiesOf(def: ResourceDef): ResourceDef | undefined {
  if (companySelf(def)) return def;
  const field = companyFieldOf(def);
  if (field) return referencedResource(field);
  const from = companyCopiedFrom(def);
  const via = from === null ? undefined : def.fields.find((f) => f.name === from && f.kind === 'reference');
  return via ? companiesOf(referencedResource(via)) : undefined;
}

// ---------------------------------------------------------------------------------------------
// Dropdown choices (isomorphic: filled by the service, rendered by the form and the toolbar)

/** One option of a dropdown: a referenced row (with its id) or a distinct value of a column. */
export interface Choice {
  value: string;
  label: string;
  group?: string;
  id?: number;
  /** The id of the row narrowing this option (`choices.narrowBy`), '' for none. */
  narrow?: string;
}

/** The dropdowns of a resource screen: one list per referenced resource (its `choices.list`) and the filter's. */
export interface FormChoices {
  filter: Choice[];
  [list: string]: Choice[];
}

/** The dropdown list of a reference field, from the choices the service sent. */
export function referenceChoices(field: FieldDef, choices: FormChoices): Choice[] {
  const list = referencedResource(field).choices?.list;
  return (list && choices[list]) || [];
}

/** Field errors for end dates before start dates. */
export function datesInOrder(start: string, end: string) {
  return (value: Record<string, unknown>): FieldError[] => {
    const from = String(value[start]);
    const to = String(value[end]);
    return isIsoDay(from) && isIsoDay(to) && to < from
      ? [{ field: end, message: msg('End date must be on or after the start date') }]
      : [];
  };
}

/**
 * The standard message set for a noun ('budget entry' → 'Budget entry created successfully'):
 * English says the noun as given, another language its translation (texts.ts nounFor).
 */
export function messagesFor(noun: string, confirmNoun = noun): Messages {
  return {
    created: (reader, declared) =>
      reader.t('{noun} created successfully', { noun: nounFor(noun, reader, declared, true) }),
    updated: (reader, declared) =>
      reader.t('{noun} updated successfully', { noun: nounFor(noun, reader, declared, true) }),
    deleted: (reader, declared) =>
      reader.t('{noun} deleted successfully', { noun: nounFor(noun, reader, declared, true) }),
    createFailed: (reader, declared) => reader.t('Failed to create {noun}', { noun: nounFor(noun, reader, declared) }),
    updateFailed: (reader, declared) => reader.t('Failed to update {noun}', { noun: nounFor(noun, reader, declared) }),
    deleteFailed: (reader, declared) => reader.t('Failed to delete {noun}', { noun: nounFor(noun, reader, declared) }),
    confirmDelete: (reader, declared) =>
      reader.t('Are you sure you want to delete this {noun}?', { noun: nounFor(confirmNoun, reader, declared) }),
  };
}
