/** Builder's background work as a job (issue 24, record 156); its handler is in job-handlers.ts. */
import { z } from 'zod';
import { defineJob } from '../../lib/jobs';

/** Abandoned uploads and leftover files, hourly, once across all instances. */
export const cleanUpUploadsJob = defineJob({
  name: 'builder.cleanup',
  payload: z.object({}),
  policy: 'singleton',
  retry: { limit: 1, delaySeconds: 300 },
  expireInSeconds: 3600,
  schedule: { cron: '17 * * * *', payload: {} },
});
