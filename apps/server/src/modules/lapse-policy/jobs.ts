/** The lapse policy's daily run (record 196); its handler is in job-handlers.ts. */
import { z } from 'zod';
import { defineJob } from '../../lib/jobs';

/** Once a day at 06:00 UTC, once across all instances. */
export const lapsePolicyJob = defineJob({
  name: 'lapse-policy.daily',
  payload: z.object({}),
  policy: 'singleton',
  retry: { limit: 3, delaySeconds: 300 },
  expireInSeconds: 1800,
  schedule: { cron: '0 6 * * *', payload: {} },
});
