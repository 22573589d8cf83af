// The create/edit form of a declared resource: one input per field, validated by the same zod
// schema in the browser (conform) and on the server; errors render beside the fields. The
// inputs' constraints come from the declaration (resources/constraint.ts); the schema and zod
// arrive with resource-validation.ts, imported only once a form is shown.
import {
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
  type FieldMetadata,
  type SubmissionResult,
} from '@conform-to/react';
import { Form, Link, useNavigation } from '@remix-run/react';
import { useEffect, useMemo, useState } from 'react';
import { formConstraint } from './constraint.ts';
import {
  referenceChoices,
  referencedResource,
  type Choice,
  type FieldDef,
  type FormChoices,
  type ResourceDef,
} from './define.ts';
import { FormError } from '../screen/action-result.tsx';
import { Button, Field, inputClass } from '../../ui/form.tsx';
import { useFormats, usePreferences, useT } from '../i18n/i18n-context.tsx';
import type { Translate } from '../i18n/messages.ts';
import type { Locale } from '../i18n/locales.ts';
import type { Formats } from '../i18n/formats.ts';
import { DayInput } from '../../ui/day-input.tsx';
import { nounInText } from './noun.ts';

interface Props {
  def: ResourceDef;
  record: Record<string, unknown> | null;
  choices: FormChoices;
  lastResult?: SubmissionResult<string[]> | null;
  cancelTo: string;
  /** Fields fixed by the screen (sent as hidden inputs). */
  fixed?: Record<string, string>;
  /** Options of an enum field narrowed by the screen (metric names of one company type). */
  optionsFor?: (field: FieldDef) => readonly string[] | undefined;
}

/** A field's value as its input shows it: a stored day in the reader's date format. */
function initialValue(field: FieldDef, record: Record<string, unknown> | null, formats: Formats): string | undefined {
  if (!record) return field.defaultValue ?? widgetDefault(field);
  const value = record[field.name];
  if (value === null || value === undefined) return undefined;
  return field.kind === 'date' ? formats.day(String(value)) : String(value);
}

/** A new record starts at this year and month. */
function widgetDefault(field: FieldDef): string | undefined {
  const now = new Date();
  if (field.widget === 'year') return String(now.getUTCFullYear());
  if (field.widget === 'month') return String(now.getUTCMonth() + 1);
  return undefined;
}

/** Year choices: this year and the nine before (within the field's range), and the record's own. */
const MONTHS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

export function yearChoices(field: FieldDef, current?: string): number[] {
  const [min, max] = field.range ?? [0, Number.MAX_SAFE_INTEGER];
  const thisYear = new Date().getUTCFullYear();
  const years = new Set<number>();
  for (let y = thisYear; y > thisYear - 10; y--) if (y >= min && y <= max) years.add(y);
  if (current && Number.isInteger(Number(current))) years.add(Number(current));
  return [...years].sort((a, b) => b - a);
}

/**
 * The field of this form that narrows a reference field's choices (a budget's department, for its
 * category), as the referenced resource's `choices.narrowBy` says.
 */
function narrowingField(def: ResourceDef, field: FieldDef): FieldDef | undefined {
  if (field.kind !== 'reference') return undefined;
  const target = referencedResource(field);
  const narrowBy = target.choices?.narrowBy;
  const by = narrowBy === undefined ? undefined : target.fields.find((f) => f.name === narrowBy);
  return by?.kind === 'reference'
    ? def.fields.find((f) => f.kind === 'reference' && referencedResource(f).table === referencedResource(by).table)
    : undefined;
}

type Validator = ReturnType<typeof import('./resource-validation.ts').formValidator>;

/** The form's zod checks, once their chunk has loaded (null before). */
function useFormValidator(def: ResourceDef): Validator | null {
  const t = useT();
  const { dateFormat, locale } = usePreferences();
  const [loaded, setLoaded] = useState<{ key: unknown[]; validate: Validator } | null>(null);
  useEffect(() => {
    let active = true;
    void import('./resource-validation.ts').then(({ formValidator }) => {
      if (active) setLoaded({ key: [def, t, dateFormat], validate: formValidator(def, { t, locale }, dateFormat) });
    });
    return () => {
      active = false;
    };
  }, [def, t, locale, dateFormat]);
  const current = loaded?.key[0] === def && loaded.key[1] === t && loaded.key[2] === dateFormat;
  return current ? loaded.validate : null;
}

