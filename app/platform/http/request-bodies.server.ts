// Request bodies of the resource /api writes that are not one service schema as it stands: the
// schema a route declares as its `body` (apiRoute refuses every field it does not have) and the
// OpenAPI document shows. The bodies of an area's own routes are beside its services.
import { z } from 'zod';
import type { ResourceDef } from '../resources/define.ts';
import { patchSchema } from '../resources/schema.ts';

/** PUT /api/<resource>/{id}: any subset of the fields; the row's own id may be repeated. */
export function resourceUpdateBody(def: Pick<ResourceDef, 'fields'>) {
  return patchSchema(def).extend({ id: z.unknown().optional() });
}

/**
 * A change to a row of one of these resources under that resource's rules (its own update
 * schema refuses the other resources' fields); read-only resources take none.
 */
export function anyResourcePatchBody(defs: readonly ResourceDef[]) {
  return z.union(
    defs.filter((def) => !def.readOnly).map((def) => patchSchema(def)) as unknown as [
      z.ZodType,
      z.ZodType,
      ...z.ZodType[],
    ],
  );
}
