/** Builder's background work as a job (issue 24, record 156). */
import { z } from 'zod';
import type { Deps } from '../../deps';
import { defineJob } from '../../lib/jobs';
import { cleanUpStaleUploads } from './cleanup';

/** Abandoned uploads and leftover files, hourly, once across all instances. */
export const cleanUpUploads = defineJob({
  name: 'builder.cleanup',
  payload: z.object({}),
  policy: 'singleton',
  retry: { limit: 1, delaySeconds: 300 },
  expireInSeconds: 3600,
  schedule: { cron: '17 * * * *', payload: {} },
  async run(
    _payload,
    { deps, logger }: { deps: Pick<Deps, 'db' | 'config' | 'storage' | 'logger'>; logger: Deps['logger'] },
  ) {
    const count = await cleanUpStaleUploads(deps);
    if (count > 0) logger.info({ count }, 'removed abandoned uploads');
  },
});

export const builderJobs = [cleanUpUploads];
