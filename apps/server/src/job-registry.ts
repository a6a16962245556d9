/**
 * Every job of the system, in one place (CONVENTIONS "One jobs module"): each module's `jobs.ts` defines
 * them (name, payload, retries), its `job-handlers.ts` says what they do, and this list pairs the two for
 * the engine (lib/jobs.ts). A handler's module is imported when its job first runs (record 258), so the
 * web role never loads one. A composition root, like server.ts: it may import any module.
 */
import { mailSendJob } from './infra/mail/mail';
import type { AnyJob } from './lib/jobs';
import { withHandler } from './lib/jobs';
import { cleanUpUploadsJob } from './modules/builder/jobs';
import { catalogueImportJob } from './modules/catalogue-import/jobs';
import { releaseReservesJob } from './modules/contracts/jobs';
import {
  pollAcksJob,
  promoteDueReleasesJob,
  sendDeliveryJob,
  sweepDeliveriesJob,
} from './modules/delivery/jobs';
import { lapsePolicyJob } from './modules/lapse-policy/jobs';
import { pollPayoutsJob, schedulePayoutRunJob, sendPayoutRunJob } from './modules/payouts/jobs';
import { importJob } from './modules/royalty-imports/jobs';
import { postJob } from './modules/royalty-posting';
import { staffDigestJob } from './modules/staff-notifications/jobs';
import { taxRemindersJob } from './modules/tax/jobs';
import { deliverWebhookJob } from './modules/webhook-outbox/jobs';

const delivery = () => import('./modules/delivery/job-handlers');
const royaltyPosting = () => import('./modules/royalty-posting/job-handlers');
const payouts = () => import('./modules/payouts/job-handlers');

export const allJobs: readonly AnyJob[] = [
  withHandler(mailSendJob, async () => (await import('./infra/mail/mail-job')).sendMail),
  withHandler(
    deliverWebhookJob,
    async () => (await import('./modules/webhooks/job-handlers')).deliverWebhook,
  ),
  withHandler(sendDeliveryJob, async () => (await delivery()).sendDelivery),
  withHandler(sweepDeliveriesJob, async () => (await delivery()).sweepDeliveries),
  withHandler(pollAcksJob, async () => (await delivery()).pollAcks),
  withHandler(promoteDueReleasesJob, async () => (await delivery()).promoteDueReleases),
  withHandler(cleanUpUploadsJob, async () => (await import('./modules/builder/job-handlers')).cleanUpUploads),
  withHandler(importJob, async () => (await import('./modules/royalty-imports/job-handlers')).stageImport),
  withHandler(postJob, async () => (await royaltyPosting()).postImport),
  withHandler(
    staffDigestJob,
    async () => (await import('./modules/staff-notifications/job-handlers')).sendStaffDigest,
  ),
  withHandler(
    lapsePolicyJob,
    async () => (await import('./modules/lapse-policy/job-handlers')).applyLapsePolicyDaily,
  ),
  withHandler(
    releaseReservesJob,
    async () => (await import('./modules/contracts/job-handlers')).releaseReservesDaily,
  ),
  withHandler(sendPayoutRunJob, async () => (await payouts()).sendPayoutRunHandler),
  withHandler(schedulePayoutRunJob, async () => (await payouts()).schedulePayoutRunHandler),
  withHandler(pollPayoutsJob, async () => (await payouts()).pollPayoutsHandler),
  withHandler(taxRemindersJob, async () => (await import('./modules/tax/job-handlers')).sendW8RemindersDaily),
  withHandler(
    catalogueImportJob,
    async () => (await import('./modules/catalogue-import/job-handlers')).runCatalogueImportJob,
  ),
];
