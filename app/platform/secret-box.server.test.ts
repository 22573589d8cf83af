import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keyIdOf, openSecret, sealSecret, SecretKeyMissing } from './secret-box.server.ts';

const KEY = 'a1'.repeat(32);
const OTHER = 'b2'.repeat(32);

describe('secret box', () => {
  it('seals with a fresh IV each time and opens with the key that sealed it', () => {
    const one = sealSecret('s3cret-token', KEY);
    const two = sealSecret('s3cret-token', KEY);
    expect(one.value).not.toBe(two.value);
    expect(one.value).not.toContain('s3cret');
    expect(Buffer.from(one.value, 'base64url').toString('latin1')).not.toContain('s3cret');
    expect(one.keyId).toBe(keyIdOf(KEY));
    expect(one.keyId).not.toContain(KEY.slice(0, 8));
    expect(openSecret(one, [OTHER, KEY])).toBe('s3cret-token');
  });

  it('refuses an unknown key id and a tampered value', () => {
    const sealed = sealSecret('value', KEY);
    expect(() => openSecret(sealed, [OTHER])).toThrow(SecretKeyMissing);
    const raw = Buffer.from(sealed.value, 'base64url');
    raw[raw.length - 1] ^= 1;
    expect(() => openSecret({ ...sealed, value: raw.toString('base64url') }, [KEY])).toThrow();
    // A value sealed under the same id but another key (a forged id) fails authentication.
    expect(() => openSecret({ value: sealSecret('x', OTHER).value, keyId: sealed.keyId }, [KEY])).toThrow();
  });

  it('binds a value to its context (associated data): another context, none, or a cut tag does not open it', () => {
    const sealed = sealSecret('bound', KEY, 'https://api.example.com');
    expect(openSecret(sealed, [KEY], 'https://api.example.com')).toBe('bound');
    expect(() => openSecret(sealed, [KEY], 'https://collector.example')).toThrow();
    expect(() => openSecret(sealed, [KEY], 'http://api.example.com')).toThrow();
    expect(() => openSecret(sealed, [KEY])).toThrow();
    // A value sealed without context does not open with one.
    expect(() => openSecret(sealSecret('plain', KEY), [KEY], 'https://api.example.com')).toThrow();
    // Only the full 16-byte tag is accepted (a 4-byte one would be guessed in 2^32 tries).
    const empty = sealSecret('', KEY, 'https://api.example.com');
    const cut = Buffer.from(empty.value, 'base64url').subarray(0, 16).toString('base64url');
    expect(() => openSecret({ ...empty, value: cut }, [KEY], 'https://api.example.com')).toThrow();
  });

  it('handles empty and long unicode values', () => {
    for (const plain of ['', 'pässwörd ✓', crypto.randomBytes(3000).toString('hex')])
      expect(openSecret(sealSecret(plain, KEY), [KEY])).toBe(plain);
  });
});
