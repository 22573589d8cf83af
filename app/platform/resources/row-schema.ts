// The schema of a declared resource's rows as the API answers them (toApiRow in
// resource-rows.server.ts makes them by the same rules): the id, the company, each field by its
// kind, the joined names, the read-only columns, the derived figures, the creator and the times.
// The OpenAPI document describes every resource answer with it, and the API's conformance test
// checks every answer against the document, so a row that drifts from its declaration fails.
import { z } from 'zod';
import { companyColumnOf, type FieldDef, type ResourceDef } from './define.ts';

/** An instant as the database layer returns it (ISO 8601 text). */
const instant = z.string().describe('ISO 8601 instant');

function valueSchema(field: FieldDef): z.ZodType {
  switch (field.kind) {
    case 'money':
    case 'decimal':
    case 'percent':
      return z.number();
    case 'integer':
    case 'reference':
      return z.number().int();
    case 'boolean':
      return z.boolean();
    case 'enum':
      return field.options?.length ? z.enum(field.options as [string, ...string[]]) : z.string();
    case 'date':
      return z.string().describe('YYYY-MM-DD');
    default:
      return z.string();
  }
}

/** A declared resource's row, as the API answers it. */
export function resourceRowSchema(def: ResourceDef): z.ZodObject {
  const shape: Record<string, z.ZodType> = { id: z.number().int() };
  if (companyColumnOf(def) === 'companyId') shape.companyId = z.number().int().nullable();
  for (const field of def.fields) {
    const value = valueSchema(field);
    shape[field.name] = field.required ? value : value.nullable();
  }
  for (const join of def.joins) for (const key of Object.keys(join.select)) shape[key] = z.string().nullable();
  for (const column of def.readOnlyColumns ?? []) shape[column] = instant.nullable();
  for (const key of Object.keys(def.derived ?? {})) shape[key] = z.number().nullable();
  if (def.createdBy) shape.createdBy = z.number().int().nullable();
  shape.createdAt = instant;
  shape.updatedAt = instant;
  return z.strictObject(shape);
}
