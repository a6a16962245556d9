/**
 * Mail: messages are written to the mail_outbox table inside the transaction that causes them,
 * and a worker delivers them (SMTP when SMTP_URL is set, otherwise .eml files in $DATA_DIR/outbox).
 * Workers claim rows with FOR UPDATE SKIP LOCKED, so several instances never send one twice.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { and, asc, eq, lte, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import type { Db, DbOrTx } from '../../db/client';
import { mailOutbox } from '../../db/schema';

export type OutgoingMail = { to: string; subject: string; text: string; html?: string };

export async function enqueueMail(db: DbOrTx, mail: OutgoingMail): Promise<void> {
  await db.insert(mailOutbox).values({
    recipient: mail.to,
    subject: mail.subject,
    textBody: mail.text,
    htmlBody: mail.html ?? null,
  });
}

export interface MailTransport {
  send(mail: OutgoingMail & { from: string; messageId: string }): Promise<void>;
}

/** Writes each message as one RFC 822 file `<ISO time>-<recipient>.eml` and logs its links. */
export function createOutboxTransport(dir: string, logger: Logger): MailTransport {
  const builder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      await fsp.mkdir(dir, { recursive: true });
      const info = await builder.sendMail({ ...mail, messageId: mail.messageId });
      const message = info.message as Buffer;
      const stamp = new Date().toISOString().replace(/:/g, '-');
      const safeRecipient = mail.to.replace(/[^A-Za-z0-9@._+-]/g, '_');
      const file = path.join(dir, `${stamp}-${safeRecipient}.eml`);
      const tmp = `${file}.tmp`;
      await fsp.writeFile(tmp, message);
      await fsp.rename(tmp, file);
      const links = mail.text.match(/https?:\/\/\S+/g) ?? [];
      logger.info({ to: mail.to, subject: mail.subject, file, links }, 'mail written to outbox');
    },
  };
}

export function createSmtpTransport(url: string): MailTransport {
  const transport = nodemailer.createTransport(url);
  return {
    async send(mail) {
      await transport.sendMail({ ...mail, messageId: mail.messageId });
    },
  };
}

const MAX_ATTEMPTS = 8;

/** Sends every due message once; returns how many were sent. */
export async function deliverPendingMail(
  db: Db,
  transport: MailTransport,
  options: { from: string; domain: string; batchSize?: number },
): Promise<number> {
  let sent = 0;
  for (;;) {
    const delivered = await db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.status, 'pending'), lte(mailOutbox.nextAttemptAt, new Date())))
        .orderBy(asc(mailOutbox.nextAttemptAt))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!row) return false;
      try {
        // The Message-ID is derived from the row, so a message resent after a crash is recognisably the same one.
        await transport.send({
          to: row.recipient,
          subject: row.subject,
          text: row.textBody,
          ...(row.htmlBody ? { html: row.htmlBody } : {}),
          from: options.from,
          messageId: `<${row.id}@${options.domain}>`,
        });
        await tx
          .update(mailOutbox)
          .set({ status: 'sent', sentAt: new Date(), attempts: row.attempts + 1 })
          .where(eq(mailOutbox.id, row.id));
        sent += 1;
      } catch (error) {
        const attempts = row.attempts + 1;
        await tx
          .update(mailOutbox)
          .set({
            attempts,
            lastError: error instanceof Error ? error.message : String(error),
            status: attempts >= MAX_ATTEMPTS ? 'failed' : 'pending',
            nextAttemptAt: sql`now() + (${2 ** attempts} * interval '1 second')`,
          })
          .where(eq(mailOutbox.id, row.id));
      }
      return true;
    });
    if (!delivered || sent >= (options.batchSize ?? 100)) return sent;
  }
}

/** Polls the outbox until stopped; `wake()` makes it look at once (used right after enqueueing). */
export function startMailWorker(
  db: Db,
  transport: MailTransport,
  options: { from: string; domain: string; logger: Logger; intervalMs?: number },
) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const tick = () => {
    if (stopped || running) return;
    running = deliverPendingMail(db, transport, options)
      .then(() => undefined)
      .catch((error: unknown) => options.logger.error({ err: error }, 'mail delivery failed'))
      .finally(() => {
        running = undefined;
        if (!stopped) timer = setTimeout(tick, options.intervalMs ?? 1000);
      });
  };
  timer = setTimeout(tick, 0);
  return {
    wake() {
      if (timer) clearTimeout(timer);
      tick();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
