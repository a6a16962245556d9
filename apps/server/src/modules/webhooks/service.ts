/**
 * Webhook endpoints and their delivery log (issue 40, record 291): made, rotated, tested and removed by the
 * account's owner or a team admin; `deliverOnce` is one try of one delivery with its retry schedule.
 */
import {
  type CreateWebhookEndpointInput,
  createWebhookEndpointSchema,
  WEBHOOK_TEXTS,
  type WebhookDeliveryView,
  type WebhookEndpointView,
  type WebhookEventType,
} from '@tunedrop/shared/schemas/webhooks';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { user, webhookDeliveries, webhookEndpoints, webhookMessages } from '../../db/schema';
import type { Deps } from '../../deps';
import { enqueueMail } from '../../infra/mail/mail';
import type { Viewer } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { enqueue } from '../../lib/jobs';
import { deliverWebhookJob, emitWebhookEvent } from '../webhook-outbox';
import { assertEndpointUrl, postWebhook } from './sender';
import { newSecret, signatureHeader, signingSecrets } from './signing';

/** Seconds before each retry: about three days in all (Standard Webhooks' schedule, stretched). */
export const RETRY_SECONDS = [5, 300, 1800, 7200, 18_000, 36_000, 36_000, 72_000, 86_400] as const;
const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

type EndpointRow = typeof webhookEndpoints.$inferSelect;
const endpointView = (row: EndpointRow): WebhookEndpointView => ({
  id: row.id,
  url: row.url,
  description: row.description,
  eventTypes: row.eventTypes as WebhookEventType[],
  createdAt: row.createdAt.toISOString(),
  disabledAt: row.disabledAt?.toISOString() ?? null,
  disabledReason: row.disabledReason,
  previousSecretUntil:
    row.previousSecretUntil && row.previousSecretUntil.getTime() > Date.now()
      ? row.previousSecretUntil.toISOString()
      : null,
});

const notFoundEndpoint = () => new AppError('not_found', WEBHOOK_TEXTS.notFound, 404);

export async function listEndpoints(db: Db, accountId: string): Promise<WebhookEndpointView[]> {
  const rows = await db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.accountId, accountId))
    .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id));
  return rows.map(endpointView);
}

async function ownEndpoint(db: Db, accountId: string, id: string): Promise<EndpointRow> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.accountId, accountId)));
  if (!row) throw notFoundEndpoint();
  return row;
}

export async function createEndpoint(
  deps: Pick<Deps, 'db' | 'config'>,
  viewer: Viewer,
  input: CreateWebhookEndpointInput,
): Promise<{ endpoint: WebhookEndpointView; secret: string }> {
  const parsed = createWebhookEndpointSchema.parse(input);
  await assertEndpointUrl(deps.config, parsed.url);
  const secret = newSecret();
  const [row] = await deps.db
    .insert(webhookEndpoints)
    .values({
      accountId: viewer.account.id,
      createdBy: viewer.user.id,
      url: parsed.url,
      description: parsed.description,
      eventTypes: [...new Set(parsed.eventTypes)],
      secret,
    })
    .returning();
  if (!row) throw new Error('The endpoint was not stored.');
  return { endpoint: endpointView(row), secret };
}

export async function removeEndpoint(db: Db, accountId: string, id: string): Promise<void> {
  await ownEndpoint(db, accountId, id);
  await db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id));
}

/** A new secret; the previous one goes on signing for 24 hours beside it, so receivers can switch. */
export async function rotateSecret(
  db: Db,
  accountId: string,
  id: string,
): Promise<{ endpoint: WebhookEndpointView; secret: string }> {
  const current = await ownEndpoint(db, accountId, id);
  const secret = newSecret();
  const [row] = await db
    .update(webhookEndpoints)
    .set({
      secret,
      previousSecret: current.secret,
      previousSecretUntil: new Date(Date.now() + ROTATION_OVERLAP_MS),
    })
    .where(eq(webhookEndpoints.id, id))
    .returning();
  if (!row) throw notFoundEndpoint();
  return { endpoint: endpointView(row), secret };
}

export async function listDeliveries(
  db: Db,
  accountId: string,
  endpointId: string,
): Promise<WebhookDeliveryView[]> {
  await ownEndpoint(db, accountId, endpointId);
  const rows = await db
    .select({ delivery: webhookDeliveries, eventType: webhookMessages.eventType })
    .from(webhookDeliveries)
    .innerJoin(webhookMessages, eq(webhookMessages.id, webhookDeliveries.messageId))
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(100);
  return rows.map(({ delivery, eventType }) => ({
    id: delivery.id,
    messageId: delivery.messageId,
    eventType,
    state: delivery.state,
    attempts: delivery.attempts,
    lastStatus: delivery.lastStatus,
    lastError: delivery.lastError,
    lastAttemptAt: delivery.lastAttemptAt?.toISOString() ?? null,
    nextAttemptAt: delivery.state === 'pending' ? (delivery.nextAttemptAt?.toISOString() ?? null) : null,
    createdAt: delivery.createdAt.toISOString(),
  }));
}

