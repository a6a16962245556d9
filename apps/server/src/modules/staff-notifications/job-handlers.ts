/** What the staff digest job (jobs.ts) does, loaded when it first runs (record 258). */
import type { Deps } from '../../deps';
import { handleJob } from '../../lib/jobs';
import { sendStaffDigests } from './digest';
import { staffDigestJob } from './jobs';

export const sendStaffDigest = handleJob(staffDigestJob, {
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
