/**
 * Secrets at rest (payment details, delivery target credentials): AES-256-GCM with a key derived from
 * APP_SECRET by HKDF-SHA256 under a purpose of the caller's, so a key for one purpose never opens
 * another, and `boundTo` (e.g. the owner's id) as associated data, so a ciphertext copied onto another
 * owner does not decrypt. Format: `v1.<iv>.<tag>.<ciphertext>`, each part base64url.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const keys = new Map<string, Buffer>();

function keyFor(appSecret: string, purpose: string): Buffer {
  const cacheKey = `${purpose}\u0000${appSecret}`;
  let key = keys.get(cacheKey);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', appSecret, purpose, 'aes-256-gcm v1', 32));
    keys.set(cacheKey, key);
  }
  return key;
}

/** The JSON of `value`, encrypted for `purpose` and bound to `boundTo`. */
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

/**
 * The value encryptSecret encrypted, as the caller's type (the caller wrote it, so its shape is the
 * caller's to name). Throws when the text was not made by encryptSecret for this purpose and binding
 * with this secret; `what` names the secret in the error.
 */
export function decryptSecret<T>(
  appSecret: string,
  purpose: string,
  boundTo: string,
  text: string,
  what = 'secret',
): T {
  const [version, iv, tag, ciphertext] = text.split('.');
  if (version !== VERSION || !iv || !tag || ciphertext === undefined)
    throw new Error(`${what}: unknown format`);
  const decipher = createDecipheriv('aes-256-gcm', keyFor(appSecret, purpose), Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(boundTo, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  const plain = Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]);
  return JSON.parse(plain.toString('utf8')) as T;
}
