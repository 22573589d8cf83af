// The browser's side of Web Push encryption, for tests: a subscription's keys made as a browser
// makes them (an ECDH P-256 key pair and a 16-byte auth secret), and decryption of an
// "aes128gcm" message (RFC 8188 content coding, RFC 8291 key derivation) with node:crypto only.
import crypto from 'node:crypto';

export interface BrowserKeys {
  ecdh: crypto.ECDH;
  /** Uncompressed P-256 public key (65 bytes, 0x04 ‖ x ‖ y). */
  publicKey: Buffer;
  authSecret: Buffer;
  /** What PushSubscription.toJSON().keys holds (URL-safe base64). */
  subscriptionKeys: { p256dh: string; auth: string };
}

export function browserKeys(): BrowserKeys {
  const ecdh = crypto.createECDH('prime256v1');
  const publicKey = ecdh.generateKeys();
  const authSecret = crypto.randomBytes(16);
  return {
    ecdh,
    publicKey,
    authSecret,
    subscriptionKeys: { p256dh: publicKey.toString('base64url'), auth: authSecret.toString('base64url') },
  };
}

const hkdf = (ikm: Buffer, salt: Buffer, info: Buffer, length: number) =>
  Buffer.from(crypto.hkdfSync('sha256', ikm, salt, info, length));

/** Decrypts an aes128gcm Web Push body for this browser; throws when it does not authenticate. */
export function decryptPush(body: Buffer, browser: Pick<BrowserKeys, 'ecdh' | 'publicKey' | 'authSecret'>): Buffer {
  // RFC 8188 header: salt (16) ‖ record size (uint32) ‖ key id length (1) ‖ key id (the sender's public key).
  if (body.length < 21) throw new Error('aes128gcm: body shorter than its header');
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20];
  const senderPublicKey = body.subarray(21, 21 + idLength);
  if (senderPublicKey.length !== 65 || senderPublicKey[0] !== 0x04)
    throw new Error('aes128gcm: key id is not an uncompressed P-256 key');
  if (recordSize < 18) throw new Error('aes128gcm: record size too small');

  // RFC 8291 §3.4: IKM from the ECDH secret and the auth secret, bound to both public keys.
  const ecdhSecret = browser.ecdh.computeSecret(senderPublicKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), browser.publicKey, senderPublicKey]);
  const ikm = hkdf(ecdhSecret, browser.authSecret, keyInfo, 32);
  // RFC 8188 §2.2, §2.3: content-encryption key and nonce.
  const cek = hkdf(ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
  const baseNonce = hkdf(ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12);

  const records = body.subarray(21 + idLength);
  const plain: Buffer[] = [];
  let sawLast = false;
  for (let offset = 0, seq = 0; offset < records.length; offset += recordSize, seq += 1) {
    if (sawLast) throw new Error('aes128gcm: data after the last record');
    const record = records.subarray(offset, offset + recordSize);
    if (record.length < 17) throw new Error('aes128gcm: truncated record');
    const nonce = Buffer.from(baseNonce);
    // The record sequence number (big-endian) XORed into the nonce; it fits the last 4 bytes.
    nonce.writeUInt32BE((nonce.readUInt32BE(8) ^ seq) >>> 0, 8);
    const decipher = crypto.createDecipheriv('aes-128-gcm', cek, nonce);
    decipher.setAuthTag(record.subarray(record.length - 16));
    const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
    // Padding: the delimiter (2 on the last record, 1 on the others) followed by zeros.
    let end = padded.length - 1;
    while (end >= 0 && padded[end] === 0) end -= 1;
    if (end < 0 || (padded[end] !== 1 && padded[end] !== 2)) throw new Error('aes128gcm: no padding delimiter');
    sawLast = padded[end] === 2;
    plain.push(padded.subarray(0, end));
  }
  if (!sawLast) throw new Error('aes128gcm: the last record is missing (truncated message)');
  return Buffer.concat(plain);
}
