// API integration credentials (spec 3 §2.5, DESIGN §10): added, never read back. The value is
// sealed (secret-box.server.ts) before it reaches the database; the audit entry and the data
// version leave it out; no call returns it. The sync engine opens the source's active,
// unexpired credentials to authenticate; `finhub integrations rotate-key` re-seals them all.
import { z } from 'zod';
import { writeRecord } from './audit.server.ts';
import type { IntegrationSettings } from './config.server.ts';
import { inTransaction, type Db, type ServiceContext } from './context.ts';
import { authorizeIntegrationRead, authorizeIntegrationWrite } from './integration-access.server.ts';
import { fieldErrorsFromZod, invalid } from './errors.ts';
import { keyIdOf, openSecret, sealSecret } from './secret-box.server.ts';

const id = z.preprocess((v) => (typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v), z.number({ error: 'Source is required' }).int().positive('Source is required').max(2_147_483_647, 'Source not found'));

export const CredentialRequest = z.object({
  sourceId: id,
  credentialKey: z.string({ error: 'Credential key is required' }).trim().min(1, 'Credential key is required').max(100, 'Credential key must be at most 100 characters'),
  credentialValue: z.string({ error: 'Credential value is required' }).min(1, 'Credential value is required').max(10_000, 'Credential value must be at most 10000 characters'),
  description: z.string().trim().max(2000, 'Description must be at most 2000 characters').nullish().transform((v) => v || null),
  expiresAt: z.preprocess((v) => (v === '' ? undefined : v), z.iso.datetime({ offset: true, error: 'Expires at must be a date and time' }).or(z.iso.date({ error: 'Expires at must be a date' })).nullish()),
});

/** What a call answers about a stored credential: never the value. */
export interface CredentialSummary {
  id: number;
  sourceId: number;
  credentialKey: string;
  description: string | null;
  isActive: boolean;
  expiresAt: string | null;
  createdAt: string;
}

/** The sources a credential can be added to, for the Credentials tab's form. */
export async function credentialSourceChoices(ctx: ServiceContext): Promise<{ id: number; name: string; authType: string }[]> {
  authorizeIntegrationRead(ctx);
  return ctx.db.selectFrom('apiIntegrationSources').select(['id', 'name', 'authType']).orderBy('name').execute();
}

export async function addCredential(ctx: ServiceContext, settings: Pick<IntegrationSettings, 'keys'>, input: unknown): Promise<CredentialSummary> {
  authorizeIntegrationWrite(ctx);
  const parsed = CredentialRequest.safeParse(input ?? {});
  if (!parsed.success) throw invalid(fieldErrorsFromZod(parsed.error.issues));
  const { sourceId, credentialKey, credentialValue, description, expiresAt } = parsed.data;
  return inTransaction(ctx.db, async (trx) => {
    const source = await trx.selectFrom('apiIntegrationSources').select('id').where('id', '=', sourceId).executeTakeFirst();
    if (!source) throw invalid([{ field: 'sourceId', message: 'Source not found' }]);
    const sealed = sealSecret(credentialValue, settings.keys[0]);
    const row = await writeRecord({ ...ctx, db: trx }, 'apiIntegrationCredentials', {
      action: 'create',
      values: {
        sourceId,
        credentialKey,
        credentialValue: sealed.value,
        keyId: sealed.keyId,
        description,
        isActive: true,
        expiresAt: expiresAt ? new Date(expiresAt).toISOString() : null,
        createdBy: ctx.actor.kind === 'user' ? ctx.actor.user.id : null,
      },
    });
    return { id: row.id, sourceId, credentialKey, description, isActive: true, expiresAt: row.expiresAt ?? null, createdAt: row.createdAt };
  });
}

/** The source's usable credentials, opened: key → value (the newest of a key wins). For the sync engine only. */
export async function openCredentials(db: Db, settings: Pick<IntegrationSettings, 'keys'>, sourceId: number, now = new Date()): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('apiIntegrationCredentials')
    .select(['credentialKey', 'credentialValue', 'keyId', 'expiresAt'])
    .where('sourceId', '=', sourceId)
    .where('isActive', '=', true)
    .orderBy('id')
    .execute();
  const open = new Map<string, string>();
  for (const row of rows) {
    if (row.expiresAt && row.expiresAt <= now.toISOString()) continue;
    open.set(row.credentialKey, openSecret({ value: row.credentialValue, keyId: row.keyId }, settings.keys));
  }
  return open;
}

/** Re-seals every credential under the current key (ENCRYPTION_KEY); returns how many changed. */
export async function rotateCredentialKey(db: Db, settings: Pick<IntegrationSettings, 'keys'>): Promise<{ rotated: number; total: number }> {
  const current = keyIdOf(settings.keys[0]);
  return inTransaction(db, async (trx) => {
    const rows = await trx.selectFrom('apiIntegrationCredentials').select(['id', 'credentialValue', 'keyId']).execute();
    let rotated = 0;
    for (const row of rows) {
      if (row.keyId === current) continue;
      const sealed = sealSecret(openSecret({ value: row.credentialValue, keyId: row.keyId }, settings.keys), settings.keys[0]);
      await trx.updateTable('apiIntegrationCredentials').set({ credentialValue: sealed.value, keyId: sealed.keyId }).where('id', '=', row.id).execute();
      rotated++;
    }
    return { rotated, total: rows.length };
  });
}

/** The API Integration screen's credential form (intent credential), as posted; addCredential checks it. */
export const CredentialForm = z.object({
  sourceId: z.string().optional(),
  credentialKey: z.string().optional(),
  credentialValue: z.string().optional(),
  description: z.string().optional(),
});