export function ResourceForm({ def, record, choices, lastResult, cancelTo, fixed = {}, optionsFor }: Props) {
  const constraint = useMemo(() => formConstraint(def), [def]);
  const validate = useFormValidator(def);
  const navigation = useNavigation();
  const t = useT();
  const formats = useFormats();
  const intent = record ? 'update' : 'create';
  const submitting = navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;
  const defaultValue = Object.fromEntries(
    def.fields.map((f) => [f.name, fixed[f.name] ?? initialValue(f, record, formats)]),
  );
  const [form, fields] = useForm({
    id: `${def.key}-form-${record ? String(record.id) : 'new'}`,
    lastResult,
    defaultValue,
    constraint,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    // Until the schema has loaded conform leaves the checks to the server (a post, as without JavaScript).
    onValidate: validate ? ({ formData }) => validate(formData) : undefined,
  });
  // The server renders every choice (grouped, naming company and department): without
  // JavaScript nothing re-renders when the department changes. Once hydrated, the chosen
  // department narrows the list.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const narrowOf = (field: FieldDef): string | undefined => {
    const by = hydrated ? narrowingField(def, field) : undefined;
    const value = by ? (fields[by.name].value ?? fixed[by.name]) : undefined;
    return typeof value === 'string' && value !== '' ? value : undefined;
  };

  return (
    <Form method="post" {...getFormProps(form)} noValidate className="space-y-4" preventScrollReset>
      <FormError title={t('Error')} errors={form.errors} />
      <input type="hidden" name="intent" value={intent} />
      {record ? <input type="hidden" name="id" value={String(record.id)} /> : null}
      {Object.entries(fixed).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div className="grid gap-4 sm:grid-cols-2">
        {def.fields
          .filter((f) => f.name in fixed && f.kind === 'reference')
          .map((field) => (
            // A field the screen fixes (the tab's company) is named, not chosen.
            <div key={field.name}>
              <p className="text-sm font-medium text-slate-700">{t(field.label)}</p>
              <p className="mt-1 text-sm text-slate-900" data-testid={`fixed-${field.name}`} translate="no">
                {referenceChoices(field, choices).find((c) => c.value === fixed[field.name])?.label ?? ''}
              </p>
            </div>
          ))}
        {def.fields
          .filter((f) => !(f.name in fixed))
          .map((field) => {
            const meta = fields[field.name];
            const wide = field.kind === 'textarea';
            return (
              <div key={field.name} className={wide ? 'sm:col-span-2' : undefined}>
                <Field label={t(field.label)} id={meta.id} error={meta.errors}>
                  <FieldInput
                    field={field}
                    meta={meta}
                    choices={choices}
                    options={optionsFor?.(field) ?? field.options}
                    narrow={narrowOf(field)}
                  />
                </Field>
              </div>
            );
          })}
      </div>
      <div className="flex justify-end gap-2">
        <Link to={cancelTo} preventScrollReset className="btn-secondary">
          {t('Cancel')}
        </Link>
        <Button type="submit" disabled={submitting}>
          {submitting ? t('Saving...') : record ? t('Update') : t('Create')}
        </Button>
      </div>
    </Form>
  );
}

/** 'Select department': the empty choice of a select. */
function selectPrompt(field: FieldDef, t: Translate, locale: Locale): string {
  return t('Select {field}', { field: nounInText(t(field.label), locale, true) });
}

