/**
 * The import job (issue 24, decision records 161 and 162), defined here: service.ts enqueues it (the upload
 * and the CLI's --no-wait); what it does is in job-handlers.ts, loaded when it first runs (record 258). It
 * is the one way a report is read and staged.
 */
import { z } from 'zod';
import { defineJob } from '../../lib/jobs';

/**
 * Reads and stages one uploaded report. One run per import at a time (stately, keyed by the import); a
 * run killed mid-way is expired and retried, and resumes after the lines already staged.
 */
export const importJob = defineJob({
  name: 'royalties.import',
  payload: z.object({ importId: z.uuid() }),
  policy: 'stately',
  retry: { limit: 5, delaySeconds: 5, backoff: true },
  // A million lines stage in about two minutes on PostgreSQL; a run past this is presumed dead.
  expireInSeconds: 600,
});
