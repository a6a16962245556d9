/** What tax's daily job (jobs.ts) does, loaded when it first runs (record 258). */
import type { Deps } from '../../deps';
import { handleJob } from '../../lib/jobs';
import { taxRemindersJob } from './jobs';
import { sendW8Reminders } from './reminders';

export const sendW8RemindersDaily = handleJob(taxRemindersJob, {
  async run(
    _payload,
    { deps, logger }: { deps: Pick<Deps, 'db' | 'config' | 'wakeMail'>; logger: Deps['logger'] },
  ) {
    const sent = await sendW8Reminders(deps.db, deps.config.appUrl);
    if (sent > 0) {
      deps.wakeMail();
      logger.info({ sent }, 'W-8 expiry reminders sent');
    }
  },
});
