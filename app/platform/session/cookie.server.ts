// Remix's createCookie for Node, with each valid signature remembered: a signed-in browser or
// API client sends the same signed session cookie with every request, and checking it again (an
// HMAC and a timing-safe comparison of the two signatures) was a measurable share of an /api request's CPU.
// Only signatures that verified are kept, per secret (a forged cookie is checked every time and
// takes no room), at most VERIFIED_MAX of them, oldest first out.
import { createCookieFactory } from '@remix-run/server-runtime';
// cookie-signature: the signing @remix-run/node's own createCookie uses, so cookies signed
// before and after stay valid.
import signature from 'cookie-signature';

const VERIFIED_MAX = 5_000;
const verified = new Map<string, Map<string, string>>();

export async function rememberedUnsign(signed: string, secret: string): Promise<string | false> {
  let bySecret = verified.get(secret);
  const known = bySecret?.get(signed);
  if (known !== undefined) return known;
  const value = signature.unsign(signed, secret);
  if (value === false) return false;
  if (!bySecret) verified.set(secret, (bySecret = new Map()));
  if (bySecret.size >= VERIFIED_MAX) bySecret.delete(bySecret.keys().next().value!);
  bySecret.set(signed, value);
  return value;
}

export const createCookie = createCookieFactory({
  sign: async (value, secret) => signature.sign(value, secret),
  unsign: rememberedUnsign,
});