function FieldInput({
  field,
  meta,
  choices,
  options,
  narrow,
}: {
  field: FieldDef;
  meta: FieldMetadata<unknown>;
  choices: FormChoices;
  options?: readonly string[];
  narrow?: string;
}) {
  const t = useT();
  const f = useFormats();
  const { locale } = usePreferences();
  switch (field.kind) {
    case 'reference': {
      // The referenced resource's own choices (its label, company scope and grouping), those of
      // the narrowing field's chosen row and those without one.
      const props = getSelectProps(meta);
      const all = referenceChoices(field, choices);
      const list = narrow === undefined ? all : all.filter((c) => !c.narrow || c.narrow === narrow);
      const empty = (
        <option value="">
          {field.nullable ? (field.placeholder ? t(field.placeholder) : t('None')) : selectPrompt(field, t, locale)}
        </option>
      );
      if (list.some((c) => c.group !== undefined)) {
        const groups = new Map<string, Choice[]>();
        for (const c of list) groups.set(c.group ?? '', [...(groups.get(c.group ?? '') ?? []), c]);
        return (
          <select {...props} className={inputClass}>
            {empty}
            {[...groups].map(([group, items]) => (
              <optgroup key={group} label={group}>
                {items.map((c) => (
                  <option key={c.value} value={c.value}>
                    {c.label}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        );
      }
      return (
        <select {...props} className={inputClass}>
          {empty}
          {list.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      );
    }
    case 'enum':
      return (
        <select {...getSelectProps(meta)} className={inputClass}>
          {field.required !== false && !meta.initialValue ? (
            <option value="">{selectPrompt(field, t, locale)}</option>
          ) : null}
          {(options ?? []).map((o) => (
            <option key={o} value={o}>
              {field.optionLabels?.[o] ? t(field.optionLabels[o]) : o}
            </option>
          ))}
        </select>
      );
    case 'textarea':
      return <textarea {...getTextareaProps(meta)} rows={3} className={inputClass} />;
    case 'boolean':
      // Checked sends 'true' (as a record's true reads back); unchecked sends nothing: false.
      return (
        <input
          {...getInputProps(meta, { type: 'checkbox', value: 'true' })}
          className="h-4 w-4 rounded border-slate-300"
        />
      );
    case 'money':
      return (
        <input
          {...getInputProps(meta, { type: 'number' })}
          step="0.01"
          min="0.01"
          inputMode="decimal"
          className={inputClass}
        />
      );
    case 'decimal':
      return (
        <input
          {...getInputProps(meta, { type: 'number' })}
          step="0.01"
          min="0"
          inputMode="decimal"
          className={inputClass}
        />
      );
    case 'percent':
      return (
        <input
          {...getInputProps(meta, { type: 'number' })}
          step="0.01"
          min="0"
          max="100"
          inputMode="decimal"
          className={inputClass}
        />
      );
    case 'integer':
      if (field.widget === 'year') {
        return (
          <select {...getSelectProps(meta)} className={inputClass}>
            {yearChoices(field, typeof meta.initialValue === 'string' ? meta.initialValue : undefined).map((y) => (
              <option key={y} value={y}>
                {y}
              </option>
            ))}
          </select>
        );
      }
      if (field.widget === 'month') {
        return (
          <select {...getSelectProps(meta)} className={inputClass}>
            {MONTHS.map((month) => (
              <option key={month} value={month}>
                {f.month(month)}
              </option>
            ))}
          </select>
        );
      }
      return (
        <input
          {...getInputProps(meta, { type: 'number' })}
          step="1"
          min={field.range?.[0] ?? 0}
          inputMode="numeric"
          className={inputClass}
        />
      );
    case 'date':
      // Text in the reader's date format (a date input would show the browser's); ISO is taken too.
      return <DayInput {...getInputProps(meta, { type: 'text' })} />;
    default:
      return (
        <>
          <input
            {...getInputProps(meta, { type: 'text' })}
            list={field.suggestions ? `${meta.id}-suggestions` : undefined}
            placeholder={field.placeholder ? t(field.placeholder) : undefined}
            className={inputClass}
          />
          {field.suggestions ? (
            <datalist id={`${meta.id}-suggestions`}>
              {field.suggestions.map((s) => (
                <option key={s} value={s} />
              ))}
            </datalist>
          ) : null}
        </>
      );
  }
}
