/**
 * A change of payout details confirmed by email (issue 38, record 314). The new details wait in
 * payout_detail_changes and the owner is mailed a single-use link (its token kept as a SHA-256 only); the
 * details in force (or none) stay until the owner opens it, signed in, and the hold (record 229) starts then.
 * Only the owner's very first details, set by the owner, take effect at once: no destination changes.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  maskEmail,
  PAYOUT_CONFIRM_ERRORS,
  PAYOUT_CONFIRM_LINK_HOURS,
  PAYOUT_CONFIRM_RESEND_SECONDS,
  PAYOUT_CONFIRM_TEXTS,
  type PendingPayoutDetails,
  payoutResendTooSoon,
} from '@tunedrop/shared/schemas/payout-details';
import {
  describeMaskedDetails,
  holdTime,
  type MaskedPaymentDetails,
  maskPaymentDetails,
} from '@tunedrop/shared/schemas/wallet';
import { eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { payoutDetailChanges, profiles } from '../../db/schema';
import { enqueueMail } from '../../infra/mail/mail';
import type { Viewer } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { recordAudit } from '../audit';
import { lockProfile } from './balance';
import { decryptPaymentDetails } from './payment-crypto';
import { accountOwner } from './payout-guard';

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

const refused = (code: keyof typeof PAYOUT_CONFIRM_ERRORS) => new AppError(code, PAYOUT_CONFIRM_ERRORS[code]);

/** Whether a change waits for the owner's confirmation: all but the owner's own first details. */
export function needsConfirmation(input: { hadDetails: boolean; isOwner: boolean }): boolean {
  return input.hadDetails || !input.isOwner;
}

function maskedOrNull(appSecret: string, accountId: string, encrypted: string | null) {
  if (!encrypted) return null;
  try {
    const stored = decryptPaymentDetails(appSecret, accountId, encrypted);
    return maskPaymentDetails(stored.method, stored.details);
  } catch {
    return null;
  }
}

function confirmMail(input: {
  to: string;
  actor: Viewer;
  before: MaskedPaymentDetails | null;
  after: MaskedPaymentDetails;
  link: string;
  holdHours: number;
  appUrl: string;
}) {
  const who = `${input.actor.user.name || input.actor.user.email} <${input.actor.user.email}>`;
  return {
    to: input.to,
    subject: PAYOUT_CONFIRM_TEXTS.mailSubject,
    text: [
      'Hi,',
      '',
      'Someone asked to change where your Tunedrop account’s payouts are paid:',
      '',
      `  Changed by: ${who}`,
      `  Now: ${describeMaskedDetails(input.before)}`,
      `  New: ${describeMaskedDetails(input.after)}`,
      '',
      `The new details are not used until you confirm them. Open this link, signed in as the account’s owner, within ${PAYOUT_CONFIRM_LINK_HOURS} hours:`,
      '',
      input.link,
      '',
      input.holdHours > 0
        ? `Once confirmed, payouts are on hold for ${input.holdHours} hours to protect your money.`
        : 'Once confirmed, the next payout goes to the new details.',
      `If you did not expect this, do not open the link; check your team at ${input.appUrl}/dashboard/team.`,
      '',
      '— The Tunedrop team',
    ].join('\n'),
  };
}

/** Issues a fresh link for the account's pending change and mails it to the owner; the older link stops working. */
async function mailNewLink(
  tx: DbOrTx,
  input: {
    accountId: string;
    actor: Viewer;
    before: MaskedPaymentDetails | null;
    after: MaskedPaymentDetails;
    holdHours: number;
    appUrl: string;
  },
  /** The change's own time for its first link, so a resent link is told apart by its time (resend). */
  sentAt = new Date(),
): Promise<{ sentTo: string; expiresAt: Date }> {
  const owner = await accountOwner(tx, input.accountId);
  if (!owner) throw new Error(`no owner for account ${input.accountId}`);
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(sentAt.getTime() + PAYOUT_CONFIRM_LINK_HOURS * 3_600_000);
  await tx
    .update(payoutDetailChanges)
    .set({ tokenHash: tokenHash(token), expiresAt })
    .where(eq(payoutDetailChanges.accountId, input.accountId));
  const link = `${input.appUrl}/dashboard/payouts?confirm=${token}`;
  await enqueueMail(tx, confirmMail({ ...input, to: owner.email, link }));
  return { sentTo: maskEmail(owner.email), expiresAt };
}

/**
 * Keeps new details as the account's pending change (replacing any earlier one) and mails the owner the
 * link, in the caller's transaction, which holds the profile's lock.
 */
export async function requestConfirmation(
  tx: DbOrTx,
  input: {
    accountId: string;
    actor: Viewer;
    method: PendingPayoutDetailsRow['paymentMethod'];
    encrypted: string;
    before: MaskedPaymentDetails | null;
    after: MaskedPaymentDetails;
    holdHours: number;
    appUrl: string;
  },
): Promise<PendingPayoutDetails> {
  const now = new Date();
  const values = {
    requestedBy: input.actor.user.id,
    paymentMethod: input.method,
    paymentDetailsEncrypted: input.encrypted,
    // Replaced at once by mailNewLink; a placeholder no token hashes to.
    tokenHash: `unsent:${randomBytes(16).toString('hex')}`,
    expiresAt: now,
    createdAt: now,
  };
  await tx
    .insert(payoutDetailChanges)
    .values({ accountId: input.accountId, ...values })
    .onConflictDoUpdate({ target: payoutDetailChanges.accountId, set: values });
  const sent = await mailNewLink(tx, input, now);
  return {
    details: input.after,
    requestedAt: now.toISOString(),
    linkExpiresAt: sent.expiresAt.toISOString(),
    sentTo: sent.sentTo,
  };
}

