/** Tax's daily run (issue 38): reminder mails before a W-8 expires; its handler is in job-handlers.ts. */
import { z } from 'zod';
import { defineJob } from '../../lib/jobs';

/** Once a day at 07:00 UTC, once across all instances. */
export const taxRemindersJob = defineJob({
  name: 'tax.w8-reminders',
  payload: z.object({}),
  policy: 'singleton',
  retry: { limit: 3, delaySeconds: 300 },
  expireInSeconds: 1800,
  schedule: { cron: '0 7 * * *', payload: {} },
});
