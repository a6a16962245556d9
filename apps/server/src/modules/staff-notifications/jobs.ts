/** Staff notifications' background work (record 179): the daily digest; its handler is in job-handlers.ts. */
import { z } from 'zod';
import { defineJob } from '../../lib/jobs';

/** Once a day at 07:00 UTC, once across all instances. */
export const staffDigestJob = defineJob({
  name: 'staff-notifications.digest',
  payload: z.object({}),
  policy: 'singleton',
  retry: { limit: 3, delaySeconds: 300 },
  expireInSeconds: 1800,
  schedule: { cron: '0 7 * * *', payload: {} },
});
