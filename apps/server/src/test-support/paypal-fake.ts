/**
 * A local PayPal that speaks the parts of its documented REST API payouts use (issue 38): OAuth client
 * credentials, create a payout batch (a repeated sender_batch_id answers 400 USER_BUSINESS_ERROR with a
 * link to the original batch), show a batch, and verify a webhook signature. Webhooks it sends are signed
 * with an HMAC only it and its verify call know. Forced 5xx answers test the retries.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

type FakeItem = {
  payoutItemId: string;
  senderItemId: string;
  status: string;
  receiver: string;
  value: string;
};
type FakeBatch = { id: string; senderBatchId: string; items: FakeItem[] };

export type PaypalFake = {
  url: string;
  clientId: string;
  clientSecret: string;
  webhookId: string;
  batches: FakeBatch[];
  /** The next N batch creations answer 500; the first of them still makes the batch (the worst case). */
  failCreations: (count: number) => void;
  createCalls: () => number;
  setStatus: (senderItemId: string, status: string) => FakeItem;
  /** A webhook event for an item and the headers PayPal would send with it. */
  webhook: (
    senderItemId: string,
    status: string,
    options?: { eventId?: string; badSignature?: boolean },
  ) => {
    body: string;
    headers: Record<string, string>;
  };
  close: () => Promise<void>;
};

const SIGNING_SECRET = 'paypal-fake-signing-secret';

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function signature(transmissionId: string, webhookId: string, body: string): string {
  return createHmac('sha256', SIGNING_SECRET)
    .update(`${transmissionId}|${webhookId}|${body}`)
    .digest('base64');
}

export async function startPaypalFake(): Promise<PaypalFake> {
  const clientId = 'fake-client-id-0001';
  const clientSecret = 'fake-client-secret';
  const webhookId = 'WH-FAKE-1';
  const batches: FakeBatch[] = [];
  // PayPal's item ids are unique everywhere; the app keys its polled events by them (`poll:<item>:<status>`),
  // so two fakes on one database (the journeys) must never hand out the same id.
  const itemIdTag = randomUUID().replace(/-/g, '').slice(0, 6).toUpperCase();
  let failing = 0;
  let failedOnce = false;
  let creations = 0;
  let url = '';

  const batchJson = (batch: FakeBatch) => ({
    batch_header: {
      payout_batch_id: batch.id,
      batch_status: 'PROCESSING',
      sender_batch_header: { sender_batch_id: batch.senderBatchId },
    },
    items: batch.items.map((item) => ({
      payout_item_id: item.payoutItemId,
      transaction_status: item.status,
      payout_batch_id: batch.id,
      payout_item: {
        sender_item_id: item.senderItemId,
        receiver: item.receiver,
        amount: { value: item.value, currency: 'USD' },
      },
    })),
  });

  const server: Server = createServer(async (request, response) => {
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const body = await readBody(request);
    const path = (request.url ?? '').split('?')[0] ?? '';
    if (request.method === 'POST' && path === '/v1/oauth2/token') {
      const expected = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
      if (request.headers.authorization !== expected) return send(401, { error: 'invalid_client' });
      return send(200, { access_token: 'fake-access-token', token_type: 'Bearer', expires_in: 32400 });
    }
    if (request.headers.authorization !== 'Bearer fake-access-token')
      return send(401, { name: 'AUTHENTICATION_FAILURE' });
    if (request.method === 'POST' && path === '/v1/payments/payouts') {
      creations += 1;
      const input = JSON.parse(body) as {
        sender_batch_header: { sender_batch_id: string };
        items: { sender_item_id: string; receiver: string; amount: { value: string } }[];
      };
      const existing = batches.find((b) => b.senderBatchId === input.sender_batch_header.sender_batch_id);
      if (!existing && (failing === 0 || !failedOnce)) {
        batches.push({
          id: `FAKEBATCH${batches.length + 1}`,
          senderBatchId: input.sender_batch_header.sender_batch_id,
          items: input.items.map((item, index) => ({
            payoutItemId: `FAKEITEM${itemIdTag}${batches.length + 1}X${index + 1}`,
            senderItemId: item.sender_item_id,
            status: 'PENDING',
            receiver: item.receiver,
            value: item.amount.value,
          })),
        });
      }
      if (failing > 0) {
        failing -= 1;
        failedOnce = true;
        return send(500, { name: 'INTERNAL_SERVER_ERROR' });
      }
      const batch = batches.find((b) => b.senderBatchId === input.sender_batch_header.sender_batch_id);
      if (!batch) return send(500, { name: 'INTERNAL_SERVER_ERROR' });
      if (existing) {
        return send(400, {
          name: 'USER_BUSINESS_ERROR',
          message: `Batch with given sender_batch_id ${batch.senderBatchId} already exists`,
          links: [{ href: `${url}/v1/payments/payouts/${batch.id}`, rel: 'self', method: 'GET' }],
        });
      }
      return send(201, { batch_header: { payout_batch_id: batch.id, batch_status: 'PENDING' } });
    }
    const show = /^\/v1\/payments\/payouts\/([A-Z0-9]+)$/.exec(path);
    if (request.method === 'GET' && show) {
      const batch = batches.find((b) => b.id === show[1]);
      return batch ? send(200, batchJson(batch)) : send(404, { name: 'RESOURCE_NOT_FOUND' });
    }
    if (request.method === 'POST' && path === '/v1/notifications/verify-webhook-signature') {
      const input = JSON.parse(body) as {
        transmission_id: string;
        transmission_sig: string;
        webhook_id: string;
        webhook_event: unknown;
      };
      const ok =
        input.webhook_id === webhookId &&
        input.transmission_sig ===
          signature(input.transmission_id, input.webhook_id, JSON.stringify(input.webhook_event));
      return send(200, { verification_status: ok ? 'SUCCESS' : 'FAILURE' });
    }
    send(404, { name: 'RESOURCE_NOT_FOUND' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const itemOf = (senderItemId: string) => {
    for (const batch of batches) {
      const item = batch.items.find((i) => i.senderItemId === senderItemId);
      if (item) return { batch, item };
    }
    throw new Error(`fake PayPal has no item ${senderItemId}`);
  };

  return {
    url,
    clientId,
    clientSecret,
    webhookId,
    batches,
    failCreations: (count) => {
      failing = count;
      failedOnce = false;
    },
    createCalls: () => creations,
    setStatus: (senderItemId, status) => {
      const { item } = itemOf(senderItemId);
      item.status = status;
      return item;
    },
    webhook: (senderItemId, status, options = {}) => {
      const { batch, item } = itemOf(senderItemId);
      const event = {
        id: options.eventId ?? `WH-${randomUUID()}`,
        event_type: `PAYMENT.PAYOUTS-ITEM.${status === 'SUCCESS' ? 'SUCCEEDED' : status}`,
        resource: {
          payout_item_id: item.payoutItemId,
          transaction_status: status,
          payout_batch_id: batch.id,
          payout_item: { sender_item_id: item.senderItemId },
        },
      };
      const bodyText = JSON.stringify(event);
      const transmissionId = randomUUID();
      return {
        body: bodyText,
        headers: {
          'content-type': 'application/json',
          'paypal-transmission-id': transmissionId,
          'paypal-transmission-time': new Date().toISOString(),
          'paypal-auth-algo': 'SHA256withRSA',
          'paypal-cert-url': `${url}/certs/fake`,
          'paypal-transmission-sig': options.badSignature
            ? 'forged'
            : signature(transmissionId, webhookId, bodyText),
        },
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
