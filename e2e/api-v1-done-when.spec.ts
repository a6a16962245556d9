/**
 * Journey (issue 40, "Done when"): a label's system with a key scoped to its account, through the typed
 * client (@tunedrop/api-client) alone: adds a webhook endpoint (a local receiver; private and other loopback
 * addresses refused), uploads a WAV and a cover with tus, creates the release (a retry with the same
 * Idempotency-Key creates one), and is refused the statements (`forbidden_scope`). An admin approves, the
 * store acknowledges the package, and the receiver gets `delivery.acknowledged` signed per Standard Webhooks;
 * it answers 500 once and the same `webhook-id` comes again. After a rotation both secrets verify; an
 * endpoint answering 410 is disabled and its owner mailed.
 */
import { randomUUID } from 'node:crypto';
import { createTunedropClient, uploadFile } from '@tunedrop/api-client';
import sharp from 'sharp';
import { wavBytes } from './support/builder';
import {
  answer,
  deliverThroughApi,
  retireTarget,
  runWorker,
  storeFolder,
  uniqueName,
  waitForPackage,
} from './support/delivery';
import { e2eEnv } from './support/env';
import { apiAs, expect, outboxMails, seed, signIn, test } from './support/test';
import { type Received, startWebhookReceiver, type WebhookEvent } from './support/webhook-receiver';

