import { expect, it } from 'vitest';
import { newNonce } from './nonce.ts';

it('gives 16 random bytes in base64, never the same twice, across refills of its pool', () => {
  const seen = new Set<string>();
  // 10 pools' worth.
  for (let i = 0; i < 2_560; i++) {
    const nonce = newNonce();
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(Buffer.from(nonce, 'base64')).toHaveLength(16);
    seen.add(nonce);
  }
  expect(seen.size).toBe(2_560);
});
