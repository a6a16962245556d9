/**
 * Mail: messages are written to the mail_outbox table inside the transaction that causes them, with
 * a `mail.send` job (record 156), and the job delivers them (SMTP when SMTP_URL is set, otherwise .eml files in $DATA_DIR/outbox).
 * No transaction is open while a message is sent (decision 083): a worker claims one row in a single
 * statement (FOR UPDATE SKIP LOCKED, its next attempt pushed out by a lease, so several instances never
 * send one twice and a crashed sender's row comes back when the lease ends), sends it with a
 * timeout, then marks it sent or schedules a retry in another short statement.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client';
import { mailOutbox } from '../../db/schema';
import { readProductName, withProductName } from '../../lib/brand-name';
import { defineJob, enqueue } from '../../lib/jobs';

export type OutgoingMail = { to: string; subject: string; text: string; html?: string };

/**
 * Sends what is due in the outbox (its handler: mail-job.ts). Enqueued with each message, and every minute
 * (once across instances) for the retries a failed send scheduled in its row (2^attempts seconds later).
 */
export const mailSendJob = defineJob({
  name: 'mail.send',
  payload: z.object({}).strict(),
  policy: 'short',
  retry: { limit: 3, delaySeconds: 10, backoff: true },
  concurrency: 1,
  schedule: { cron: '* * * * *', payload: {} },
});

export async function enqueueMail(db: DbOrTx, mail: OutgoingMail): Promise<void> {
  // The templates name the product 'Tunedrop'; the operator's brand renames it (record 328).
  const name = await readProductName(db);
  await db.insert(mailOutbox).values({
    recipient: mail.to,
    subject: withProductName(mail.subject, name),
    textBody: withProductName(mail.text, name),
    htmlBody: mail.html ? withProductName(mail.html, name) : null,
  });
  // One waiting job drains the whole outbox (a `short` queue refuses a second waiting one); a message
  // committed while a run is finishing gets a new job.
  await enqueue(db, mailSendJob, {}, { singletonKey: 'outbox' });
}

export interface MailTransport {
  send(mail: OutgoingMail & { from: string; messageId: string }): Promise<void>;
}

/**
 * Writes each message as one RFC 822 file `<ISO time>-<recipient>.eml`. Its links (sign-in, reset and
 * invitation links are bearer secrets) are logged only when `logLinks` is set: in development, never
 * with NODE_ENV=production (issue 22, record 147).
 */
export function createOutboxTransport(
  dir: string,
  logger: Logger,
  options: { logLinks?: boolean } = {},
): MailTransport {
  const builder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      // Mails carry reset and invitation links: private to the server's user (decision 141).
      await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
      const info = await builder.sendMail({ ...mail, messageId: mail.messageId });
      const message = info.message as Buffer;
      const stamp = new Date().toISOString().replace(/:/g, '-');
      const safeRecipient = mail.to.replace(/[^A-Za-z0-9@._+-]/g, '_');
      const file = path.join(dir, `${stamp}-${safeRecipient}.eml`);
      const tmp = `${file}.tmp`;
      await fsp.writeFile(tmp, message, { mode: 0o600 });
      await fsp.rename(tmp, file);
      const links = options.logLinks ? (mail.text.match(/https?:\/\/\S+/g) ?? []) : undefined;
      logger.info({ to: mail.to, subject: mail.subject, file, links }, 'mail written to outbox');
    },
  };
}

/** SMTP with every wait bounded (connect, greeting, each socket read): a hung server fails the send. */
export function createSmtpTransport(url: string, timeoutMs = 30_000): MailTransport {
  const transport = nodemailer.createTransport({
    url,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    dnsTimeout: timeoutMs,
  });
  return {
    async send(mail) {
      await transport.sendMail({ ...mail, messageId: mail.messageId });
    },
  };
}

const MAX_ATTEMPTS = 8;

