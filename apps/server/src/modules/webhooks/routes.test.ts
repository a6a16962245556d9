/**
 * Webhooks (issue 40, record 291), over HTTP on the real database with a local receiver: endpoints with
 * `whsec_` secrets, events written with the change (an approval), Standard Webhooks signatures verified with
 * the `standardwebhooks` package, a retry after a 500 with the same `webhook-id`, both secrets signing after
 * a rotation, 410 disabling the endpoint and mailing its owner, redelivery, the SSRF rule, and the v1 scope.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, webhookDeliveries, webhookEndpoints } from '../../db/schema';
import { createTestRelease, createTestUser, signInCookie } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { deliverOnce } from './service';

type Received = { headers: http.IncomingHttpHeaders; body: string };
let system: TestSystem;
let owner: Awaited<ReturnType<TestSystem['signedInUser']>>;
let adminCookie: string;
let receiver: http.Server;
let receiverUrl: string;
const received: Received[] = [];
let answers: number[] = [];

beforeAll(async () => {
  system = await createTestSystem();
  owner = await system.signedInUser({ plan: 'pro', artistName: 'Hook Label' });
  const admin = await createTestUser(system, { roles: ['admin'] });
  adminCookie = await signInCookie(system, admin.email, admin.password);
  receiver = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.statusCode = answers.shift() ?? 200;
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});
afterAll(async () => {
  await new Promise((resolve) => receiver?.close(resolve));
  await system?.close();
});

const addEndpoint = (json: unknown) =>
  system.request('/api/webhooks/endpoints', { method: 'POST', cookie: owner.cookie, json });

/** Runs every pending delivery of the endpoint once, as the job would. */
async function runPending(endpointId: string): Promise<void> {
  const rows = await system.db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.state, 'pending')));
  for (const row of rows) await deliverOnce(system, row.id);
}

const verify = (secret: string, message: Received) =>
  new Webhook(secret).verify(message.body, {
    'webhook-id': String(message.headers['webhook-id']),
    'webhook-timestamp': String(message.headers['webhook-timestamp']),
    'webhook-signature': String(message.headers['webhook-signature']),
  });

describe('webhooks', () => {
  let endpointId: string;
  let secret: string;

  it('sends a signed release.approved when an admin approves, retries a 500 with the same webhook-id', async () => {
    const created = await addEndpoint({ url: receiverUrl, eventTypes: ['release.approved'] });
    expect(created.status).toBe(201);
    const body = await readJson(created);
    endpointId = body.endpoint.id;
    secret = body.secret;
    expect(secret).toMatch(/^whsec_/);
    const { releaseId } = await createTestRelease(system, owner.userId, { status: 'pending', trackCount: 1 });
    const approved = await system.request(`/api/admin/releases/${releaseId}/approve`, {
      method: 'POST',
      cookie: adminCookie,
      json: {},
    });
    expect(approved.status).toBe(200);
    answers = [500];
    await runPending(endpointId);
    const [failedTry] = await system.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpointId));
    expect(failedTry).toMatchObject({ state: 'pending', attempts: 1, lastStatus: 500 });
    expect(failedTry?.nextAttemptAt?.getTime()).toBeGreaterThan(Date.now());
    await runPending(endpointId);
    expect(received).toHaveLength(2);
    const [first, second] = received;
    if (!first || !second) throw new Error('two tries expected');
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(verify(secret, second)).toMatchObject({ type: 'release.approved', data: { releaseId } });
    const log = await readJson(
      await system.request(`/api/webhooks/endpoints/${endpointId}/deliveries`, { cookie: owner.cookie }),
    );
    expect(log.deliveries[0]).toMatchObject({ state: 'succeeded', attempts: 2, lastStatus: 200 });
  });

  it('signs with the old and the new secret for a day after a rotation; redelivers the same message', async () => {
    const rotated = await readJson(
      await system.request(`/api/webhooks/endpoints/${endpointId}/rotate`, {
        method: 'POST',
        cookie: owner.cookie,
      }),
    );
    expect(rotated.secret).not.toBe(secret);
    expect(rotated.endpoint.previousSecretUntil).not.toBeNull();
    received.length = 0;
    const tested = await system.request(`/api/webhooks/endpoints/${endpointId}/test`, {
      method: 'POST',
      cookie: owner.cookie,
    });
    expect(tested.status).toBe(200);
    await runPending(endpointId);
    const [message] = received;
    if (!message) throw new Error('the test event was not received');
    expect(String(message.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(rotated.secret, message)).toMatchObject({ type: 'webhook.test' });
    expect(verify(secret, message)).toMatchObject({ type: 'webhook.test' });
    const log = await readJson(
      await system.request(`/api/webhooks/endpoints/${endpointId}/deliveries`, { cookie: owner.cookie }),
    );
    const again = await system.request(`/api/webhooks/deliveries/${log.deliveries[0].id}/redeliver`, {
      method: 'POST',
      cookie: owner.cookie,
    });
    expect(again.status).toBe(200);
    await runPending(endpointId);
    expect(received[1]?.headers['webhook-id']).toBe(message.headers['webhook-id']);
  });

  it('disables an endpoint that answers 410 and mails its owner', async () => {
    answers = [410];
    await system.request(`/api/webhooks/endpoints/${endpointId}/test`, {
      method: 'POST',
      cookie: owner.cookie,
    });
    await runPending(endpointId);
    const [endpoint] = await system.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, endpointId));
    expect(endpoint?.disabledAt).not.toBeNull();
    const mails = await system.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, owner.email));
    expect(mails.map((mail) => mail.subject)).toContain('A webhook endpoint was disabled');
    const refused = await system.request(`/api/webhooks/endpoints/${endpointId}/test`, {
      method: 'POST',
      cookie: owner.cookie,
    });
    expect(refused.status).toBe(409);
  });

  it('refuses private and loopback targets unless the operator allows them', async () => {
    for (const url of [
      'http://10.1.2.3/hook',
      'http://127.0.0.2/hook',
      'http://[::1]/hook',
      'ftp://example.com/x',
    ]) {
      const refused = await addEndpoint({ url });
      expect(refused.status).toBe(422);
      expect((await readJson(refused)).error.fields.url).toBeTruthy();
    }
  });

  it('is managed through /api/v1 with webhooks:manage only', async () => {
    const make = async (scopes: string[]) =>
      (
        await readJson(
          await system.request('/api/api-keys', {
            method: 'POST',
            cookie: owner.cookie,
            json: { name: 'Hooks', scopes },
          }),
        )
      ).key as string;
    const without = await make(['catalogue:read']);
    const refused = await system.request('/api/v1/webhooks/endpoints', {
      headers: { authorization: `Bearer ${without}` },
    });
    expect(refused.status).toBe(403);
    expect((await readJson(refused)).error.code).toBe('forbidden_scope');
    const withScope = await make(['webhooks:manage']);
    const listed = await system.request('/api/v1/webhooks/endpoints', {
      headers: { authorization: `Bearer ${withScope}` },
    });
    expect(listed.status).toBe(200);
    expect((await readJson(listed)).endpoints.map((e: { id: string }) => e.id)).toContain(endpointId);
  });
});
