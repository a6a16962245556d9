/**
 * Stripe Connect (issue 38, record 281) through the `stripe` package billing already uses, against
 * `baseUrl` (a local fake in tests): one transfer per (run, payee) from the platform's balance to the
 * payee's connected account (`POST /v1/transfers`). Each carries the Idempotency-Key
 * `tunedrop-transfer-<run id>:<account id>` and its item key as `transfer_group` and metadata, so a retry
 * answers the transfer made the first time (Stripe keeps a key's first answer for at least 24 hours), and a
 * run resumed later finds its transfer by `transfer_group` before it creates one. Stripe replays a refusal
 * under its key too (balance_insufficient, say): a replayed refusal made no transfer, so the next key of the
 * fixed sequence (`…:2`, `…:3`) is tried, which keeps every key deterministic.
 */
import type { StripeDetails } from '@tunedrop/shared/schemas/wallet';
import Stripe from 'stripe';
import { stripeConnectionOptions } from '../../../infra/payments/stripe-provider';
import type { BatchItemInput, ItemOutcome, PayoutProvider, ProviderConfig } from './types';

const RETRIES = 3;
/** Keys of the sequence tried when Stripe replays a refusal saved under the previous one. */
const KEY_GENERATIONS = 5;

/** Stripe's error codes that are about the payee's connected account: the item ends, the money goes back. */
const PAYEE_CODES = new Set([
  'account_invalid',
  'insufficient_capabilities_for_transfer',
  'transfers_not_allowed',
  'account_closed',
]);

export const transferIdempotencyKey = (itemKey: string, generation = 1) =>
  `tunedrop-transfer-${itemKey}${generation > 1 ? `:${generation}` : ''}`;

export function stripeClient(config: ProviderConfig): Stripe {
  const secretKey = config.credentials?.secretKey;
  if (!secretKey) throw new Error('Stripe credentials are missing');
  return new Stripe(secretKey, {
    ...stripeConnectionOptions(config.baseUrl ?? undefined),
    // Retries are ours (below), with the same key, so their count is known and tested.
    maxNetworkRetries: 0,
    timeout: 20_000,
    telemetry: false,
  });
}

type StripeFailure = {
  statusCode?: number;
  code?: string;
  param?: string;
  message?: string;
  type?: string;
  isReplayed?: boolean;
};

const failureOf = (error: unknown): StripeFailure =>
  error instanceof Stripe.errors.StripeError
    ? {
        statusCode: error.statusCode,
        code: error.code,
        param: error.param,
        message: error.message,
        type: error.type,
        isReplayed: error.headers?.['idempotent-replayed'] === 'true',
      }
    : { message: error instanceof Error ? error.message : String(error) };

/** A 5xx, a 409 (a request with the same key still running) or no answer at all: worth another try. */
const isTransient = (failure: StripeFailure) =>
  failure.statusCode === undefined || failure.statusCode >= 500 || failure.statusCode === 409;

const isPayeeProblem = (failure: StripeFailure) =>
  (failure.code !== undefined && PAYEE_CODES.has(failure.code)) ||
  (failure.code === 'resource_missing' && failure.param === 'destination');

const paid = (item: BatchItemInput, transfer: Stripe.Transfer): ItemOutcome => ({
  key: item.key,
  providerReference: transfer.id,
  // The money left the platform's balance for the payee's: the payout is paid (record 281).
  providerStatus: 'transfer created',
  outcome: transfer.reversed ? 'returned' : 'paid',
});

async function existingTransfer(stripe: Stripe, itemKey: string): Promise<Stripe.Transfer | null> {
  const page = await stripe.transfers.list({ transfer_group: itemKey, limit: 1 });
  return page.data[0] ?? null;
}

async function sendTransfer(stripe: Stripe, item: BatchItemInput): Promise<ItemOutcome> {
  const found = await existingTransfer(stripe, item.key);
  if (found) return paid(item, found);
  const destination = (item.details as StripeDetails).stripe_account_id;
  let last: StripeFailure = {};
  let generation = 1;
  for (let attempt = 0; attempt <= RETRIES; attempt += 1) {
    try {
      const transfer = await stripe.transfers.create(
        {
          amount: item.netCents,
          currency: 'usd',
          destination,
          transfer_group: item.key,
          description: item.note,
          metadata: { tunedrop_key: item.key },
        },
        { idempotencyKey: transferIdempotencyKey(item.key, generation) },
      );
      return paid(item, transfer);
    } catch (error) {
      last = failureOf(error);
      if (isTransient(last)) continue;
      if (last.isReplayed && generation < KEY_GENERATIONS) {
        // An earlier attempt's refusal, replayed: nothing was made under that key; ask afresh.
        generation += 1;
        attempt -= 1;
        continue;
      }
      if (isPayeeProblem(last)) {
        return {
          key: item.key,
          providerReference: null,
          providerStatus: `transfer refused: ${last.code}`,
          outcome: 'returned',
        };
      }
      // The platform's own problem (balance_insufficient, a revoked key…): the run stops and resumes later.
      throw new Error(
        `Stripe refused the transfer for ${item.payeeName} (HTTP ${last.statusCode} ${last.code ?? last.type ?? ''}: ${last.message ?? ''})`,
      );
    }
  }
  // Stripe saves a 5xx under its key too; the transfer may exist all the same: look it up once more.
  const late = await existingTransfer(stripe, item.key).catch(() => null);
  if (late) return paid(item, late);
  throw new Error(
    `Stripe did not answer the transfer for ${item.payeeName} after ${RETRIES} retries (${last.statusCode ?? 'no answer'} ${last.message ?? ''})`,
  );
}

export const stripeProvider: PayoutProvider = {
  id: 'stripe',
  methods: ['stripe'],
  async testConnection(config) {
    const balance = await stripeClient(config).balance.retrieve();
    const usd = balance.available.find((entry) => entry.currency === 'usd')?.amount ?? 0;
    return {
      ok: true,
      message: `Stripe accepted the key; available balance ${(usd / 100).toFixed(2)} USD.`,
    };
  },
  async createBatch(config, batch) {
    const stripe = stripeClient(config);
    const items = [...batch.items].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const outcomes: ItemOutcome[] = [];
    for (const item of items) outcomes.push(await sendTransfer(stripe, item));
    return { providerReference: null, items: outcomes };
  },
};
