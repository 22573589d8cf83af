// API integration credentials (docs/security.md, docs/decisions.md): added, never read back. The value
// is sealed (secret-box.server.ts) before it reaches the database; the audit entry and the data
// version leave it out; no call returns it. A credential is bound to the origin (scheme, host,
// port) of its source's base URL when it was entered: the origin is stored beside it and sealed
// into it as associated data (seal version 2), so a row moved to another origin in the database
// no longer opens. Credentials from before that (seal version 1, no associated data) open as
// before for the origin the migration recorded, and are re-sealed at version 2 by their first
// use or by `finhub integrations rotate-key`. A source moved to another origin deactivates its
// credentials in the same write. The sync engine opens the source's active, unexpired
// credentials of the origin it requests.
import { z } from 'zod';
import { dialectOf } from '../../../db/dialect.ts';
import { writeRecord } from '../../platform/audit.server.ts';
import type { IntegrationSettings } from '../../platform/config.server.ts';
import { inTransaction, requirePermission, type Db, type ServiceContext } from '../../platform/context.ts';
import { originOf } from './integration-http.server.ts';
import type { CredentialSummary } from './answers.ts';
import { fieldErrorsFromZod, invalid } from '../../platform/errors.ts';
import { keyIdOf, openSecret, sealSecret, SecretKeyMissing } from '../../platform/secret-box.server.ts';
import { msg } from '../../platform/i18n/messages.ts';
import { phrased } from '../../platform/i18n/refusal-words.ts';

/** Seal version of new values: the origin sealed in as associated data. */
const SEAL_VERSION = 2;

/** A stored credential that does not open for the origin asked: moved in the database, or altered. */
export class CredentialUnusable extends Error {
  override name = 'CredentialUnusable';
}

const id = z.preprocess(
  (v) => (typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v),
  z.number({ error: 'Source is required' }).int().positive('Source is required').max(2_147_483_647, 'Source not found'),
);

export const CredentialRequest = z.object({
  sourceId: id,
  credentialKey: z
    .string({ error: 'Credential key is required' })
    .trim()
    .min(1, 'Credential key is required')
    .max(100, 'Credential key must be at most 100 characters'),
  credentialValue: z
    .string({ error: 'Credential value is required' })
    .min(1, 'Credential value is required')
    .max(10_000, 'Credential value must be at most 10000 characters'),
  description: z
    .string()
    .trim()
    .max(2000, 'Description must be at most 2000 characters')
    .nullish()
    .transform((v) => v || null),
  expiresAt: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.iso
      .datetime({ offset: true, error: 'Expires at must be a date and time' })
      .or(z.iso.date({ error: 'Expires at must be a date' }))
      .nullish(),
  ),
});

export type { CredentialSummary };

/** The sources a credential can be added to, for the Credentials tab's form. */
export async function credentialSourceChoices(
  ctx: ServiceContext,
): Promise<{ id: number; name: string; authType: string }[]> {
  requirePermission(ctx, 'integrations');
  return ctx.db.selectFrom('apiIntegrationSources').select(['id', 'name', 'authType']).orderBy('name').execute();
}

export async function addCredential(
  ctx: ServiceContext,
  settings: Pick<IntegrationSettings, 'keys'>,
  input: unknown,
): Promise<CredentialSummary> {
  // A source serves every company's books: a user limited to one company only reads it.
  requirePermission(ctx, 'integrations', 'create', { groupWide: true });
  const parsed = CredentialRequest.safeParse(input ?? {});
  if (!parsed.success) throw invalid(fieldErrorsFromZod(parsed.error.issues));
  const { sourceId, credentialKey, credentialValue, description, expiresAt } = parsed.data;
  return inTransaction(ctx.db, async (trx) => {
    // PostgreSQL: the base URL stays as read until commit (an origin change waits for this credential).
    let read = trx.selectFrom('apiIntegrationSources').select(['id', 'baseUrl']).where('id', '=', sourceId);
    if (dialectOf(trx) === 'postgres') read = read.forShare();
    const source = await read.executeTakeFirst();
    if (!source) throw invalid([{ field: 'sourceId', message: msg('Source not found') }]);
    const origin = originOf(source.baseUrl);
    if (!origin) throw invalid([{ field: 'sourceId', message: msg('The source has no valid base URL') }]);
    const sealed = sealSecret(credentialValue, settings.keys[0], origin);
    const row = await writeRecord({ ...ctx, db: trx }, 'apiIntegrationCredentials', {
      action: 'create',
      values: {
        sourceId,
        credentialKey,
        credentialValue: sealed.value,
        keyId: sealed.keyId,
        origin,
        sealVersion: SEAL_VERSION,
        description,
        isActive: true,
        expiresAt: expiresAt ? new Date(expiresAt).toISOString() : null,
        createdBy: ctx.actor.kind === 'user' ? ctx.actor.user.id : null,
      },
    });
    return {
      id: row.id,
      sourceId,
      credentialKey,
      description,
      isActive: true,
      expiresAt: row.expiresAt ?? null,
      createdAt: row.createdAt,
    };
  });
}