test('a key-driven label system: release through the API, signed delivery.acknowledged, retries, rotation, 410', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const receiver = await startWebhookReceiver();
  const { received, answers, verify } = receiver;
  const hookUrl = receiver.url;
  const typeOf = (message: Received) => (JSON.parse(message.body) as WebhookEvent).type;

  // The label's owner makes the key (shown once); the label's system has nothing else.
  const label = await seed.user({ plan: 'pro', artistName: 'Lantern Records' });
  const made = await apiAs(label, 'POST', '/api/api-keys', {
    name: 'Label system',
    scopes: ['catalogue:read', 'catalogue:write', 'releases:submit', 'deliveries:read', 'webhooks:manage'],
  });
  expect(made.status).toBe(201);
  const { key } = made.json as { key: string };
  const api = createTunedropClient({ server: e2eEnv.baseUrl, apiKey: key });

  // No statements:read: refused with the closed code.
  const statements = await api.GET('/royalties/statements');
  expect(statements.response.status).toBe(403);
  expect(statements.error?.error.code).toBe('forbidden_scope');

  // Webhook endpoints: a private address and a loopback one the operator did not allow are refused.
  for (const url of ['http://10.1.2.3/hooks', 'http://127.0.0.2/hooks']) {
    const refused = await api.POST('/webhooks/endpoints', { body: { url } });
    expect(refused.response.status, url).toBe(422);
    expect(refused.error?.error.code).toBe('validation_error');
  }
  const endpoint = await api.POST('/webhooks/endpoints', {
    body: { url: hookUrl, eventTypes: ['delivery.acknowledged', 'webhook.test'] },
  });
  expect(endpoint.response.status).toBe(201);
  const { endpoint: created, secret } = endpoint.data as { endpoint: { id: string }; secret: string };
  expect(secret).toMatch(/^whsec_/);

  // The files through tus, then the release; the POST retried with its Idempotency-Key makes one release.
  const cover = await uploadFile(api, {
    kind: 'cover',
    filename: 'Lantern cover.png',
    bytes: await sharp({
      create: { width: 3000, height: 3000, channels: 3, background: { r: 200, g: 120, b: 30 } },
    })
      .png()
      .toBuffer(),
  });
  const audio = await uploadFile(api, {
    kind: 'audio',
    filename: 'Paper Moon.wav',
    bytes: wavBytes(2),
    chunkBytes: 128 * 1024,
  });
  const checked = await api.GET('/builder/uploads/{id}', { params: { path: { id: audio.uploadId } } });
  expect(checked.response.status).toBe(200);
  const year = new Date().getFullYear();
  const title = uniqueName('Paper Lanterns');
  const submissionKey = `lantern-${randomUUID()}`;
  const submit = () =>
    api.POST('/builder/releases', {
      headers: { 'Idempotency-Key': submissionKey },
      body: {
        idempotencyKey: submissionKey,
        platforms: ['spotify', 'apple_music'],
        release: {
          title,
          genre: 'Electronic',
          releaseDate: `${year + 1}-04-01`,
          coverUploadId: cover.uploadId,
          copyrightHolder: 'Lantern Records',
          publishingHolder: 'Lantern Records',
          copyrightYear: year,
          publishingYear: year,
        },
        tracks: [
          {
            title: 'Paper Moon',
            audioUploadId: audio.uploadId,
            explicit: false,
            primaryArtists: [{ name: 'Lantern Records' }],
            featuredArtists: [],
            songwriters: [{ firstName: 'Ada', lastName: 'Lamp', role: 'music_and_lyrics' }],
            producers: [{ firstName: 'Max', lastName: 'Wick' }],
            aiDisclosure: { usage: 'none' },
          },
        ],
      },
    });
  const first = await submit();
  expect(first.response.status, JSON.stringify(first.error)).toBe(201);
  const releaseId = (first.data as { release: { id: string } }).release.id;
  const retried = await submit();
  expect(retried.response.status).toBe(201);
  expect(retried.response.headers.get('idempotent-replayed')).toBe('true');
  expect((retried.data as { release: { id: string } }).release.id).toBe(releaseId);
  const listed = await api.GET('/releases', { params: { query: { limit: 50 } } });
  expect(listed.data?.items.filter((item) => item.title === title)).toHaveLength(1);

  // An admin approves; the store gets the package and acknowledges it. The receiver answers 500 once.
  const admin = await seed.user({ roles: ['admin'] });
  const adminContext = await browser.newContext({ baseURL: e2eEnv.baseUrl });
  await signIn(adminContext, admin);
  const store = storeFolder();
  const { targetId } = await deliverThroughApi(adminContext.request, {
    store,
    platforms: ['spotify', 'apple_music'],
    releaseId,
    targetName: uniqueName('Lantern Store'),
  });
  await runWorker();
  const delivered = await waitForPackage(store.dir, (item) => item.xml.includes(title));
  answers.push(500);
  await answer(delivered, { isAccepted: true });
  await expect.poll(() => received.length, { timeout: 90_000 }).toBeGreaterThanOrEqual(2);
  const [firstTry, secondTry] = received;
  if (!firstTry || !secondTry) throw new Error('two tries expected');
  expect(secondTry.headers['webhook-id']).toBe(firstTry.headers['webhook-id']);
  const acknowledged = verify(secret, secondTry);
  expect(acknowledged).toMatchObject({
    type: 'delivery.acknowledged',
    data: { releaseId, targetId, messageId: expect.any(String), upc: delivered.upc },
  });
  const stores = await api.GET('/releases/{id}/detail', { params: { path: { id: releaseId } } });
  expect(stores.response.status).toBe(200);
  const log = await api.GET('/webhooks/endpoints/{id}/deliveries', {
    params: { path: { id: created.id } },
  });
  expect(JSON.stringify(log.data)).toContain('delivery.acknowledged');

  // Rotation: for a day the old and the new secret both sign.
  const rotated = await api.POST('/webhooks/endpoints/{id}/rotate', { params: { path: { id: created.id } } });
  expect(rotated.response.status).toBe(200);
  const newSecret = (rotated.data as { secret: string }).secret;
  expect(newSecret).not.toBe(secret);
  received.length = 0;
  await api.POST('/webhooks/endpoints/{id}/test', { params: { path: { id: created.id } } });
  await expect.poll(() => received.length, { timeout: 30_000 }).toBe(1);
  const tested = received[0] as Received;
  expect(typeOf(tested)).toBe('webhook.test');
  expect(String(tested.headers['webhook-signature']).split(' ')).toHaveLength(2);
  expect(verify(newSecret, tested).type).toBe('webhook.test');
  expect(verify(secret, tested).type).toBe('webhook.test');

  // 410 Gone: the endpoint is disabled and the label's owner mailed.
  answers.push(410);
  await api.POST('/webhooks/endpoints/{id}/test', { params: { path: { id: created.id } } });
  await expect
    .poll(
      async () => {
        const { data } = await api.GET('/webhooks/endpoints');
        const found = (data as { endpoints: { id: string; disabledAt: string | null }[] }).endpoints.find(
          (item) => item.id === created.id,
        );
        return found?.disabledAt ?? null;
      },
      { timeout: 30_000 },
    )
    .not.toBeNull();
  await expect
    .poll(
      async () => (await outboxMails(label.email)).some((mail) => mail.text.includes('answered 410 Gone')),
      {
        timeout: 30_000,
      },
    )
    .toBe(true);

  await retireTarget(adminContext.request, targetId);
  await adminContext.close();
  store.remove();
  await receiver.close();
});
