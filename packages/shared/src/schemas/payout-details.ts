/**
 * A change of payout details confirmed by email (issue 38, record 314): the new details wait, the old ones
 * (or none) stay in force, until the account's owner opens the mailed link; the hold starts then.
 */
import { z } from 'zod';
import { safeText } from '../text';
import type { MaskedPaymentDetails } from './wallet';

/** How long a mailed confirmation link works. */
export const PAYOUT_CONFIRM_LINK_HOURS = 24;

export const payoutDetailsConfirmSchema = z.object({
  token: safeText().trim().min(1, 'The confirmation link is incomplete.').max(200),
});

/** New payout details waiting for the owner's confirmation, as the wallet shows them. */
export type PendingPayoutDetails = {
  details: MaskedPaymentDetails;
  requestedAt: string;
  /** When the last mailed link stops working (ISO); after it, Resend mails a new one. */
  linkExpiresAt: string;
  /** The owner's address, partly masked, where the link went. */
  sentTo: string;
};

export const PAYOUT_CONFIRM_TEXTS = {
  mailSubject: 'Confirm your new Tunedrop payout details',
  pendingTitle: 'New payout details waiting for confirmation',
  /** `isToViewer`: the owner reads "to you", a team member "to the account owner". */
  pending: (details: string, sentTo: string, current: string | null, isToViewer = false) =>
    `Your new payout details (${details}) are not used yet. We emailed a confirmation link to ${isToViewer ? 'you' : 'the account owner'} at ${sentTo}; ` +
    (current
      ? `until it is opened, payouts still go to ${current}.`
      : 'until it is opened, no payout can be made.'),
  linkExpired: 'This link has expired. Open the Payouts page and choose Resend to get a new one.',
  resend: 'Resend',
  resent: (sentTo: string) => `We sent a new confirmation link to ${sentTo}.`,
  confirmTitle: 'Confirm your new payout details',
  confirmButton: 'Confirm new payout details',
  confirmed: (until: string | null) =>
    until
      ? `Your new payout details are confirmed. To protect your money, payouts are on hold until ${until}.`
      : 'Your new payout details are confirmed.',
} as const;

/** The refusals of a confirmation link, each with a plain message. */
export const PAYOUT_CONFIRM_ERRORS = {
  payout_link_used:
    'This confirmation link was already used or replaced by a newer one. Open the Payouts page to see your payout details.',
  payout_link_expired:
    'This confirmation link has expired. Open the Payouts page and choose Resend to get a new one.',
  payout_link_not_yours:
    'This link confirms payout details of an account you do not own. Sign in as the account’s owner to confirm it.',
  payout_nothing_pending: 'There are no new payout details waiting for confirmation.',
} as const;

/** After a resend, a new link at most this often: Resend cannot be used to flood the owner's inbox. */
export const PAYOUT_CONFIRM_RESEND_SECONDS = 60;

export const payoutResendTooSoon = (seconds: number) =>
  `A link was sent less than a minute ago. Check the owner's inbox, or send a new one in ${seconds} s.`;

/** "o•••@example.com": enough for the owner to know which address, not enough to harvest it. */
export function maskEmail(email: string): string {
  const [name = '', domain = ''] = email.split('@');
  return `${name.slice(0, 1)}•••@${domain}`;
}
