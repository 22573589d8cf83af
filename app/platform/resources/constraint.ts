// The HTML constraints of a resource form's inputs, derived from the field declarations without
// zod: exactly what conform's getZodConstraint reads from the form schema (schema.ts
// recordSchema(def, {}, { form: true })), which constraint.test.ts checks for every declared
// resource. With zod 4.6 that is `required` and an enum's options as a `pattern`: conform reads
// lengths and bounds from the schema's `_zod.bag`, which zod 4.6 leaves empty. The server render
// and the hydrating browser compute the same attributes from the same declaration, so a form
// renders and hydrates without loading zod.
import type { FieldDef, ResourceDef } from './define.ts';

/** One input's constraint, as conform's `Constraint` (what its getInputProps renders). */
export interface Constraint {
  required: boolean;
  pattern?: string;
}

/** Escaped as conform writes an enum's options into a `pattern`. */
const escapeOption = (option: string) => option.replace(/[|\\{}()[\]^$+*?.]/g, '\\$&').replace(/-/g, '\\x2d');

function fieldConstraint(field: FieldDef): Constraint {
  switch (field.kind) {
    case 'text':
    case 'textarea':
      return { required: !!field.required };
    case 'money':
      return { required: field.required !== false };
    case 'enum':
      return { required: field.required !== false, pattern: (field.options ?? []).map(escapeOption).join('|') };
    case 'reference':
      return { required: !field.nullable };
    default:
      // decimal, percent, integer, date, boolean: never optional in a form.
      return { required: true };
  }
}

/** The constraint of each field of a resource's form, by field name (conform's `constraint` option). */
export function formConstraint(def: Pick<ResourceDef, 'fields'>): Record<string, Constraint> {
  return Object.fromEntries(def.fields.map((field) => [field.name, fieldConstraint(field)]));
}
