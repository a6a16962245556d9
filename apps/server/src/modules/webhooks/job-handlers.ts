/** What the webhook delivery job (jobs.ts) does, loaded when it first runs (record 258). */
import type { Deps } from '../../deps';
import { handleJob } from '../../lib/jobs';
import { deliverWebhookJob } from '../webhook-outbox';
import { deliverOnce } from './service';

export const deliverWebhook = handleJob(deliverWebhookJob, {
  async run(payload, { deps }: { deps: Pick<Deps, 'db' | 'config'> }) {
    await deliverOnce(deps, payload.deliveryId);
  },
});
