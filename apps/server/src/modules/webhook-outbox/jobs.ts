/** Webhooks' background work (record 291): one try of one delivery; its handler is in job-handlers.ts. */
import { z } from 'zod';
import { defineJob } from '../../lib/jobs';

/**
 * Tries one delivery once. The delivery row is the truth: its retries are scheduled by the handler as new
 * jobs (the backoff of RETRY_SECONDS with jitter), so pg-boss's own retry covers only a crashed run.
 */
export const deliverWebhookJob = defineJob({
  name: 'webhooks.deliver',
  payload: z.object({ deliveryId: z.uuid() }),
  policy: 'stately',
  retry: { limit: 2, delaySeconds: 30, backoff: true },
  expireInSeconds: 120,
});
