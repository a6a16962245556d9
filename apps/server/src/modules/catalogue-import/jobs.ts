/**
 * The catalogue import as a job (issue 43 finding 12, record 232): the admin page records an import and
 * enqueues this in the same transaction; the run (job-handlers.ts) reads the folder off the request,
 * reports its progress on the import's row and, retried after a crash, resumes from the report
 * (service.ts). After its last retry the import is marked failed with the reason, so the page never
 * shows it running for ever.
 */
import { z } from 'zod';
import { defineJob } from '../../lib/jobs';

export const catalogueImportJob = defineJob({
  name: 'catalogue.import',
  payload: z.object({ importId: z.uuid() }),
  policy: 'stately',
  retry: { limit: 3, delaySeconds: 30, backoff: true },
  // 500 messages with their WAVs copied into storage: well under an hour on the slowest store.
  expireInSeconds: 3600,
});
