// The codes of two-factor sign-in: RFC 6238 TOTP (SHA-1, 6 digits, 30 s steps, one step either
// side) through otpauth, the enrolment QR code as server-rendered SVG (qrcode), the secret sealed
// under ENCRYPTION_KEY and bound to its user, and one-time recovery codes kept only as hashes.
// Pure functions: where the state lives (the last step used, the remaining recovery hashes) is
// the caller's.
import crypto from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { openSecret, sealSecret, type KeyHex, type SealedSecret } from '../../platform/secret-box.server.ts';

export const TOTP_ISSUER = 'Group Finance Hub';
export const TOTP_PERIOD_SECONDS = 30;
const TOTP_DIGITS = 6;
/** Steps accepted either side of now: a phone clock a little off, a code typed as it turns. */
const TOTP_WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;

/** A new secret: 20 random bytes (RFC 4226's recommended length), in base32 as apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totpOf(secretBase32: string, account = '') {
  return new TOTP({
    issuer: TOTP_ISSUER,
    label: account,
    secret: Secret.fromBase32(secretBase32),
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
  });
}

/** The `otpauth://totp/…` URI an authenticator app reads from the QR code (or typed in). */
export function otpauthUri(secretBase32: string, account: string): string {
  return totpOf(secretBase32, account).toString();
}

/** The URI as an SVG QR code, drawn on the server so enrolment needs no JavaScript. */
export function qrCodeSvg(uri: string): Promise<string> {
  return QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}

/** The time step of an instant (ms since the epoch). */
export function totpStep(at: number): number {
  return Math.floor(at / 1000 / TOTP_PERIOD_SECONDS);
}

/** The code of the step `at` falls in (for tests and the terminal; users' apps compute their own). */
export function totpCode(secretBase32: string, at = Date.now()): string {
  return totpOf(secretBase32).generate({ timestamp: at });
}

/**
 * The step a code belongs to if it is right at `at` (one step either side) and later than
 * `lastUsedStep`, else null. The caller stores the step: a code works once, and so does any
 * code of an earlier step (a code seen over a shoulder cannot follow the one just used).
 */
export function matchTotp(
  secretBase32: string,
  input: string,
  lastUsedStep: number | null,
  at = Date.now(),
): number | null {
  const token = input.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpOf(secretBase32).validate({ token, timestamp: at, window: TOTP_WINDOW });
  if (delta === null) return null;
  const step = totpStep(at) + delta;
  return lastUsedStep !== null && step <= lastUsedStep ? null : step;
}

/** The sealed secret opens only for the user it was sealed for (their id is the sealing context). */
const contextOf = (userId: number) => `two-factor:${userId}`;

export function sealTotpSecret(secretBase32: string, userId: number, key: KeyHex): SealedSecret {
  return sealSecret(secretBase32, key, contextOf(userId));
}

export function openTotpSecret(sealed: SealedSecret, userId: number, keys: readonly KeyHex[]): string {
  return openSecret(sealed, keys, contextOf(userId));
}

// No 0/O, 1/l/I: read off paper and typed again.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten new recovery codes, `xxxxx-xxxxx` (about 49 bits each), shown once. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from(crypto.randomBytes(10), (b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]);
    return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
  });
}

/** Case, spaces and dashes do not matter when a code is typed back. */
function normalizeRecoveryCode(input: string): string {
  return input.toLowerCase().replace(/[\s-]+/g, '');
}

/**
 * What is stored of a recovery code. The codes are random and long, so a plain SHA-256 (as for
 * API tokens) suffices; a slow password hash would only slow the sign-in down.
 */
export function hashRecoveryCode(code: string): string {
  return crypto
    .createHash('sha256')
    .update(`finhub-recovery:${normalizeRecoveryCode(code)}`)
    .digest('hex');
}

/** The index in `hashes` of the code typed, or -1; every stored hash is compared in constant time. */
export function matchRecoveryCode(input: string, hashes: readonly string[]): number {
  const typed = Buffer.from(hashRecoveryCode(input), 'hex');
  let found = -1;
  hashes.forEach((hash, index) => {
    const stored = Buffer.from(hash, 'hex');
    if (stored.length === typed.length && crypto.timingSafeEqual(stored, typed) && found === -1) found = index;
  });
  return found;
}
