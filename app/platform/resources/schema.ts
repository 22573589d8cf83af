// The zod schemas derived from a resource's field declarations (define.ts): the one source of
// the rules for the JSON API, the screens' form posts and the forms' instant checks in the
// browser. Kept apart from the declarations, which every list page loads: the server imports
// this module, and a resource form loads it (with zod) only once a form is shown
// (components/form/resource-validation.ts, a dynamic import).
import { z } from 'zod';
import { isIsoDay } from '../lib/dates.ts';
import { MAX_ID } from '../lib/query.ts';
import { hasNoNul } from '../lib/text.ts';
import { MAX_AMOUNT, MAX_COUNT, type FieldDef, type ResourceDef } from './define.ts';
import type { Translate } from '../i18n/messages.ts';
import { DAY_PATTERNS, parseDayInput } from '../i18n/day-input.ts';
import type { Locale } from '../i18n/locales.ts';
import type { DateFormat } from '../i18n/preferences.ts';
import { english, readerWords } from '../i18n/refusal-words.ts';

// toFixed rounds in decimal, so 1234567890.12 passes where n * 100 would not be whole.
const hasAtMostTwoDecimals = (n: number) => Number(n.toFixed(2)) === n;

function isWebUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  return (url.protocol === 'http:' || url.protocol === 'https:') && !!url.hostname && !url.username && !url.password;
}

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return !!value && typeof value === 'object' && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** A value that is not there: left out, null, or an empty string (a choice nobody made). */
function isMissing(input: unknown): boolean {
  return input === undefined || input === null || input === '';
}

/**
 * The one rule for a field a record must carry, whatever its kind: when the value is missing the
 * answer is "<Label> is required" (or the field's declared message), never its kind's complaint
 * about a wrong type; any other refused value gets the kind's own message. Every kind builds its
 * type errors with it; a kind whose field may be left out simply never reaches it for a missing
 * value, and a field declared `required: false` keeps its kind's message for a null.
 */
function typeError(field: FieldDef, t: Translate) {
  const required = requiredMessage(field, t);
  return (message: string) => (issue: { input?: unknown }) =>
    field.required !== false && isMissing(issue.input) ? required : message;
}

/** What a missing required field answers. */
function requiredMessage(field: Pick<FieldDef, 'label' | 'requiredMessage'>, t: Translate): string {
  return field.requiredMessage ? t(field.requiredMessage) : t('{label} is required', { label: t(field.label) });
}

interface FieldOptions {
  /** A form post, where an unticked checkbox sends nothing (false). */
  form?: boolean;
  /** The reader's translator for a screen's form, English for the API. */
  t?: Translate;
  /** The reader's language, for a declaration's refusal that words itself (a mapping's problem). */
  locale?: Locale;
  /** A screen's form: the reader's date format, which its day fields take besides ISO. */
  dateFormat?: DateFormat;
}

