/** Contract reserves' daily release (record 287); its handler is in job-handlers.ts. */
import { z } from 'zod';
import { defineJob } from '../../lib/jobs';

/** Every day at 00:15 UTC, once across all instances: the parts due this month are released on its first day. */
export const releaseReservesJob = defineJob({
  name: 'contracts.release-reserves',
  payload: z.object({}),
  policy: 'singleton',
  retry: { limit: 3, delaySeconds: 300 },
  expireInSeconds: 1800,
  schedule: { cron: '15 0 * * *', payload: {} },
});
