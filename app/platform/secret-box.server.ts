// Secrets at rest (docs/decisions.md): AES-256-GCM under ENCRYPTION_KEY, a fresh 12-byte IV per value,
// stored as base64url(iv ‖ tag ‖ ciphertext) with the key's id beside it. The id is a hash of
// the key (never the key), so after ENCRYPTION_KEY changes the values sealed under the previous
// key (PREVIOUS_ENCRYPTION_KEY) still open until `finhub integrations rotate-key` re-seals them.
import crypto from 'node:crypto';

export interface SealedSecret {
  value: string;
  keyId: string;
}

/** 64 hex characters (32 bytes), as ENCRYPTION_KEY is validated. */
export type KeyHex = string;

export function keyIdOf(key: KeyHex): string {
  return crypto.createHash('sha256').update(`finhub-secret-key:${key}`).digest('hex').slice(0, 12);
}

/**
 * `context` (associated data) is authenticated with the value but not stored in it: the value
 * opens only with the same context (an integration credential's origin).
 */
export function sealSecret(plain: string, key: KeyHex, context?: string): SealedSecret {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', Buffer.from(key, 'hex'), iv);
  if (context !== undefined) cipher.setAAD(Buffer.from(context, 'utf8'));
  const encrypted = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return { value: Buffer.concat([iv, cipher.getAuthTag(), encrypted]).toString('base64url'), keyId: keyIdOf(key) };
}

export class SecretKeyMissing extends Error {
  readonly keyId: string;
  constructor(keyId: string) {
    super(
      `The secret was sealed under another encryption key (id ${keyId}); set PREVIOUS_ENCRYPTION_KEY to that key and run finhub integrations rotate-key`,
    );
    this.keyId = keyId;
  }
}

/** Opens a sealed value with whichever of the keys sealed it; a tampered value, or another context than it was sealed with, throws. */
export function openSecret(sealed: SealedSecret, keys: readonly KeyHex[], context?: string): string {
  const key = keys.find((k) => keyIdOf(k) === sealed.keyId);
  if (!key) throw new SecretKeyMissing(sealed.keyId);
  const raw = Buffer.from(sealed.value, 'base64url');
  const decipher = crypto.createDecipheriv('aes-256-gcm', Buffer.from(key, 'hex'), raw.subarray(0, 12), {
    authTagLength: 16,
  });
  decipher.setAuthTag(raw.subarray(12, 28));
  if (context !== undefined) decipher.setAAD(Buffer.from(context, 'utf8'));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}
