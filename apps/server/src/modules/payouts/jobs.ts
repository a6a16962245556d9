/** Payout jobs (issue 38; handlers in job-handlers.ts): send a run's batches, and the monthly schedule. */
import { z } from 'zod';
import { defineJob } from '../../lib/jobs';

/** Sends a planned run to its providers; safe to run again (each step reads the run's rows first). */
export const sendPayoutRunJob = defineJob({
  name: 'payouts.send',
  payload: z.object({ runId: z.uuid() }),
  policy: 'stately',
  retry: { limit: 3, delaySeconds: 30, backoff: true },
  expireInSeconds: 900,
});

/**
 * Every five minutes: on (or after) the operator's day of the month, plans that month's run once; in the
 * `immediate` withdrawal mode, runs the accounts whose withdrawal requests wait.
 */
export const schedulePayoutRunJob = defineJob({
  name: 'payouts.schedule',
  payload: z.object({}),
  policy: 'singleton',
  retry: { limit: 3, delaySeconds: 300 },
  expireInSeconds: 900,
  schedule: { cron: '*/5 * * * *', payload: {} },
});

/**
 * Every thirty minutes: PayPal's word on each payout still on its way (sent), read by polling its batches,
 * beside the webhooks; an item unclaimed 30 days after it was sent is returned to the payee's balance once.
 */
export const pollPayoutsJob = defineJob({
  name: 'payouts.poll',
  payload: z.object({}),
  policy: 'singleton',
  retry: { limit: 2, delaySeconds: 300 },
  expireInSeconds: 900,
  schedule: { cron: '*/30 * * * *', payload: {} },
});
