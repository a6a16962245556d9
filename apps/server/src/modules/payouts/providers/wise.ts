/**
 * Wise (issue 38) over its REST API at `baseUrl` (a local fake in tests), per payee: a recipient
 * (`POST /v1/accounts`), a quote from the operator's USD balance (`POST /v3/profiles/{id}/quotes`), a transfer
 * (`POST /v1/transfers`) whose `customerTransactionId` is a UUID fixed by our item key, so a retried or
 * resumed run makes one transfer per (run, payee); then funding from the balance
 * (`POST /v3/profiles/{id}/transfers/{transferId}/payments`). A UK or EEA profile answers funding 403 (strong
 * customer authentication, which Wise no longer accepts from a personal token): the transfer stays
 * `incoming_payment_waiting`, the operator funds it in Wise, and `transfers#state-change` events settle it.
 */
import { createHash } from 'node:crypto';
import { centsToDecimal } from '@tunedrop/shared/money';
import type { WiseDetails } from '@tunedrop/shared/schemas/wise-recipient';
import type { BatchItemInput, ItemOutcome, PayoutProvider, ProviderConfig } from './types';

const LIVE_URL = 'https://api.wise.com';
const RETRIES = 3;
/** Wise's status of a transfer waiting for the sender's money. */
export const WISE_WAITING = 'incoming_payment_waiting';

/**
 * Wise's transfer status → where it leaves our item. `bounced_back` waits: Wise's documented unhappy path
 * goes on to `cancelled` and `funds_refunded` (and transfers can roll back), so the money comes back to the
 * payee when Wise says it came back to us, not before.
 */
export function wiseOutcomeOf(status: string): ItemOutcome['outcome'] {
  if (status === 'outgoing_payment_sent') return 'paid';
  if (status === 'cancelled' || status === 'funds_refunded') return 'returned';
  return 'sent';
}

// A fixed namespace for our keys (RFC 4122 version 5, SHA-1 of namespace and name).
const NAMESPACE = Buffer.from('5f0c8a1e4b7d4c2a9e3f6a7b8c9d0e1f', 'hex');

