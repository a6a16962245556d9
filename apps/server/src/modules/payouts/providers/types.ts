/**
 * One interface for every payout provider (issue 38): test the connection, create a batch under a key of
 * ours the provider keeps as its idempotency key, and read a batch's item states back. A provider never
 * touches the database; the run (run-send.ts) records what it answers.
 */

import type { PaymentMethod } from '@tunedrop/shared';
import type { PayoutProviderId } from '@tunedrop/shared/schemas/payouts';
import type { PaymentDetails } from '@tunedrop/shared/schemas/wallet';

export type ProviderConfig = {
  /** The credentials as the admin saved them (decrypted), or null when none were saved. */
  credentials: Record<string, string> | null;
  /** The API's base URL (a local fake in tests and CI); null for the provider's own. */
  baseUrl: string | null;
};

export type BatchItemInput = {
  /** Our key for the item, `<run id>:<account id>`: PayPal's sender_item_id. */
  key: string;
  netCents: number;
  method: PaymentMethod;
  details: PaymentDetails;
  payeeName: string;
  note: string;
};

export type BatchInput = { senderBatchId: string; runDate: Date; items: BatchItemInput[] };

/** What the provider says of an item; `paid`/`returned` settle it, `sent` waits. */
export type ItemOutcome = {
  key: string;
  providerReference: string | null;
  providerStatus: string;
  outcome: 'sent' | 'paid' | 'returned';
  /** Made but not funded: the operator funds it at the provider (Wise under strong authentication). */
  isAwaitingFunding?: boolean;
};

export type BatchResult = {
  providerReference: string | null;
  /** bank-csv: the payout file to keep with the batch. */
  file?: string;
  items: ItemOutcome[];
};

export type PayoutProvider = {
  id: PayoutProviderId;
  /** The payee methods it pays. */
  methods: readonly PaymentMethod[];
  testConnection(config: ProviderConfig): Promise<{ ok: boolean; message: string }>;
  /** Safe to call again with the same senderBatchId: answers the batch made the first time. */
  createBatch(config: ProviderConfig, batch: BatchInput): Promise<BatchResult>;
};
