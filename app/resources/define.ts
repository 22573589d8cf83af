// The shape of a resource declaration and the one zod schema derived from it. Isomorphic:
// the server validates with the schema, conform validates the same schema in the browser,
// and the generic screens render forms and tables from the field and column lists.
import { z } from 'zod';
import { isIsoDay } from '../lib/dates.ts';
import type { Area } from '../lib/permissions.ts';
import type { FieldError } from '../services/errors.ts';

/** Largest amount with 12 digits of which 2 are decimals. */
export const MAX_AMOUNT = 9_999_999_999.99;

export type FieldKind = 'text' | 'textarea' | 'money' | 'decimal' | 'date' | 'enum' | 'reference';
export type ReferenceTable = 'companies' | 'departments' | 'expenseCategories';

export interface FieldDef {
  /** Name in forms and the API (camelCase). */
  name: string;
  label: string;
  kind: FieldKind;
  required?: boolean;
  /** Message when a required field is missing (default '<Label> is required'). */
  requiredMessage?: string;
  /** Longest text accepted. */
  max?: number;
  options?: readonly string[];
  optionLabels?: Record<string, string>;
  /** Value a new record's form starts with. */
  defaultValue?: string;
  reference?: ReferenceTable;
  /** A reference that may be cleared ('None'). */
  nullable?: boolean;
  placeholder?: string;
  /** Suggestions for a text field (datalist). */
  suggestions?: readonly string[];
}

/** How a row finds its company (DESIGN §5 company scope). */
export type CompanyRule =
  | 'column' // the row has company_id, chosen in the form
  | 'category' // company_id copied from the row's expense category
  | 'self' // the row is a company
  | 'none'; // shared reference data (departments)

export type ColumnFormat = 'text' | 'money' | 'decimal' | 'number' | 'date' | 'instant' | 'label';

export interface ColumnDef {
  /** Key of the API row shown in this column. */
  key: string;
  label: string;
  format?: ColumnFormat;
  /** Characters shown before an ellipsis. */
  truncate?: number;
  /** Text shown for an empty value ('N/A', 'Unknown'). */
  fallback?: string;
  /** Sort key (see ListDef.sorts) when the header sorts. */
  sort?: string;
}

export interface SortDef {
  /** Column of the main table (camelCase), never null. */
  column: string;
}

export interface FilterDef {
  /** URL/API parameter. */
  param: string;
  label: string;
  /** Column of the main table the filter compares with. */
  column: string;
  /** Where the dropdown's choices come from. */
  options: 'departments' | 'distinct';
}

export interface ListDef {
  columns: ColumnDef[];
  /** Columns searched by the free-text search: 'column' of the main table or 'alias.column'. */
  search: string[];
  filter?: FilterDef;
  sorts: Record<string, SortDef>;
  defaultSort: { key: string; dir: 'asc' | 'desc' };
}

export interface JoinDef {
  table: ReferenceTable;
  alias: string;
  /** Column of the main table holding the referenced id. */
  on: string;
  /** API key → column of the joined table. */
  select: Record<string, string>;
}

export interface ReferencedBy {
  table: string;
  column: string;
  /** Plural label, e.g. 'budget entries'. */
  label: string;
  /** Singular label, e.g. 'budget entry'. */
  one: string;
}

export interface Messages {
  created: string;
  updated: string;
  deleted: string;
  createFailed: string;
  updateFailed: string;
  deleteFailed: string;
  /** The browser confirmation before a delete. */
  confirmDelete: string;
}

export interface ResourceDef {
  /** Registry key and /api path segment ('budgets', 'actual-revenues'). */
  key: string;
  /** Kysely table name (camelCase). */
  table: string;
  title: string;
  /** Singular noun for headings ('Budget Entry'). */
  noun: string;
  area: Area;
  company: CompanyRule;
  /** A field that must equal the chosen company's type (subscriber metrics). */
  companyTypeField?: string;
  fields: FieldDef[];
  /** Cross-field rules, checked on the whole record (after merging an update). */
  refine?: (value: Record<string, any>) => FieldError[];
  joins: JoinDef[];
  list: ListDef;
  /** Unique rules checked before writing: fields and the message for the first field. */
  unique?: { fields: string[]; message: string }[];
  referencedBy?: ReferencedBy[];
  messages: Messages;
  /** Form headings when they are not 'Add <noun>' / 'Edit <noun>'. */
  formTitles?: { create: string; edit: string };
  /** CSV export file base name. */
  exportName: string;
}

