/** The lapse policy's daily run (record 196). */
import { z } from 'zod';
import type { Deps } from '../../deps';
import { defineJob } from '../../lib/jobs';
import { applyLapsePolicy } from './service';

/** Once a day at 06:00 UTC, once across all instances. */
export const lapsePolicyJob = defineJob({
  name: 'lapse-policy.daily',
  payload: z.object({}),
  policy: 'singleton',
  retry: { limit: 3, delaySeconds: 300 },
  expireInSeconds: 1800,
  schedule: { cron: '0 6 * * *', payload: {} },
  async run(
    _payload,
    { deps, logger }: { deps: Pick<Deps, 'db' | 'config' | 'wakeMail'>; logger: Deps['logger'] },
  ) {
    const result = await applyLapsePolicy(deps.db, deps.config.appUrl);
    if (result.mails > 0) deps.wakeMail();
    if (result.mails > 0 || result.takedowns > 0) logger.info(result, 'lapse policy applied');
  },
});

export const lapsePolicyJobs = [lapsePolicyJob];
