/**
 * Every job of the system, in one place (CONVENTIONS "One jobs module"): each module's `jobs.ts`
 * defines them, this list registers them with the engine (lib/jobs.ts). A composition root, like
 * server.ts: it may import any module.
 */
import { sendMail } from './infra/mail/mail';
import type { AnyJob } from './lib/jobs';
import { builderJobs } from './modules/builder/jobs';
import { deliveryJobs } from './modules/delivery/jobs';
import { lapsePolicyJobs } from './modules/lapse-policy/jobs';
import { royaltiesJobs } from './modules/royalties/jobs';
import { staffNotificationsJobs } from './modules/staff-notifications/jobs';

export const allJobs: readonly AnyJob[] = [
  sendMail,
  ...deliveryJobs,
  ...builderJobs,
  ...royaltiesJobs,
  ...staffNotificationsJobs,
  ...lapsePolicyJobs,
];