/** The transfer's idempotency key: a UUID (as Wise requires) derived from our item key, the same every time. */
export function customerTransactionId(key: string): string {
  const hash = createHash('sha1').update(NAMESPACE).update(key, 'utf8').digest();
  hash[6] = ((hash[6] ?? 0) & 0x0f) | 0x50;
  hash[8] = ((hash[8] ?? 0) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

type Answer = { status: number; body: Record<string, unknown> };

const base = (config: ProviderConfig) => (config.baseUrl ?? LIVE_URL).replace(/\/+$/, '');

function credentialsOf(config: ProviderConfig) {
  const { apiToken, profileId } = config.credentials ?? {};
  if (!apiToken || !profileId) throw new Error('Wise credentials are missing');
  return { apiToken, profileId };
}

/** One call; a 5xx or a network error is tried again up to three times with the same body. */
async function call(config: ProviderConfig, method: string, path: string, body?: unknown): Promise<Answer> {
  const { apiToken } = credentialsOf(config);
  let lastError = '';
  for (let attempt = 0; attempt <= RETRIES; attempt += 1) {
    let response: Response;
    try {
      response = await fetch(`${base(config)}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${apiToken}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
      continue;
    }
    if (response.status >= 500) {
      lastError = `HTTP ${response.status}`;
      continue;
    }
    const text = await response.text();
    let parsed: Record<string, unknown> = {};
    try {
      parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      parsed = {};
    }
    return { status: response.status, body: parsed };
  }
  throw new Error(
    `Wise did not answer ${method} ${path.split('?')[0]} after ${RETRIES} retries (${lastError})`,
  );
}

/** Wise's errors: `{ errors: [{ code, message }] }` (validation) or `{ error, message }`. */
function refusal(answer: Answer): string {
  const errors = answer.body.errors as { code?: string; message?: string }[] | undefined;
  const first = errors?.[0];
  const text =
    first?.message ?? first?.code ?? (answer.body.message as string) ?? (answer.body.error as string) ?? '';
  return `HTTP ${answer.status}${text ? ` ${text}` : ''}`;
}

function recipientBody(profileId: string, item: BatchItemInput) {
  const wise = item.details as WiseDetails;
  const address = {
    country: wise.wise_country,
    city: wise.wise_city,
    postCode: wise.wise_post_code,
    firstLine: wise.wise_address,
  };
  return {
    profile: Number(profileId),
    currency: wise.wise_currency,
    type: wise.wise_currency === 'EUR' ? 'iban' : 'sort_code',
    accountHolderName: wise.wise_account_holder,
    ownedByCustomer: false,
    details:
      wise.wise_currency === 'EUR'
        ? { legalType: 'PRIVATE', iban: wise.wise_iban, address }
        : {
            legalType: 'PRIVATE',
            sortCode: wise.wise_sort_code,
            accountNumber: wise.wise_account_number,
            address,
          },
  };
}

const returned = (item: BatchItemInput, status: string): ItemOutcome => ({
  key: item.key,
  providerReference: null,
  providerStatus: status,
  outcome: 'returned',
});

/** Recipient, quote, transfer and funding for one payee. */
async function payOne(config: ProviderConfig, item: BatchItemInput): Promise<ItemOutcome> {
  const { profileId } = credentialsOf(config);
  const wise = item.details as WiseDetails;
  const recipient = await call(config, 'POST', '/v1/accounts', recipientBody(profileId, item));
  if (recipient.status === 401 || recipient.status === 403)
    throw new Error(`Wise refused the API token (${refusal(recipient)})`);
  if (recipient.status >= 400) return returned(item, `recipient refused: ${refusal(recipient)}`);
  const quote = await call(config, 'POST', `/v3/profiles/${encodeURIComponent(profileId)}/quotes`, {
    sourceCurrency: 'USD',
    targetCurrency: wise.wise_currency,
    sourceAmount: Number(centsToDecimal(item.netCents)),
    targetAccount: recipient.body.id,
    payOut: 'BANK_TRANSFER',
    preferredPayIn: 'BALANCE',
  });
  if (quote.status >= 400) return returned(item, `quote refused: ${refusal(quote)}`);
  const transfer = await call(config, 'POST', '/v1/transfers', {
    targetAccount: recipient.body.id,
    quoteUuid: quote.body.id,
    customerTransactionId: customerTransactionId(item.key),
    details: { reference: 'Tunedrop payout' },
  });
  // A validation refusal creates nothing; any other refusal may follow a transfer made by an earlier try,
  // so the run stops and is resumed rather than giving the money back.
  if (transfer.status === 422 || transfer.status === 400)
    return returned(item, `transfer refused: ${refusal(transfer)}`);
  if (transfer.status >= 400) throw new Error(`Wise refused the transfer (${refusal(transfer)})`);
  const transferId = String(transfer.body.id ?? '');
  if (!transferId) throw new Error('Wise answered no transfer id');
  const status = String(transfer.body.status ?? WISE_WAITING);
  if (status !== WISE_WAITING) {
    // Made and funded by an earlier try: its status as Wise has it.
    return {
      key: item.key,
      providerReference: transferId,
      providerStatus: status,
      outcome: wiseOutcomeOf(status),
    };
  }
  const funded = await fund(config, profileId, transferId);
  return {
    key: item.key,
    providerReference: transferId,
    providerStatus: funded ? 'processing' : WISE_WAITING,
    outcome: 'sent',
    isAwaitingFunding: !funded,
  };
}

/** Funds from the balance; false when Wise wants the operator to fund it in Wise (SCA, no money, no answer). */
async function fund(config: ProviderConfig, profileId: string, transferId: string): Promise<boolean> {
  let answer: Answer;
  try {
    answer = await call(
      config,
      'POST',
      `/v3/profiles/${encodeURIComponent(profileId)}/transfers/${encodeURIComponent(transferId)}/payments`,
      { type: 'BALANCE' },
    );
  } catch {
    return false;
  }
  return answer.status < 300 && answer.body.status === 'COMPLETED';
}

/** A transfer's status read again (polling, when a webhook was lost). */
export async function readWiseTransfer(config: ProviderConfig, transferId: string): Promise<string> {
  const answer = await call(config, 'GET', `/v1/transfers/${encodeURIComponent(transferId)}`);
  if (answer.status >= 400) throw new Error(`Wise transfer read failed (${refusal(answer)})`);
  return String(answer.body.status ?? '');
}

export const wiseProvider: PayoutProvider = {
  id: 'wise',
  methods: ['wise'],
  async testConnection(config) {
    const { profileId } = credentialsOf(config);
    const answer = await call(config, 'GET', `/v2/profiles/${encodeURIComponent(profileId)}`);
    if (answer.status === 401) return { ok: false, message: 'Wise refused the API token (HTTP 401)' };
    if (answer.status >= 400)
      return { ok: false, message: `Wise has no profile ${profileId} for this token (${refusal(answer)})` };
    const type = String(answer.body.type ?? '').toLowerCase();
    return { ok: true, message: `Wise accepted the token for ${type || 'the'} profile ${profileId}.` };
  },
  async createBatch(config, batch) {
    const items: ItemOutcome[] = [];
    for (const item of [...batch.items].sort((a, b) => (a.key < b.key ? -1 : 1))) {
      items.push(await payOne(config, item));
    }
    return { providerReference: null, items };
  },
};
