// The field errors a record's references and unique rules give, the same whether the record came
// from a form, the API or a CSV import: English, as the /api answers, each marked with its words
// for a screen's reader (docs/languages.md).
import type { FieldError } from '../errors.ts';
import { msg } from '../i18n/messages.ts';
import { marked, type Reader } from '../i18n/refusal-words.ts';
import type { FieldDef, ResourceDef } from './define.ts';
import { nounInText as placedNoun } from './noun.ts';
import { COMPANY_TYPE_LABELS } from './shared.ts';

type Field = Pick<FieldDef, 'name' | 'label'>;

/** A unique rule's own message, else the generic one, for any reader. */
export const alreadyExists = (message: string | undefined) => (r: Reader) =>
  message ? r.t(message) : r.t('This record already exists');

/** A record another holds the unique key of: on the rule's last field. */
export function uniqueTaken(rule: NonNullable<ResourceDef['unique']>[number] | undefined): FieldError {
  return marked(
    { field: rule?.fields.at(-1) ?? 'body', message: rule?.message ?? 'This record already exists' },
    alreadyExists(rule?.message),
  );
}

export function referenceNotFound(field: Field): FieldError {
  return marked({ field: field.name, message: `${field.label} not found` }, (r) =>
    r.t('{label} not found', { label: r.t(field.label) }),
  );
}

/** A category filed under one department, chosen for another. */
export function notOfChosen(field: Field, by: Pick<FieldDef, 'label'>): FieldError {
  return marked(
    { field: field.name, message: `${field.label} does not belong to the chosen ${by.label.toLowerCase()}` },
    (r) =>
      r.t('{label} does not belong to the chosen {field}', {
        label: r.t(field.label),
        field: placedNoun(r.t(by.label), r.locale, true),
      }),
  );
}

/** A company of another type than the record's (a subscriber metric of a non-mobile company). */
export function notOfCompanyType(field: Pick<FieldDef, 'name'>, type: string): FieldError {
  const typeLabel = COMPANY_TYPE_LABELS[type];
  return marked({ field: field.name, message: `This company is not a ${type} company` }, (r) =>
    r.t('This company is not a {type} company', {
      type: r.locale === 'en' || !typeLabel ? type : placedNoun(r.t(typeLabel), r.locale, true),
    }),
  );
}

/** A reference whose row belongs to another company than the record's. */
export function notOfRowCompany(field: Field): FieldError {
  return marked({ field: field.name, message: `${field.label} does not belong to this company` }, (r) =>
    r.t('{label} does not belong to this company', { label: r.t(field.label) }),
  );
}

/** A name several rows share, in an import's reference column. */
export function ambiguousName(field: Field, text: string): FieldError {
  return marked(
    {
      field: field.name,
      message: `${field.label} "${text}" names more than one record: add a Company column or use its id`,
    },
    (r) =>
      r.t('{label} "{name}" names more than one record: add a Company column or use its id', {
        label: r.t(field.label),
        name: text,
      }),
  );
}

/** A company column naming no company the importer may see. */
export const companyNotFound = (field: string): FieldError => ({ field, message: msg('Company not found') });

/** A row's ID naming no record. */
export function idNotFound(id: number | null): FieldError {
  return marked({ field: 'id', message: `ID ${id} not found` }, (r) => r.t('ID {id} not found', { id: String(id) }));
}
