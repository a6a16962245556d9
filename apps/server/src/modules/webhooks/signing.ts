/**
 * Standard Webhooks signatures (record 291) with the `standardwebhooks` package: HMAC-SHA256 over
 * `id.timestamp.body`, `v1,<base64>`; during the 24 hours after a rotation both secrets sign, space-separated.
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

export const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

export function signatureHeader(secrets: string[], id: string, at: Date, body: string): string {
  return secrets.map((secret) => new Webhook(secret).sign(id, at, body)).join(' ');
}

/** The secrets that sign now: the current one, and the previous one until its 24 hours are over. */
export function signingSecrets(endpoint: {
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: Date | null;
}): string[] {
  const isPreviousValid =
    endpoint.previousSecret !== null &&
    endpoint.previousSecretUntil !== null &&
    endpoint.previousSecretUntil.getTime() > Date.now();
  return isPreviousValid && endpoint.previousSecret
    ? [endpoint.secret, endpoint.previousSecret]
    : [endpoint.secret];
}
