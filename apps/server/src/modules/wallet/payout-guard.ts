/**
 * Money actions on an account traced (issue 43 finding 10, record 229): who may change where the money
 * goes is a team role (Finance), so every change of payout details and every withdrawal request is
 * audited with the member and the account; the owner is mailed when anyone else requests a withdrawal, and
 * confirms any change of payout details by email (payout-details-confirm.ts, record 314); a confirmed change
 * holds withdrawals for PAYOUT_HOLD_HOURS.
 */
import { formatCents } from '@tunedrop/shared';
import {
  describeMaskedDetails,
  type MaskedPaymentDetails,
  PAYOUT_HOLD_TEXTS,
} from '@tunedrop/shared/schemas/wallet';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { enqueueMail, type OutgoingMail } from '../../infra/mail/mail';
import type { Viewer } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { rows } from '../../lib/sql';

/** The person who owns the account: its founder, or whom ownership was transferred to (record 205). */
export async function accountOwner(
  db: DbOrTx,
  accountId: string,
): Promise<{ id: string; email: string; name: string } | null> {
  const [owner] = await rows<{ id: string; email: string; name: string }>(
    db,
    sql`select u.id, u.email, coalesce(nullif(p.artist_name, ''), p.full_name) as name
          from profiles p
          left join account_owners o on o.account_id = p.id
          join "user" u on u.id = coalesce(o.owner_id, p.id)
         where p.id = ${accountId}`,
  );
  return owner ?? null;
}

/** Refuses a withdrawal while the account's payout details are held (409, saying until when). */
export function assertNoPayoutHold(holdUntil: Date | null, now = new Date()): void {
  if (holdUntil && holdUntil.getTime() > now.getTime()) {
    throw new AppError('payout_hold', PAYOUT_HOLD_TEXTS.held(holdUntil.toISOString()), 409);
  }
}

const actorLine = (viewer: Viewer) => `${viewer.user.name || viewer.user.email} <${viewer.user.email}>`;

function withdrawalRequestedMail(input: {
  to: string;
  actor: Viewer;
  amountCents: number;
  details: MaskedPaymentDetails | null;
  appUrl: string;
}): OutgoingMail {
  return {
    to: input.to,
    subject: PAYOUT_HOLD_TEXTS.mailSubjectWithdrawal,
    text: [
      'Hi,',
      '',
      'A member of your Tunedrop team requested a withdrawal from your account’s balance:',
      '',
      `  Requested by: ${actorLine(input.actor)}`,
      `  Amount: ${formatCents(input.amountCents)}`,
      `  Paid to: ${describeMaskedDetails(input.details)}`,
      '',
      `While it is pending you can cancel it at ${input.appUrl}/dashboard/wallet.`,
      '',
      '— The Tunedrop team',
    ].join('\n'),
  };
}

/** Mails the owner about a withdrawal someone else requested (nothing when they requested it). */
export async function mailOwnerOfWithdrawal(
  tx: DbOrTx,
  viewer: Viewer,
  request: { amountCents: number; details: MaskedPaymentDetails | null },
  appUrl: string,
): Promise<void> {
  const owner = await accountOwner(tx, viewer.account.id);
  if (!owner || owner.id === viewer.user.id) return;
  await enqueueMail(tx, withdrawalRequestedMail({ to: owner.email, actor: viewer, ...request, appUrl }));
}
