// Password hashing (argon2id, never stored in clear; docs/security.md) and temporary passwords.
import { describe, expect, it } from 'vitest';
import { generateTemporaryPassword, hashPassword, verifyAgainstDummy, verifyPassword } from './passwords.server.ts';

describe('passwords', () => {
  it('hashes with argon2id and a fresh salt, and verifies', async () => {
    const a = await hashPassword('Correct-Horse-1');
    const b = await hashPassword('Correct-Horse-1');
    expect(a).toMatch(/^\$argon2id\$/);
    expect(a).not.toContain('Correct-Horse-1');
    expect(a).not.toBe(b);
    expect(await verifyPassword(a, 'Correct-Horse-1')).toBe(true);
    expect(await verifyPassword(b, 'Correct-Horse-1')).toBe(true);
    expect(await verifyPassword(a, 'correct-horse-1')).toBe(false);
    expect(await verifyPassword(a, '')).toBe(false);
  });

  it('a malformed stored hash verifies nothing instead of throwing', async () => {
    expect(await verifyPassword('not-a-hash', 'anything')).toBe(false);
    expect(await verifyPassword('', '')).toBe(false);
  });

  it('the dummy verification always fails', async () => {
    expect(await verifyAgainstDummy('whatever')).toBe(false);
  });

  it('temporary passwords are readable, mixed and random', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const password = generateTemporaryPassword();
      expect(password).toHaveLength(14);
      expect(password).toMatch(/^[A-Za-z2-9]+$/);
      expect(password).not.toMatch(/[0O1lI]/);
      expect(password).toMatch(/[A-Z]/);
      expect(password).toMatch(/[a-z]/);
      expect(password).toMatch(/\d/);
      seen.add(password);
    }
    expect(seen.size).toBe(200);
    expect(generateTemporaryPassword(20)).toHaveLength(20);
  });
});
