/** What the payout jobs (jobs.ts) do, loaded when they first run (record 258). */
import type { Deps } from '../../deps';
import { handleJob } from '../../lib/jobs';
import { pollPayoutsJob, schedulePayoutRunJob, sendPayoutRunJob } from './jobs';
import { pollSentPayouts } from './provider-events';
import { recordSendError, sendPayoutRun } from './run-send';
import { runScheduledPayouts } from './schedule';
import { pollSentWisePayouts } from './wise-events';

type PayoutJobDeps = Pick<Deps, 'db' | 'config' | 'wakeMail' | 'logger'>;

export const sendPayoutRunHandler = handleJob(sendPayoutRunJob, {
  async run({ runId }, { deps }: { deps: PayoutJobDeps }) {
    let result: Awaited<ReturnType<typeof sendPayoutRun>>;
    try {
      result = await sendPayoutRun(deps.db, deps.config.appSecret, runId);
    } catch (error) {
      // Shown on the admin's run page; the job's retry (or the admin's resume) sends it again.
      await recordSendError(deps.db, runId, error);
      throw error;
    } finally {
      deps.wakeMail();
    }
    deps.logger.info({ runId, ...result }, 'payout run sent');
  },
});

export const schedulePayoutRunHandler = handleJob(schedulePayoutRunJob, {
  async run(_payload, { deps }: { deps: PayoutJobDeps }) {
    const started = await runScheduledPayouts(deps.db, {
      actor: { id: null, email: 'system:payout-schedule' },
    });
    if (started) deps.logger.info({ runId: started }, 'scheduled payout run planned');
  },
});

export const pollPayoutsHandler = handleJob(pollPayoutsJob, {
  async run(_payload, { deps }: { deps: PayoutJobDeps }) {
    const paypal = await pollSentPayouts(deps.db, deps.config.appSecret);
    const wise = await pollSentWisePayouts(deps.db, deps.config.appSecret);
    const result = {
      runs: paypal.runs + wise.runs,
      applied: paypal.applied + wise.applied,
      failed: [...paypal.failed, ...wise.failed],
    };
    deps.wakeMail();
    if (result.failed.length > 0) deps.logger.warn({ failed: result.failed }, 'payout polling failed');
    if (result.applied > 0) deps.logger.info(result, 'payouts polled');
  },
});