// toFixed rounds in decimal, so 1234567890.12 passes where n * 100 would not be whole.
const hasAtMostTwoDecimals = (n: number) => Number(n.toFixed(2)) === n;

function fieldSchema(field: FieldDef): z.ZodType {
  const required = field.requiredMessage ?? `${field.label} is required`;
  switch (field.kind) {
    case 'text':
    case 'textarea': {
      const max = field.max ?? 255;
      const text = z.string({ error: `${field.label} must be text` }).trim().max(max, { message: `${field.label} must be at most ${max} characters` });
      return field.required ? text.min(1, { message: required }) : text.nullish().transform((v) => (v ? v : null));
    }
    case 'money':
      return z
        .number({ error: 'Amount must be a positive number' })
        .positive({ message: 'Amount must be a positive number' })
        .max(MAX_AMOUNT, { message: 'Amount must have at most 12 digits' })
        .refine(hasAtMostTwoDecimals, { message: 'Amount can have at most 2 decimals' });
    case 'decimal':
      return z
        .number({ error: `${field.label} must be a number` })
        .min(0, { message: `${field.label} must be zero or more` })
        .max(MAX_AMOUNT, { message: `${field.label} must have at most 12 digits` })
        .refine(hasAtMostTwoDecimals, { message: `${field.label} can have at most 2 decimals` });
    case 'date':
      return z
        .string({ error: required })
        .refine(isIsoDay, { message: `${field.label} must be a valid date (YYYY-MM-DD)` });
    case 'enum': {
      const options = field.options as [string, ...string[]];
      const schema = z.enum(options, { error: `${field.label} must be one of: ${options.join(', ')}` });
      return field.required === false ? schema.optional() : schema;
    }
    case 'reference': {
      const id = z.number({ error: required }).int({ message: required }).positive({ message: required });
      return field.nullable ? id.nullish().transform((v) => v ?? null) : id;
    }
  }
}

/** Schema of a whole record (create, and an update merged with the stored record). */
export function recordSchema(def: Pick<ResourceDef, 'fields' | 'refine'>) {
  const shape = Object.fromEntries(def.fields.map((f) => [f.name, fieldSchema(f)]));
  return z.object(shape).superRefine((value, ctx) => {
    for (const error of def.refine?.(value) ?? []) ctx.addIssue({ code: 'custom', path: [error.field], message: error.message });
  });
}

/** Schema of an update body: any subset of the fields, each checked alone. */
export function patchSchema(def: Pick<ResourceDef, 'fields'>) {
  const shape = Object.fromEntries(def.fields.map((f) => [f.name, fieldSchema(f).optional()]));
  return z.object(shape);
}

/** Field errors for end dates before start dates. */
export function datesInOrder(start: string, end: string) {
  return (value: Record<string, any>): FieldError[] =>
    isIsoDay(String(value[start])) && isIsoDay(String(value[end])) && value[end] < value[start]
      ? [{ field: end, message: 'End date must be on or after the start date' }]
      : [];
}

/** The specification's message set for a noun ('budget entry' → 'Budget entry created successfully'). */
export function messagesFor(noun: string, confirmNoun = noun): Messages {
  const capital = noun.charAt(0).toUpperCase() + noun.slice(1);
  return {
    created: `${capital} created successfully`,
    updated: `${capital} updated successfully`,
    deleted: `${capital} deleted successfully`,
    createFailed: `Failed to create ${noun}`,
    updateFailed: `Failed to update ${noun}`,
    deleteFailed: `Failed to delete ${noun}`,
    confirmDelete: `Are you sure you want to delete this ${confirmNoun}?`,
  };
}
