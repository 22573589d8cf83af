import crypto from 'node:crypto';
import { hash, verify, type Algorithm } from '@node-rs/argon2';

// OWASP's argon2id baseline (19 MiB, 2 iterations): a hash is deliberately slow.
const ARGON2ID = 2 as Algorithm; // Algorithm.Argon2id (a const enum, unreadable under isolatedModules)
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
/** Spends the same time as a real verification, so unknown accounts cannot be told apart. */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword(crypto.randomBytes(16).toString('hex'));
  await verifyPassword(await dummyHash, password);
  return false;
}

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
/** A readable random password (no 0/O, 1/l/I) with upper, lower and digit. */
export function generateTemporaryPassword(length = 14): string {
  for (;;) {
    const bytes = crypto.randomBytes(length);
    const password = Array.from(bytes, (b) => ALPHABET[b % ALPHABET.length]).join('');
    if (/[A-Z]/.test(password) && /[a-z]/.test(password) && /\d/.test(password)) return password;
  }
}
