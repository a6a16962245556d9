/**
 * The posting job (issue 24, decision records 161 and 162), defined here: posting.ts and import-retry.ts
 * enqueue it; what it does is in job-handlers.ts, loaded when it first runs (record 258). The import job
 * is royalty-imports'.
 */
import { z } from 'zod';
import { defineJob } from '../../lib/jobs';

export type PostPayload = { importId: string; admin: { id: string; email: string } | null };

/** Posts one claimed import in chunks, then credits the artists in one short transaction. */
export const postJob = defineJob<PostPayload>({
  name: 'royalties.post',
  payload: z.object({
    importId: z.uuid(),
    admin: z.object({ id: z.string(), email: z.string() }).nullable(),
  }),
  policy: 'stately',
  retry: { limit: 5, delaySeconds: 5, backoff: true },
  expireInSeconds: 600,
});
