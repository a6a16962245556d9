/** What the reserves' release job (jobs.ts) does, loaded when it first runs (record 258). */
import type { Deps } from '../../deps';
import { handleJob } from '../../lib/jobs';
import { releaseReservesJob } from './jobs';
import { releaseDueReserves } from './reserves';

export const releaseReservesDaily = handleJob(releaseReservesJob, {
  async run(_payload, { deps, logger }: { deps: Pick<Deps, 'db'>; logger: Deps['logger'] }) {
    const result = await releaseDueReserves(deps.db);
    if (result.parts > 0) logger.info(result, 'contract reserves released');
  },
});
