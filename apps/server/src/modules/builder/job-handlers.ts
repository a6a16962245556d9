/** What builder's jobs (jobs.ts) do, loaded when a job first runs (record 258). */
import type { Deps } from '../../deps';
import { handleJob } from '../../lib/jobs';
import { cleanUpStaleUploads } from './cleanup';
import { cleanUpUploadsJob } from './jobs';

export const cleanUpUploads = handleJob(cleanUpUploadsJob, {
  async run(
    _payload,
    { deps, logger }: { deps: Pick<Deps, 'db' | 'config' | 'storage' | 'logger'>; logger: Deps['logger'] },
  ) {
    const count = await cleanUpStaleUploads(deps);
    if (count > 0) logger.info({ count }, 'removed abandoned uploads');
  },
});