type PendingPayoutDetailsRow = typeof payoutDetailChanges.$inferSelect;

/** The account's change waiting for confirmation, masked, or null. */
export async function pendingPayoutDetails(
  db: DbOrTx,
  appSecret: string,
  accountId: string,
): Promise<PendingPayoutDetails | null> {
  const [row] = await db
    .select()
    .from(payoutDetailChanges)
    .where(eq(payoutDetailChanges.accountId, accountId));
  if (!row) return null;
  const details = maskedOrNull(appSecret, accountId, row.paymentDetailsEncrypted);
  const owner = await accountOwner(db, accountId);
  if (!details || !owner) return null;
  return {
    details,
    requestedAt: row.createdAt.toISOString(),
    linkExpiresAt: row.expiresAt.toISOString(),
    sentTo: maskEmail(owner.email),
  };
}

/** Mails the owner a new link for the account's pending change (the old link stops working). */
export async function resendConfirmation(
  db: Db,
  appSecret: string,
  viewer: Viewer,
  options: { holdHours: number; appUrl: string },
): Promise<PendingPayoutDetails> {
  const accountId = viewer.account.id;
  return db.transaction(async (tx) => {
    const profile = await lockProfile(tx, accountId);
    const pending = await pendingPayoutDetails(tx, appSecret, accountId);
    if (!profile || !pending) throw refused('payout_nothing_pending');
    // The link the change itself mailed may be replaced at once (it went to the wrong inbox, a spam
    // folder); a link Resend mailed, only after PAYOUT_CONFIRM_RESEND_SECONDS.
    const sentAt = new Date(pending.linkExpiresAt).getTime() - PAYOUT_CONFIRM_LINK_HOURS * 3_600_000;
    const isResent = sentAt !== new Date(pending.requestedAt).getTime();
    const wait = Math.ceil((sentAt + PAYOUT_CONFIRM_RESEND_SECONDS * 1000 - Date.now()) / 1000);
    if (isResent && wait > 0) {
      throw new AppError('rate_limited', payoutResendTooSoon(wait), 429, undefined, {
        'Retry-After': String(wait),
      });
    }
    const before = maskedOrNull(appSecret, accountId, profile.paymentDetailsEncrypted);
    const sent = await mailNewLink(tx, {
      accountId,
      actor: viewer,
      before,
      after: pending.details,
      ...options,
    });
    return { ...pending, linkExpiresAt: sent.expiresAt.toISOString() };
  });
}

/**
 * Confirms a pending change by its link: only the account's owner, only once, only before it expires. The
 * details take effect and the hold starts now (never shortening one running); audited with before and after.
 */
export async function confirmPayoutDetails(
  db: Db,
  appSecret: string,
  token: string,
  viewer: Viewer,
  holdHours: number,
): Promise<{ paymentDetails: MaskedPaymentDetails; payoutHoldUntil: string | null; message: string }> {
  const hash = tokenHash(token);
  const [found] = await db
    .select({ accountId: payoutDetailChanges.accountId })
    .from(payoutDetailChanges)
    .where(eq(payoutDetailChanges.tokenHash, hash));
  if (!found) throw refused('payout_link_used');
  const owner = await accountOwner(db, found.accountId);
  if (owner?.id !== viewer.user.id) throw refused('payout_link_not_yours');
  return db.transaction(async (tx) => {
    // The profile first, as every change of payout details locks it (no deadlock with a save).
    const profile = await lockProfile(tx, found.accountId);
    const [row] = await tx
      .select()
      .from(payoutDetailChanges)
      .where(eq(payoutDetailChanges.tokenHash, hash))
      .for('update');
    if (!profile || !row) throw refused('payout_link_used');
    const now = new Date();
    if (row.expiresAt.getTime() <= now.getTime()) throw refused('payout_link_expired');
    await tx.delete(payoutDetailChanges).where(eq(payoutDetailChanges.id, row.id));
    const after = maskedOrNull(appSecret, row.accountId, row.paymentDetailsEncrypted);
    if (!after) throw new Error('pending payout details do not decrypt');
    const before = maskedOrNull(appSecret, row.accountId, profile.paymentDetailsEncrypted);
    const hold = holdHours > 0 ? new Date(now.getTime() + holdHours * 3_600_000) : null;
    const holdUntil =
      hold && profile.payoutHoldUntil && profile.payoutHoldUntil > hold ? profile.payoutHoldUntil : hold;
    await tx
      .update(profiles)
      .set({
        paymentMethod: row.paymentMethod,
        paymentDetailsEncrypted: row.paymentDetailsEncrypted,
        updatedAt: now,
        ...(holdUntil ? { payoutHoldUntil: holdUntil } : {}),
      })
      .where(eq(profiles.id, row.accountId));
    await recordAudit(
      tx,
      { id: viewer.user.id, email: viewer.user.email },
      {
        kind: 'wallet.payment_settings_confirm',
        subject: { type: 'account', id: row.accountId, label: profile.email },
        subjectUserId: row.accountId,
        before: before ? { details: describeMaskedDetails(before) } : null,
        after: {
          details: describeMaskedDetails(after),
          ...(holdUntil ? { withdrawalsHeldUntil: holdUntil.toISOString() } : {}),
        },
      },
    );
    const until = holdUntil?.toISOString() ?? null;
    return {
      paymentDetails: after,
      payoutHoldUntil: until,
      message: PAYOUT_CONFIRM_TEXTS.confirmed(until ? holdTime(until) : null),
    };
  });
}
