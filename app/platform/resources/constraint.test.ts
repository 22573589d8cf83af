// The forms' HTML constraints come from the field declarations without zod (constraint.ts), so
// a list page's form renders and hydrates without loading zod: they must be what conform reads
// from the form schema itself, for every declared resource.
import { getZodConstraint } from '@conform-to/zod/v4';
import { describe, expect, it } from 'vitest';
import { formConstraint } from './constraint.ts';
import { fintechMetrics, mobileMetrics, RESOURCE_LIST } from '../../features/resources.ts';
import { recordSchema } from './schema.ts';

describe('formConstraint', () => {
  for (const def of [...RESOURCE_LIST, mobileMetrics, fintechMetrics]) {
    it(`equals getZodConstraint of the form schema: ${def.key} (${def.title})`, () => {
      const fromZod = getZodConstraint(recordSchema(def, {}, { form: true }));
      const expected = Object.fromEntries(def.fields.map((f) => [f.name, fromZod[f.name]]));
      expect(formConstraint(def)).toStrictEqual(expected);
      // Nothing beyond the declared fields.
      expect(Object.keys(fromZod).sort()).toEqual(def.fields.map((f) => f.name).sort());
    });
  }
});
