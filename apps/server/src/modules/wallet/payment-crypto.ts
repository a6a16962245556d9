/**
 * Payment details at rest, encrypted by lib/crypto.ts under their own purpose with the owner's user id
 * bound as associated data, so a ciphertext copied onto another account does not decrypt.
 */
import type { PaymentMethod } from '@tunedrop/shared';
import type { PaymentDetails } from '@tunedrop/shared/schemas/wallet';
import { decryptSecret, encryptSecret } from '../../lib/crypto';

const PURPOSE = 'tunedrop-payment-details';

export type StoredPaymentDetails = { method: PaymentMethod; details: PaymentDetails };

export function encryptPaymentDetails(
  appSecret: string,
  userId: string,
  value: StoredPaymentDetails,
): string {
  return encryptSecret(appSecret, PURPOSE, userId, value);
}

/** Throws when the text was not made by encryptPaymentDetails for this user with this secret. */
export function decryptPaymentDetails(appSecret: string, userId: string, text: string): StoredPaymentDetails {
  return decryptSecret<StoredPaymentDetails>(appSecret, PURPOSE, userId, text, 'payment details');
}