export type DeliveryOptions = {
  from: string;
  domain: string;
  batchSize?: number;
  /** The longest one send may take before it counts as failed (SMTP_TIMEOUT_SECONDS); 30 s by default. */
  sendTimeoutMs?: number;
  /**
   * How long a claimed row stays away from other workers: longer than any send, so only a sender
   * that died (a crash, a kill) leaves a row to be picked up again when its lease ends.
   */
  leaseMs?: number;
};

type OutboxRow = typeof mailOutbox.$inferSelect;

class SendTimeout extends Error {}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new SendTimeout(`no answer from the mail server within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Claims the next due message in one statement: its attempt is counted and its next attempt moved a
 * lease ahead, so other workers skip it while it is being sent. Null when nothing is due.
 */
export async function claimNextMail(db: Db, leaseMs: number): Promise<OutboxRow | null> {
  const due = db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.status, 'pending'), lte(mailOutbox.nextAttemptAt, sql`now()`)))
    .orderBy(asc(mailOutbox.nextAttemptAt))
    .limit(1)
    .for('update', { skipLocked: true });
  const [row] = await db
    .update(mailOutbox)
    .set({
      attempts: sql`${mailOutbox.attempts} + 1`,
      nextAttemptAt: sql`now() + (${leaseMs} * interval '1 millisecond')`,
    })
    .where(and(inArray(mailOutbox.id, due), eq(mailOutbox.status, 'pending')))
    .returning();
  return row ?? null;
}

/** Sends every due message once; returns how many were sent. */
export async function deliverPendingMail(
  db: Db,
  transport: MailTransport,
  options: DeliveryOptions,
): Promise<number> {
  const sendTimeoutMs = options.sendTimeoutMs ?? 30_000;
  const from = brandedFrom(options.from, await readProductName(db));
  const leaseMs = options.leaseMs ?? 2 * sendTimeoutMs + 60_000;
  let sent = 0;
  let handled = 0;
  while (handled < (options.batchSize ?? 100)) {
    const row = await claimNextMail(db, leaseMs);
    if (!row) break;
    handled += 1;
    // A row whose senders kept dying (its attempts were counted at each claim) is given up on.
    if (row.attempts > MAX_ATTEMPTS) {
      await db
        .update(mailOutbox)
        .set({ status: 'failed', lastError: row.lastError ?? 'the sender stopped before finishing' })
        .where(eq(mailOutbox.id, row.id));
      continue;
    }
    try {
      // The Message-ID is derived from the row, so a message resent after a crash is recognisably the same one.
      await withTimeout(
        transport.send({
          to: row.recipient,
          subject: row.subject,
          text: row.textBody,
          ...(row.htmlBody ? { html: row.htmlBody } : {}),
          from,
          messageId: `<${row.id}@${options.domain}>`,
        }),
        sendTimeoutMs,
      );
    } catch (error) {
      await db
        .update(mailOutbox)
        .set({
          lastError: error instanceof Error ? error.message : String(error),
          status: row.attempts >= MAX_ATTEMPTS ? 'failed' : 'pending',
          nextAttemptAt: sql`now() + (${2 ** row.attempts} * interval '1 second')`,
        })
        .where(and(eq(mailOutbox.id, row.id), eq(mailOutbox.status, 'pending')));
      continue;
    }
    await db
      .update(mailOutbox)
      .set({ status: 'sent', sentAt: new Date(), lastError: null })
      .where(eq(mailOutbox.id, row.id));
    sent += 1;
  }
  return sent;
}

/**
 * The sender as the recipient sees it (issue 44): the built-in "Tunedrop <...>" names the operator's brand
 * instead; a MAIL_FROM the operator wrote with another name is theirs and stays as it is.
 */
export function brandedFrom(from: string, productName: string): string {
  const match = /^\s*"?Tunedrop"?\s*<([^>]+)>\s*$/.exec(from);
  if (!match || productName === 'Tunedrop') return from;
  return `"${productName.replace(/["\\]/g, '')}" <${match[1]}>`;
}
