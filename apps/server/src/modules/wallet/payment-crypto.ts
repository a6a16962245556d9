/**
 * Payment details at rest: AES-256-GCM with a key derived from APP_SECRET by HKDF-SHA256. The owner's
 * user id is bound as associated data, so a ciphertext copied onto another account does not decrypt.
 * Format: `v1.<iv>.<tag>.<ciphertext>`, each part base64url.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { PaymentMethod } from '@tunedrop/shared';
import type { PaymentDetails } from '@tunedrop/shared/schemas/wallet';

const VERSION = 'v1';
const keys = new Map<string, Buffer>();

function keyFor(appSecret: string, purpose = 'tunedrop-payment-details'): Buffer {
  const cacheKey = `${purpose}\u0000${appSecret}`;
  let key = keys.get(cacheKey);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', appSecret, purpose, 'aes-256-gcm v1', 32));
    keys.set(cacheKey, key);
  }
  return key;
}

/**
 * The same scheme for any other secret at rest (delivery target credentials): its own HKDF purpose,
 * so a key for one purpose never opens the other, and `boundTo` as associated data.
 */
export function encryptSecret(appSecret: string, purpose: string, boundTo: string, value: unknown): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(appSecret, purpose), iv);
  cipher.setAAD(Buffer.from(boundTo, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return [
    VERSION,
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    ciphertext.toString('base64url'),
  ].join('.');
}

/** Throws when the text was not made by encryptSecret for this purpose and binding with this secret. */
export function decryptSecret<T>(appSecret: string, purpose: string, boundTo: string, text: string): T {
  const [version, iv, tag, ciphertext] = text.split('.');
  if (version !== VERSION || !iv || !tag || ciphertext === undefined)
    throw new Error('secret: unknown format');
  const decipher = createDecipheriv('aes-256-gcm', keyFor(appSecret, purpose), Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(boundTo, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  const plain = Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]);
  return JSON.parse(plain.toString('utf8')) as T;
}

export type StoredPaymentDetails = { method: PaymentMethod; details: PaymentDetails };

export function encryptPaymentDetails(
  appSecret: string,
  userId: string,
  value: StoredPaymentDetails,
): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(appSecret), iv);
  cipher.setAAD(Buffer.from(userId, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [
    VERSION,
    iv.toString('base64url'),
    tag.toString('base64url'),
    ciphertext.toString('base64url'),
  ].join('.');
}

/** Throws when the text was not made by encryptPaymentDetails for this user with this secret. */
export function decryptPaymentDetails(appSecret: string, userId: string, text: string): StoredPaymentDetails {
  const [version, iv, tag, ciphertext] = text.split('.');
  if (version !== VERSION || !iv || !tag || ciphertext === undefined) {
    throw new Error('payment details: unknown format');
  }
  const decipher = createDecipheriv('aes-256-gcm', keyFor(appSecret), Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(userId, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  const plain = Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]);
  return JSON.parse(plain.toString('utf8')) as StoredPaymentDetails;
}
