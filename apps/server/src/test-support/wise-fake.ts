/**
 * A local Wise that speaks the parts of its documented API payouts use (issue 38): a profile, recipients
 * (`POST /v1/accounts`, 422 with Wise's `errors` list for details it refuses), quotes, transfers
 * (`POST /v1/transfers`, one per `customerTransactionId`: a repeat answers the transfer made first), funding
 * from the balance (403 when the profile needs strong customer authentication, as UK and EEA profiles do;
 * `REJECTED` with `transfer.insufficient_funds` when the balance is short), transfer reads, and
 * `transfers#state-change` webhooks signed RSA-SHA256 with its own key pair (the app is set up with its
 * public key). Forced 5xx answers test the retries.
 */
import { generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

type FakeTransfer = {
  id: number;
  customerTransactionId: string;
  targetAccount: number;
  quoteUuid: string;
  status: string;
  sourceAmount: number;
  targetCurrency: string;
};
type FakeRecipient = {
  id: number;
  currency: string;
  accountHolderName: string;
  details: Record<string, unknown>;
};

export type WiseFake = {
  url: string;
  apiToken: string;
  profileId: string;
  publicKeyPem: string;
  recipients: FakeRecipient[];
  transfers: FakeTransfer[];
  /** Funding by API refused with 403 (strong customer authentication), as for UK and EEA profiles. */
  setScaRequired: (required: boolean) => void;
  /** The USD balance funding draws from, in dollars. */
  setBalance: (dollars: number) => void;
  /** IBANs Wise refuses (422), as it does an account it cannot pay. */
  refuseIban: (iban: string) => void;
  /** The next N transfer creations answer 500; the first of them still makes the transfer (the worst case). */
  failTransferCreations: (count: number) => void;
  transferCalls: () => number;
  setStatus: (transferId: number, status: string) => void;
  /** A `transfers#state-change` event and the headers Wise sends with it. */
  webhook: (
    transferId: number,
    state: string,
    options?: { badSignature?: boolean; occurredAt?: Date },
  ) => { body: string; headers: Record<string, string> };
  close: () => Promise<void>;
};

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startWiseFake(): Promise<WiseFake> {
  const apiToken = 'fake-wise-token';
  const profileId = '16000001';
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString().trim();
  const recipients: FakeRecipient[] = [];
  const quotes = new Map<string, { sourceAmount: number; targetCurrency: string }>();
  const transfers: FakeTransfer[] = [];
  const refusedIbans = new Set<string>();
  let scaRequired = false;
  let balance = 1_000_000;
  let failing = 0;
  let failedOnce = false;
  let transferCalls = 0;

  const server: Server = createServer(async (request, response) => {
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify(body));
    };
    const text = await readBody(request);
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    const path = (request.url ?? '').split('?')[0] ?? '';
    if (request.headers.authorization !== `Bearer ${apiToken}`)
      return send(401, { error: 'unauthorized', error_description: 'Invalid token' });

    const profile = /^\/v2\/profiles\/(\d+)$/.exec(path);
    if (request.method === 'GET' && profile) {
      return profile[1] === profileId
        ? send(200, { id: Number(profileId), type: 'BUSINESS', businessName: 'Fake Label Ltd' })
        : send(404, { errors: [{ code: 'NOT_FOUND', message: 'Profile not found' }] });
    }
    if (request.method === 'POST' && path === '/v1/accounts') {
      const details = (body.details ?? {}) as Record<string, unknown>;
      const iban = typeof details.iban === 'string' ? details.iban : null;
      if (iban && refusedIbans.has(iban)) {
        return send(422, {
          errors: [
            { code: 'NOT_VALID', message: 'Please specify a valid IBAN.', path: 'iban', arguments: [iban] },
          ],
        });
      }
      const recipient = {
        id: 40_000_000 + recipients.length + 1,
        currency: String(body.currency),
        accountHolderName: String(body.accountHolderName),
        details,
      };
      recipients.push(recipient);
      return send(200, { ...recipient, profile: Number(profileId), active: true });
    }
    if (request.method === 'POST' && path === `/v3/profiles/${profileId}/quotes`) {
      const id = randomUUID();
      const quote = { sourceAmount: Number(body.sourceAmount), targetCurrency: String(body.targetCurrency) };
      quotes.set(id, quote);
      return send(200, {
        id,
        sourceCurrency: body.sourceCurrency,
        ...quote,
        rate: 0.9,
        payOut: body.payOut,
        status: 'PENDING',
      });
    }
    if (request.method === 'POST' && path === '/v1/transfers') {
      transferCalls += 1;
      const existing = transfers.find((t) => t.customerTransactionId === body.customerTransactionId);
      const quote = quotes.get(String(body.quoteUuid));
      if (!existing && !quote)
        return send(422, { errors: [{ code: 'NOT_VALID', message: 'Quote not found', path: 'quoteUuid' }] });
      if (!existing && quote && (failing === 0 || !failedOnce)) {
        transfers.push({
          id: 50_000_000 + transfers.length + 1,
          customerTransactionId: String(body.customerTransactionId),
          targetAccount: Number(body.targetAccount),
          quoteUuid: String(body.quoteUuid),
          status: 'incoming_payment_waiting',
          sourceAmount: quote.sourceAmount,
          targetCurrency: quote.targetCurrency,
        });
      }
      if (failing > 0) {
        failing -= 1;
        failedOnce = true;
        return send(500, { error: 'internal_error' });
      }
      const transfer = transfers.find((t) => t.customerTransactionId === body.customerTransactionId);
      return transfer ? send(200, transfer) : send(500, { error: 'internal_error' });
    }
    const payment = /^\/v3\/profiles\/(\d+)\/transfers\/(\d+)\/payments$/.exec(path);
    if (request.method === 'POST' && payment) {
      const transfer = transfers.find((t) => t.id === Number(payment[2]));
      if (payment[1] !== profileId || !transfer)
        return send(404, { errors: [{ code: 'NOT_FOUND', message: 'Transfer not found' }] });
      if (scaRequired) return send(403, {}, { 'x-2fa-approval': randomUUID() });
      if (transfer.status !== 'incoming_payment_waiting')
        return send(409, { errors: [{ code: 'transfer.already_funded', message: 'Already funded' }] });
      if (balance < transfer.sourceAmount)
        return send(201, { type: 'BALANCE', status: 'REJECTED', errorCode: 'transfer.insufficient_funds' });
      balance -= transfer.sourceAmount;
      transfer.status = 'processing';
      return send(201, { type: 'BALANCE', status: 'COMPLETED', errorCode: null });
    }
    const show = /^\/v1\/transfers\/(\d+)$/.exec(path);
    if (request.method === 'GET' && show) {
      const transfer = transfers.find((t) => t.id === Number(show[1]));
      return transfer ? send(200, transfer) : send(404, { errors: [{ code: 'NOT_FOUND' }] });
    }
    send(404, { errors: [{ code: 'NOT_FOUND', message: `No route ${request.method} ${path}` }] });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const transferOf = (id: number) => {
    const transfer = transfers.find((t) => t.id === id);
    if (!transfer) throw new Error(`fake Wise has no transfer ${id}`);
    return transfer;
  };

  return {
    url,
    apiToken,
    profileId,
    publicKeyPem,
    recipients,
    transfers,
    setScaRequired: (required) => {
      scaRequired = required;
    },
    setBalance: (dollars) => {
      balance = dollars;
    },
    refuseIban: (iban) => {
      refusedIbans.add(iban);
    },
    failTransferCreations: (count) => {
      failing = count;
      failedOnce = false;
    },
    transferCalls: () => transferCalls,
    setStatus: (transferId, status) => {
      transferOf(transferId).status = status;
    },
    webhook: (transferId, state, options = {}) => {
      const transfer = transferOf(transferId);
      const event = {
        data: {
          resource: {
            type: 'transfer',
            id: transfer.id,
            profile_id: Number(profileId),
            account_id: transfer.targetAccount,
          },
          current_state: state,
          previous_state: null,
          occurred_at: (options.occurredAt ?? new Date()).toISOString(),
        },
        subscription_id: '01234567-89ab-cdef-0123-456789abcdef',
        event_type: 'transfers#state-change',
        schema_version: '4.0.0',
        sent_at: new Date().toISOString(),
      };
      const body = JSON.stringify(event);
      const signature = sign('RSA-SHA256', Buffer.from(body, 'utf8'), privateKey).toString('base64');
      return {
        body,
        headers: {
          'content-type': 'application/json',
          'x-delivery-id': randomUUID(),
          'x-signature-sha256': options.badSignature
            ? sign('RSA-SHA256', Buffer.from(`${body} `, 'utf8'), privateKey).toString('base64')
            : signature,
        },
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
