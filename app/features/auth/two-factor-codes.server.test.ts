import { describe, expect, it } from 'vitest';
import { URI } from 'otpauth';
import {
  hashRecoveryCode,
  matchRecoveryCode,
  matchTotp,
  newRecoveryCodes,
  newTotpSecret,
  openTotpSecret,
  otpauthUri,
  qrCodeSvg,
  RECOVERY_CODE_COUNT,
  sealTotpSecret,
  totpCode,
  totpStep,
  TOTP_ISSUER,
} from './two-factor-codes.server.ts';

// RFC 6238, Appendix B: the SHA-1 seed "12345678901234567890" in base32; the 8-digit codes'
// last six digits are the 6-digit codes.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const RFC_CODES: [number, string][] = [
  [59, '287082'],
  [1111111109, '081804'],
  [1111111111, '050471'],
  [1234567890, '005924'],
  [2000000000, '279037'],
  [20000000000, '353130'],
];
const KEY = 'ab'.repeat(32);

describe('TOTP codes', () => {
  it('are the RFC 6238 test vectors (SHA-1, 6 digits, 30 s)', () => {
    for (const [seconds, code] of RFC_CODES) expect(totpCode(RFC_SECRET, seconds * 1000), `T=${seconds}`).toBe(code);
  });

  it('are accepted one step either side of now, not two, and never at or before the last step used', () => {
    const at = 1_800_000_000_000;
    const step = totpStep(at);
    const codeAt = (steps: number) => totpCode(RFC_SECRET, at + steps * 30_000);
    expect(matchTotp(RFC_SECRET, codeAt(0), null, at)).toBe(step);
    expect(matchTotp(RFC_SECRET, codeAt(-1), null, at)).toBe(step - 1);
    expect(matchTotp(RFC_SECRET, codeAt(1), null, at)).toBe(step + 1);
    expect(matchTotp(RFC_SECRET, codeAt(-2), null, at)).toBeNull();
    expect(matchTotp(RFC_SECRET, codeAt(2), null, at)).toBeNull();
    // Replay: the code just used, and an older one still in the window, are refused.
    expect(matchTotp(RFC_SECRET, codeAt(0), step, at)).toBeNull();
    expect(matchTotp(RFC_SECRET, codeAt(-1), step, at)).toBeNull();
    // The next step's code works.
    expect(matchTotp(RFC_SECRET, codeAt(1), step, at)).toBe(step + 1);
  });

  it('take spaces as typed, and refuse anything but six digits', () => {
    const at = 1_800_000_000_000;
    const code = totpCode(RFC_SECRET, at);
    expect(matchTotp(RFC_SECRET, ` ${code.slice(0, 3)} ${code.slice(3)} `, null, at)).toBe(totpStep(at));
    for (const bad of ['', '12345', '1234567', 'abcdef', `${code}0`, '٠١٢٣٤٥'])
      expect(matchTotp(RFC_SECRET, bad, null, at), JSON.stringify(bad)).toBeNull();
  });

  it('new secrets are 20 random bytes of base32, each different', () => {
    const secrets = new Set(Array.from({ length: 50 }, newTotpSecret));
    expect(secrets.size).toBe(50);
    for (const secret of secrets) expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  });

  it('the otpauth URI names the product and the account, and carries the parameters apps need', () => {
    const secret = newTotpSecret();
    const uri = otpauthUri(secret, 'ana@example.com');
    expect(uri.startsWith('otpauth://totp/')).toBe(true);
    const parsed = URI.parse(uri);
    expect(parsed).toMatchObject({ issuer: TOTP_ISSUER, label: 'ana@example.com', digits: 6, algorithm: 'SHA1' });
    expect((parsed as { period?: number }).period).toBe(30);
    expect(parsed.secret.base32).toBe(secret);
  });

  it('the QR code is an SVG drawn on the server', async () => {
    const svg = await qrCodeSvg(otpauthUri(newTotpSecret(), 'ana@example.com'));
    expect(svg).toMatch(/^<svg[^>]*viewBox="0 0 \d+ \d+"/);
    expect(svg).toContain('<path');
    expect(svg).not.toContain('<script');
  });
});

describe('the sealed secret', () => {
  it('opens for its user only, and not under another key', () => {
    const secret = newTotpSecret();
    const sealed = sealTotpSecret(secret, 7, KEY);
    expect(sealed.value).not.toContain(secret);
    expect(openTotpSecret(sealed, 7, [KEY])).toBe(secret);
    // Copied onto another account's row, it does not open.
    expect(() => openTotpSecret(sealed, 8, [KEY])).toThrow();
    expect(() => openTotpSecret(sealed, 7, ['cd'.repeat(32)])).toThrow();
  });
});

describe('recovery codes', () => {
  it('ten readable codes, each different, stored as hashes that do not contain them', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of codes) {
      expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
      expect(code).not.toMatch(/[01ilo]/);
      expect(hashRecoveryCode(code)).toMatch(/^[0-9a-f]{64}$/);
      expect(hashRecoveryCode(code)).not.toContain(code.replace('-', ''));
    }
  });

  it('a code typed back matches its hash whatever its case, spaces and dashes; others match none', () => {
    const codes = newRecoveryCodes();
    const hashes = codes.map(hashRecoveryCode);
    expect(matchRecoveryCode(codes[3], hashes)).toBe(3);
    expect(matchRecoveryCode(` ${codes[5].toUpperCase().replace('-', ' ')} `, hashes)).toBe(5);
    expect(matchRecoveryCode(codes[0].replace('-', ''), hashes)).toBe(0);
    expect(matchRecoveryCode('aaaaa-aaaaa', hashes)).toBe(-1);
    expect(matchRecoveryCode('', hashes)).toBe(-1);
    // Once used, the caller drops its hash: the same code then matches nothing.
    expect(
      matchRecoveryCode(
        codes[3],
        hashes.filter((_, i) => i !== 3),
      ),
    ).toBe(-1);
  });
});
