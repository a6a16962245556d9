/** Staff notifications' background work (record 179): the daily digest. */
import { z } from 'zod';
import type { Deps } from '../../deps';
import { defineJob } from '../../lib/jobs';
import { sendStaffDigests } from './digest';

/** Once a day at 07:00 UTC, once across all instances. */
export const staffDigestJob = defineJob({
  name: 'staff-notifications.digest',
  payload: z.object({}),
  policy: 'singleton',
  retry: { limit: 3, delaySeconds: 300 },
  expireInSeconds: 1800,
  schedule: { cron: '0 7 * * *', payload: {} },
  async run(
    _payload,
    { deps, logger }: { deps: Pick<Deps, 'db' | 'config' | 'wakeMail'>; logger: Deps['logger'] },
  ) {
    const count = await sendStaffDigests(deps.db, deps.config.appUrl);
    if (count > 0) {
      deps.wakeMail();
      logger.info({ count }, 'staff digests written');
    }
  },
});

export const staffNotificationsJobs = [staffDigestJob];
