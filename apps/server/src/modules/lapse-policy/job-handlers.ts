/** What the lapse policy's job (jobs.ts) does, loaded when it first runs (record 258). */
import type { Deps } from '../../deps';
import { handleJob } from '../../lib/jobs';
import { lapsePolicyJob } from './jobs';
import { applyLapsePolicy } from './service';

export const applyLapsePolicyDaily = handleJob(lapsePolicyJob, {
  async run(
    _payload,
    { deps, logger }: { deps: Pick<Deps, 'db' | 'config' | 'wakeMail'>; logger: Deps['logger'] },
  ) {
    const result = await applyLapsePolicy(deps.db, deps.config.appUrl);
    if (result.mails > 0) deps.wakeMail();
    if (result.mails > 0 || result.takedowns > 0) logger.info(result, 'lapse policy applied');
  },
});
