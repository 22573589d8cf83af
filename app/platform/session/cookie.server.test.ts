// Signed cookies with remembered signatures read and write what Remix's own createCookie does,
// and a signature is only ever taken for the exact string and secret it was checked with.
import { createCookie as remixCreateCookie } from '@remix-run/node';
import { expect, it } from 'vitest';
import { createCookie, rememberedUnsign } from './cookie.server.ts';

const SECRET = 'test-secret-0123456789abcdef0123456789abcdef';

it("reads Remix's signed cookies and writes ones Remix reads", async () => {
  const ours = createCookie('__session', { secrets: [SECRET] });
  const remix = remixCreateCookie('__session', { secrets: [SECRET] });
  const header = (setCookie: string) => setCookie.split(';')[0];
  expect(await ours.parse(header(await remix.serialize('token-1')))).toBe('token-1');
  expect(await remix.parse(header(await ours.serialize('token-2')))).toBe('token-2');
  // Twice: the second read is the remembered one.
  expect(await ours.parse(header(await remix.serialize('token-1')))).toBe('token-1');
});

it('refuses a changed value or signature, also after the genuine one was remembered', async () => {
  const cookie = createCookie('__session', { secrets: [SECRET] });
  const genuine = (await cookie.serialize('token-3')).split(';')[0];
  expect(await cookie.parse(genuine)).toBe('token-3');
  const value = genuine.slice('__session='.length);
  const dot = value.lastIndexOf('.');
  const flipped = (c: string) => (c === 'A' ? 'B' : 'A');
  const badSignature = `__session=${value.slice(0, -1)}${flipped(value.at(-1)!)}`;
  const badValue = `__session=${flipped(value[0])}${value.slice(1)}`;
  expect(dot).toBeGreaterThan(0);
  for (const forged of [badSignature, badValue, `__session=${value.slice(0, dot)}`]) {
    expect(await cookie.parse(forged), forged).toBeNull();
    expect(await cookie.parse(forged), forged).toBeNull();
  }
});

it('keeps what one secret verified away from another, and reads cookies of an older secret', async () => {
  const old = createCookie('__session', { secrets: ['old-secret-0123456789abcdef0123456789ab'] });
  const signed = (await old.serialize('token-4')).split(';')[0];
  expect(await old.parse(signed)).toBe('token-4');
  const rotated = createCookie('__session', { secrets: [SECRET, 'old-secret-0123456789abcdef0123456789ab'] });
  expect(await rotated.parse(signed)).toBe('token-4');
  expect(await createCookie('__session', { secrets: [SECRET] }).parse(signed)).toBeNull();
  const raw = decodeURIComponent(signed.slice('__session='.length));
  expect(await rememberedUnsign(raw, SECRET)).toBe(false);
});