/** The test event, to this endpoint only. */
export async function sendTestEvent(db: Db, accountId: string, endpointId: string): Promise<void> {
  const endpoint = await ownEndpoint(db, accountId, endpointId);
  if (endpoint.disabledAt) throw new AppError('endpoint_disabled', WEBHOOK_TEXTS.disabled, 409);
  await db.transaction((tx) =>
    emitWebhookEvent(tx, accountId, 'webhook.test', { endpointId }, { endpointId }),
  );
}

/** Sends a delivery's message again (same `webhook-id`) as a new delivery in the log. */
export async function redeliver(db: Db, accountId: string, deliveryId: string): Promise<string> {
  const [found] = await db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookEndpoints.accountId, accountId)));
  if (!found) throw new AppError('not_found', WEBHOOK_TEXTS.deliveryNotFound, 404);
  if (found.endpoint.disabledAt) throw new AppError('endpoint_disabled', WEBHOOK_TEXTS.disabled, 409);
  await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(webhookDeliveries)
      .values({
        messageId: found.delivery.messageId,
        endpointId: found.endpoint.id,
        nextAttemptAt: new Date(),
      })
      .returning({ id: webhookDeliveries.id });
    if (row) await enqueue(tx, deliverWebhookJob, { deliveryId: row.id }, { singletonKey: row.id });
  });
  return found.endpoint.id;
}

const withJitter = (seconds: number) => Math.round(seconds * (0.8 + Math.random() * 0.4));

/**
 * One try of one delivery: signed with every secret that signs now, sent, and the answer recorded. 2xx:
 * succeeded. 410: the endpoint is disabled and its owner mailed. Anything else: retried after the next
 * delay of RETRY_SECONDS (with ±20% jitter), failed once they are used up.
 */
export async function deliverOnce(deps: Pick<Deps, 'db' | 'config'>, deliveryId: string): Promise<void> {
  const [found] = await deps.db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints, message: webhookMessages })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(webhookMessages, eq(webhookMessages.id, webhookDeliveries.messageId))
    .where(eq(webhookDeliveries.id, deliveryId));
  if (found?.delivery.state !== 'pending') return;
  const { endpoint, message } = found;
  if (endpoint.disabledAt) {
    await deps.db
      .update(webhookDeliveries)
      .set({ state: 'failed', lastError: WEBHOOK_TEXTS.disabled })
      .where(eq(webhookDeliveries.id, deliveryId));
    return;
  }
  const body = JSON.stringify(message.payload);
  const at = new Date();
  const result = await postWebhook(
    deps.config,
    endpoint.url,
    {
      'content-type': 'application/json',
      'user-agent': 'Tunedrop-Webhooks/1',
      'webhook-id': message.id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signatureHeader(signingSecrets(endpoint), message.id, at, body),
    },
    body,
  );
  const status = 'status' in result ? result.status : null;
  const isSuccess = status !== null && status >= 200 && status < 300;
  const isGone = status === 410;
  const attempts = found.delivery.attempts + 1;
  const delay = RETRY_SECONDS[attempts - 1];
  const willRetry = !isSuccess && !isGone && delay !== undefined;
  const nextAttemptAt = willRetry ? new Date(Date.now() + withJitter(delay) * 1000) : null;
  const lastError = isSuccess
    ? null
    : 'error' in result
      ? result.error
      : `HTTP ${status}: ${result.body.slice(0, 200)}`;
  await deps.db.transaction(async (tx) => {
    await tx
      .update(webhookDeliveries)
      .set({
        state: isSuccess ? 'succeeded' : willRetry ? 'pending' : 'failed',
        attempts,
        lastStatus: status,
        lastError,
        lastAttemptAt: at,
        nextAttemptAt,
      })
      .where(eq(webhookDeliveries.id, deliveryId));
    if (willRetry && nextAttemptAt)
      await enqueue(
        tx,
        deliverWebhookJob,
        { deliveryId },
        { singletonKey: deliveryId, startAfter: nextAttemptAt },
      );
    if (isGone) await disableGone(tx, endpoint);
  });
}

/** 410 Gone: the receiver says the endpoint is no more; it is disabled and its account's owner told. */
async function disableGone(tx: Parameters<Parameters<Db['transaction']>[0]>[0], endpoint: EndpointRow) {
  const [disabled] = await tx
    .update(webhookEndpoints)
    .set({ disabledAt: sql`now()`, disabledReason: 'The endpoint answered 410 Gone.' })
    .where(and(eq(webhookEndpoints.id, endpoint.id), sql`${webhookEndpoints.disabledAt} is null`))
    .returning({ id: webhookEndpoints.id });
  if (!disabled) return;
  const [owner] = await tx.select({ email: user.email }).from(user).where(eq(user.id, endpoint.accountId));
  if (!owner) return;
  await enqueueMail(tx, {
    to: owner.email,
    subject: WEBHOOK_TEXTS.goneSubject,
    text: [
      `Your webhook endpoint ${endpoint.url} answered 410 Gone, so Tunedrop disabled it and sends it no more events.`,
      'To receive events again, add the endpoint anew on the Webhooks page.',
    ].join('\n\n'),
  });
}
