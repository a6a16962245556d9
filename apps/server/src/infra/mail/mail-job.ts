/** `mail.send`'s handler (its definition: mailSendJob in mail.ts), loaded when the job first runs. */
import type { Db } from '../../db/client';
import { handleJob } from '../../lib/jobs';
import { type DeliveryOptions, deliverPendingMail, type MailTransport, mailSendJob } from './mail';

export type MailJobDeps = { db: Db; mailTransport: MailTransport; mailOptions: DeliveryOptions };

export const sendMail = handleJob(mailSendJob, {
  async run(_payload, { deps }: { deps: MailJobDeps }) {
    await deliverPendingMail(deps.db, deps.mailTransport, deps.mailOptions);
  },
});
