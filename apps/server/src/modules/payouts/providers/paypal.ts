/**
 * PayPal Payouts (issue 38) over its REST API, against `baseUrl` (a local fake in tests): an OAuth token by
 * client credentials, `POST /v1/payments/payouts` with our `sender_batch_id` and each item's
 * `sender_item_id`, `GET /v1/payments/payouts/{id}` for the items' states. PayPal completes a
 * sender_batch_id once in 30 days and answers a repeat with an error linking the original batch, and a 5xx
 * may be retried with the same id (developer.paypal.com, payouts-post): so a 5xx is retried up to three
 * times and a duplicate is read back through its link, which makes exactly one batch.
 */
import { centsToDecimal } from '@tunedrop/shared/money';
import type { PaypalDetails } from '@tunedrop/shared/schemas/wallet';
import type { BatchResult, ItemOutcome, PayoutProvider, ProviderConfig } from './types';

const LIVE_URL = 'https://api-m.paypal.com';
const RETRIES = 3;

type PaypalItem = {
  payout_item_id: string;
  transaction_status?: string;
  payout_item?: { sender_item_id?: string };
};
type PaypalBatch = {
  batch_header?: { payout_batch_id?: string; batch_status?: string };
  items?: PaypalItem[];
};

const base = (config: ProviderConfig) => (config.baseUrl ?? LIVE_URL).replace(/\/+$/, '');

async function token(config: ProviderConfig): Promise<string> {
  const { clientId, clientSecret } = config.credentials ?? {};
  if (!clientId || !clientSecret) throw new Error('PayPal credentials are missing');
  const response = await fetch(`${base(config)}/v1/oauth2/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  if (!response.ok) throw new Error(`PayPal refused the credentials (HTTP ${response.status})`);
  const body = (await response.json()) as { access_token?: string };
  if (!body.access_token) throw new Error('PayPal answered no access token');
  return body.access_token;
}

/** PayPal's status of an item → where it leaves ours (docs: transaction_enum). */
export function outcomeOf(status: string | undefined): ItemOutcome['outcome'] {
  switch (status) {
    case 'SUCCESS':
      return 'paid';
    case 'FAILED':
    case 'RETURNED':
    case 'REFUNDED':
    case 'REVERSED':
    case 'BLOCKED':
      return 'returned';
    default:
      // PENDING, UNCLAIMED (returned by PayPal after 30 days), ONHOLD: still on its way.
      return 'sent';
  }
}

async function getBatch(bearer: string, url: string): Promise<PaypalBatch> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${bearer}` } });
  if (!response.ok) throw new Error(`PayPal batch read failed (HTTP ${response.status})`);
  return (await response.json()) as PaypalBatch;
}

function resultOf(batch: PaypalBatch): BatchResult {
  return {
    providerReference: batch.batch_header?.payout_batch_id ?? null,
    items: (batch.items ?? []).map((item) => ({
      key: item.payout_item?.sender_item_id ?? '',
      providerReference: item.payout_item_id,
      providerStatus: item.transaction_status ?? 'PENDING',
      outcome: outcomeOf(item.transaction_status),
    })),
  };
}

/** Reads a batch's items again (polling); the same shape as createBatch's answer. */
export async function pollPaypalBatch(config: ProviderConfig, payoutBatchId: string): Promise<BatchResult> {
  const bearer = await token(config);
  return resultOf(
    await getBatch(bearer, `${base(config)}/v1/payments/payouts/${encodeURIComponent(payoutBatchId)}`),
  );
}

export const paypalProvider: PayoutProvider = {
  id: 'paypal',
  methods: ['paypal'],
  async testConnection(config) {
    await token(config);
    return { ok: true, message: 'PayPal accepted the credentials.' };
  },
  async createBatch(config, batch) {
    const bearer = await token(config);
    const body = JSON.stringify({
      sender_batch_header: {
        sender_batch_id: batch.senderBatchId,
        recipient_type: 'EMAIL',
        email_subject: 'You have a payout',
      },
      items: batch.items.map((item) => ({
        recipient_type: 'EMAIL',
        amount: { value: centsToDecimal(item.netCents), currency: 'USD' },
        receiver: (item.details as PaypalDetails).paypal_email,
        sender_item_id: item.key,
        note: item.note,
      })),
    });
    let lastError = '';
    for (let attempt = 0; attempt <= RETRIES; attempt += 1) {
      let response: Response;
      try {
        response = await fetch(`${base(config)}/v1/payments/payouts`, {
          method: 'POST',
          headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
          body,
        });
      } catch (error) {
        lastError = error instanceof Error ? error.message : String(error);
        continue;
      }
      if (response.status >= 500) {
        lastError = `HTTP ${response.status}`;
        continue;
      }
      const answer = (await response.json()) as PaypalBatch & {
        name?: string;
        links?: { href: string; rel: string }[];
      };
      if (response.status === 201 || response.status === 200) {
        const id = answer.batch_header?.payout_batch_id;
        if (!id) throw new Error('PayPal answered no payout_batch_id');
        return resultOf(
          await getBatch(bearer, `${base(config)}/v1/payments/payouts/${encodeURIComponent(id)}`),
        );
      }
      // The sender_batch_id was used: the error links the original batch, which is ours.
      const original = answer.links?.find(
        (link) => link.rel === 'self' || link.rel === 'batch' || link.rel === 'original',
      );
      if (original) return resultOf(await getBatch(bearer, original.href));
      throw new Error(`PayPal refused the batch (HTTP ${response.status} ${answer.name ?? ''})`);
    }
    throw new Error(`PayPal did not answer after ${RETRIES} retries (${lastError})`);
  },
};