function fieldSchema(field: FieldDef, options: FieldOptions = {}): z.ZodType {
  const { form = false, t = english, dateFormat } = options;
  const required = requiredMessage(field, t);
  const wrongType = typeError(field, t);
  const label = t(field.label);
  switch (field.kind) {
    case 'text':
    case 'textarea': {
      const max = field.max ?? 255;
      let text = z
        .string({ error: wrongType(t('{label} must be text', { label })) })
        .trim()
        .max(max, { message: t('{label} must be at most {max} characters', { label, max: String(max) }) })
        .refine(hasNoNul, { message: t('{label} must not contain NUL characters', { label }), abort: true });
      if (field.format === 'url') text = text.refine((v) => !v || isWebUrl(v), { message: t('Must be a valid URL') });
      if (field.format === 'json')
        text = text.refine((v) => !v || isJsonObject(v), { message: t('{label} must be a JSON object', { label }) });
      // An optional text left empty is null, or its default when it has one (an endpoint's sync frequency: manual).
      return field.required
        ? text.min(1, { message: required })
        : text.nullish().transform((v) => (v ? v : (field.defaultValue ?? null)));
    }
    case 'money': {
      // An optional amount (a month's revenue) may be zero; a required one (a budget) is positive.
      const positive = t('{label} must be a positive number', { label });
      const zeroOrMore = t('{label} must be zero or more', { label });
      const optional = field.required === false;
      const amount = z
        .number({ error: wrongType(optional ? zeroOrMore : positive) })
        .min(optional ? 0 : Number.MIN_VALUE, { message: optional ? zeroOrMore : positive })
        .max(MAX_AMOUNT, { message: t('{label} must have at most 12 digits', { label }) })
        .refine(hasAtMostTwoDecimals, { message: t('{label} can have at most 2 decimals', { label }) });
      return optional ? amount.nullish().transform((v) => v ?? null) : amount;
    }
    case 'decimal':
      return z
        .number({ error: wrongType(t('{label} must be a number', { label })) })
        .min(0, { message: t('{label} must be zero or more', { label }) })
        .max(MAX_AMOUNT, { message: t('{label} must have at most 12 digits', { label }) })
        .refine(hasAtMostTwoDecimals, { message: t('{label} can have at most 2 decimals', { label }) });
    case 'percent':
      return z
        .number({ error: wrongType(t('{label} must be a number', { label })) })
        .min(0, { message: t('{label} must be between 0 and 100', { label }) })
        .max(100, { message: t('{label} must be between 0 and 100', { label }) })
        .refine(hasAtMostTwoDecimals, { message: t('{label} can have at most 2 decimals', { label }) });
    case 'integer': {
      const [min, max] = field.range ?? [0, MAX_COUNT];
      const message =
        min === 0 && max === MAX_COUNT
          ? t('{label} must be a whole number of 0 or more', { label })
          : t('{label} must be a whole number from {min} to {max}', { label, min: String(min), max: String(max) });
      return z
        .number({ error: wrongType(message) })
        .int({ message })
        .min(min, { message })
        .max(max, { message });
    }
    case 'date': {
      // A form names the format its reader types (the API's message names ISO, the one it takes).
      const invalid =
        dateFormat && dateFormat !== 'yyyy-MM-dd'
          ? t('{label} must be a valid date ({format})', { label, format: t(DAY_PATTERNS[dateFormat]) })
          : t('{label} must be a valid date (YYYY-MM-DD)', { label });
      const day = z
        .string({ error: wrongType(invalid) })
        .min(1, { message: required, abort: true })
        .refine(isIsoDay, { message: invalid });
      return dateFormat
        ? z.preprocess((v) => (typeof v === 'string' ? (parseDayInput(v, dateFormat) ?? v) : v), day)
        : day;
    }
    case 'enum': {
      const options = field.options as [string, ...string[]];
      const oneOf = t('{label} must be one of: {options}', { label, options: options.join(', ') });
      const schema = z.enum(options, { error: wrongType(oneOf) });
      if (field.required === false) return schema.optional();
      // A JSON create may leave out a field with a default (an API source's auth type: none).
      return field.defaultValue !== undefined && !form
        ? schema.optional().transform((v) => v ?? field.defaultValue)
        : schema;
    }
    case 'boolean': {
      // JSON true/false; a form's checkbox 'on', or nothing when unticked. Missing in a JSON create: the default.
      const flag = z.preprocess(
        (v) => (v === 'on' || v === 'true' ? true : v === 'false' ? false : v === undefined && form ? false : v),
        z.boolean({ error: t('{label} must be true or false', { label }) }),
      );
      return form ? flag : flag.optional().transform((v) => v ?? field.defaultValue !== 'false');
    }
    case 'reference': {
      // Above MAX_ID no row can exist (and PostgreSQL's integer columns would refuse the lookup).
      const id = z
        .number({ error: wrongType(required) })
        .int({ message: required })
        .positive({ message: required })
        .max(MAX_ID, { message: t('{label} not found', { label }) });
      return field.nullable ? id.nullish().transform((v) => v ?? null) : id;
    }
  }
}

/**
 * Schema of a whole record (create, and an update merged with the stored record); `fixed`:
 * values the screen sets. Strict (an unknown field is a 400) for the JSON API; `form: true`
 * for the screens' forms, whose posts also carry their controls (intent, id, conform's own
 * fields): those are dropped, and only the declared fields are kept.
 */
export function recordSchema(
  def: Pick<ResourceDef, 'fields' | 'refine'>,
  fixed: Record<string, string> = {},
  options: FieldOptions = {},
) {
  const t = options.t ?? english;
  // A value the screen fixes (Mobile Metrics' company type) is never taken from the post.
  const schemaOf = (f: FieldDef) =>
    Object.hasOwn(fixed, f.name) ? z.preprocess(() => fixed[f.name], fieldSchema(f, options)) : fieldSchema(f, options);
  const shape = Object.fromEntries(def.fields.map((f) => [f.name, schemaOf(f)]));
  return (options.form ? z.object(shape) : z.strictObject(shape)).superRefine((value, ctx) => {
    // A declaration's own messages (`msg('…')`) are translated as they are, or word themselves.
    const reader = { t, locale: options.locale ?? 'en' };
    for (const error of def.refine?.(value, z) ?? [])
      ctx.addIssue({ code: 'custom', path: [error.field], message: readerWords(error, error.message, reader) });
  });
}

/** Schema of an update body: a subset of the fields, each checked alone; unknown fields are a 400. */
export function patchSchema(def: Pick<ResourceDef, 'fields'>) {
  const shape = Object.fromEntries(def.fields.map((f) => [f.name, fieldSchema(f).optional()]));
  return z.strictObject(shape);
}