/** Opens one stored credential for its origin; a failure to authenticate names the row. */
function openStored(
  row: {
    id: number;
    credentialKey: string;
    credentialValue: string;
    keyId: string;
    origin: string;
    sealVersion: number;
  },
  keys: readonly string[],
): string {
  try {
    return openSecret(
      { value: row.credentialValue, keyId: row.keyId },
      keys,
      row.sealVersion >= SEAL_VERSION ? row.origin : undefined,
    );
  } catch (error) {
    if (error instanceof SecretKeyMissing) throw error;
    throw phrased(
      (m) => new CredentialUnusable(m),
      msg(
        'The credential "{key}" (#{id}) does not open for {origin}: it was sealed for another origin or altered; enter it again',
      ),
      { key: row.credentialKey, id: String(row.id), origin: row.origin },
    );
  }
}

/**
 * The source's usable credentials for `origin`, opened: key → value (the newest of a key wins).
 * Only credentials entered for that origin are read; one sealed before origins were bound is
 * re-sealed with it. For the sync engine only.
 */
export async function openCredentials(
  db: Db,
  settings: Pick<IntegrationSettings, 'keys'>,
  sourceId: number,
  origin: string,
  now = new Date(),
): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('apiIntegrationCredentials')
    .select(['id', 'credentialKey', 'credentialValue', 'keyId', 'expiresAt', 'origin', 'sealVersion'])
    .where('sourceId', '=', sourceId)
    .where('isActive', '=', true)
    .where('origin', '=', origin)
    .orderBy('id')
    .execute();
  const open = new Map<string, string>();
  for (const row of rows) {
    if (row.expiresAt && row.expiresAt <= now.toISOString()) continue;
    const value = openStored({ ...row, origin }, settings.keys);
    if (row.sealVersion < SEAL_VERSION) {
      const sealed = sealSecret(value, settings.keys[0], origin);
      await db
        .updateTable('apiIntegrationCredentials')
        .set({ credentialValue: sealed.value, keyId: sealed.keyId, sealVersion: SEAL_VERSION })
        .where('id', '=', row.id)
        .where('sealVersion', '=', row.sealVersion)
        .execute();
    }
    open.set(row.credentialKey, value);
  }
  return open;
}

/** How many credentials of the source were entered for another origin than `origin` (they are never sent there). */
export async function credentialsOffOrigin(db: Db, sourceId: number, origin: string): Promise<number> {
  const row = await db
    .selectFrom('apiIntegrationCredentials')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('sourceId', '=', sourceId)
    .where((eb) => eb.or([eb('origin', 'is', null), eb('origin', '!=', origin)]))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * A source's base URL changed (in the caller's transaction): its active credentials entered for
 * another origin than the new one are deactivated, each with its audit entry, until they are
 * entered again. Returns the ids deactivated.
 */
export async function deactivateCredentialsOffOrigin(
  ctx: ServiceContext,
  sourceId: number,
  baseUrl: string,
): Promise<number[]> {
  const origin = originOf(baseUrl);
  const rows = await ctx.db
    .selectFrom('apiIntegrationCredentials')
    .select(['id', 'origin'])
    .where('sourceId', '=', sourceId)
    .where('isActive', '=', true)
    .orderBy('id')
    .execute();
  const moved = rows.filter((row) => row.origin === null || row.origin !== origin);
  for (const row of moved) {
    await writeRecord(
      ctx,
      'apiIntegrationCredentials',
      { action: 'update', id: row.id, values: { isActive: false } },
      {
        reason: `The source's origin changed from ${row.origin ?? 'an unknown origin'} to ${origin ?? 'an invalid URL'}: the credential must be entered again`,
      },
    );
  }
  return moved.map((row) => row.id);
}

/**
 * Re-seals every credential that is not sealed under the current key (ENCRYPTION_KEY), or not
 * yet with its origin; returns how many changed, and the ids of those that do not open (altered
 * or moved in the database, or without an origin): they are left as they are and never used.
 * A key that is missing altogether (PREVIOUS_ENCRYPTION_KEY unset) stops it with nothing changed.
 */
export async function rotateCredentialKey(
  db: Db,
  settings: Pick<IntegrationSettings, 'keys'>,
): Promise<{ rotated: number; total: number; unusable: number[] }> {
  const current = keyIdOf(settings.keys[0]);
  return inTransaction(db, async (trx) => {
    const rows = await trx
      .selectFrom('apiIntegrationCredentials')
      .select(['id', 'credentialKey', 'credentialValue', 'keyId', 'origin', 'sealVersion'])
      .orderBy('id')
      .execute();
    let rotated = 0;
    const unusable: number[] = [];
    for (const row of rows) {
      if (row.origin === null) {
        unusable.push(row.id);
        continue;
      }
      if (row.keyId === current && row.sealVersion >= SEAL_VERSION) continue;
      let plain: string;
      try {
        plain = openStored({ ...row, origin: row.origin }, settings.keys);
      } catch (error) {
        if (!(error instanceof CredentialUnusable)) throw error;
        unusable.push(row.id);
        continue;
      }
      const sealed = sealSecret(plain, settings.keys[0], row.origin);
      await trx
        .updateTable('apiIntegrationCredentials')
        .set({ credentialValue: sealed.value, keyId: sealed.keyId, sealVersion: SEAL_VERSION })
        .where('id', '=', row.id)
        .execute();
      rotated++;
    }
    return { rotated, total: rows.length, unusable };
  });
}

/** The API Integration screen's credential form (intent credential), as posted; addCredential checks it. */
export const CredentialForm = z.object({
  sourceId: z.string().optional(),
  credentialKey: z.string().optional(),
  credentialValue: z.string().optional(),
  description: z.string().optional(),
});
