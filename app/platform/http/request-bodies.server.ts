// Request bodies of /api writes that are not one service schema as it stands: the schema a
// route declares as its `body` (apiRoute refuses every field it does not have) and the OpenAPI
// document shows, written once here.
import { z } from 'zod';
import { AdminSetPasswordSchema, ChangePasswordSchema } from '../../features/auth/schemas.ts';
import { MAX_ID } from '../lib/query.ts';
import type { ResourceDef } from '../resources/define.ts';
import { RESOURCE_LIST } from '../../features/resources.ts';
import { patchSchema } from '../resources/schema.ts';
import { RestoreOptions } from '../../features/backups/backup-restore.server.ts';
import { SubscribeSchema } from '../../features/notifications/push.server.ts';

/** POST /api/backups/{id}/restore: the options at the top level or under `options`. */
export const RestoreBody = z.union([RestoreOptions, z.strictObject({ options: RestoreOptions })]);

/** POST /api/users/{id}/change-password: one's own (with the current password), or a manager's for another user. */
export const PasswordChangeBody = z.union([ChangePasswordSchema, AdminSetPasswordSchema]);

/** POST /api/api-integration-sync/{id}: the old client sends its user id; the run is the signed-in user's whatever it says. */
export const SyncRequest = z.strictObject({
  userId: z.number({ error: 'userId must be a user id' }).int({ message: 'userId must be a user id' }).positive({ message: 'userId must be a user id' }).max(MAX_ID, { message: 'userId must be a user id' }).optional(),
});

/** PUT /api/<resource>/{id}: any subset of the fields; the row's own id may be repeated. */
export function resourceUpdateBody(def: Pick<ResourceDef, 'fields'>) {
  return patchSchema(def).extend({ id: z.unknown().optional() });
}

/**
 * PATCH /api/editor/activities/{id}: a change to the row an activity is about, under that
 * resource's rules (its own update schema refuses the other resources' fields).
 */
export const ActivityPatchBody = z.union(RESOURCE_LIST.filter((def) => !def.readOnly).map((def) => patchSchema(def)) as unknown as [z.ZodType, z.ZodType, ...z.ZodType[]]);

/**
 * POST /api/notifications/subscribe: a browser's PushSubscription.toJSON() as it comes, with its
 * expirationTime and whatever keys the push service adds beside p256dh and auth (ignored).
 */
export const SubscribeBody = SubscribeSchema.extend({
  expirationTime: z.number().nullish(),
  keys: z.looseObject({ p256dh: z.string(), auth: z.string() }),
});
