/**
 * How many split invitation mails one account may send and one address may receive (record 147). Every
 * mail is a row of `split_invitation_sends`; the windows slide over those rows on the database's clock, so
 * the limits hold across restarts and any number of instances. Always on (unlike RATE_LIMITS, which only
 * governs the sign-in family): these protect other people's mailboxes, not the caller.
 */
import { INVITATION_LIMITS, SPLIT_TEXTS, waitText } from '@tunedrop/shared/schemas/splits';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { splitInvitationSends } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { rows, run } from '../../lib/sql';

export class InvitationLimitError extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('invitation_limit', message, 429);
  }
}

type Rule = { windowSeconds: number; max: number };

/**
 * Seconds until `adding` more fit under `rule`, given the ages (seconds, oldest first) of the sends in the
 * longest window; 0 when they fit now.
 */
export function secondsUntilRoom(agesOldestFirst: number[], rule: Rule, adding: number): number {
  const inWindow = agesOldestFirst.filter((age) => age < rule.windowSeconds);
  const excess = inWindow.length + adding - rule.max;
  if (excess <= 0) return 0;
  const leaving = inWindow[excess - 1];
  if (leaving === undefined) return rule.windowSeconds;
  return Math.max(1, Math.ceil(rule.windowSeconds - leaving));
}

async function agesOf(tx: Tx, column: 'sender_id' | 'email', value: string): Promise<number[]> {
  const found = await rows<{ age: number | string }>(
    tx,
    sql`select extract(epoch from clock_timestamp() - created_at)::float8 as age
          from split_invitation_sends
         where ${sql.identifier(column)} = ${value} and created_at > clock_timestamp() - interval '1 day'
         order by created_at`,
  );
  return found.map((row) => Number(row.age));
}

const lockKey = (tx: Tx, key: string) =>
  run(tx, sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);

/**
 * Refuses with 429 (and the wait) when `senderId` may not mail `emails` now; otherwise records the sends.
 * Runs inside the transaction that enqueues the mails, so a refused or failed save counts nothing. Locks
 * the sender, then the addresses in sorted order, so concurrent saves count each other without deadlock.
 */
export async function recordInvitationSends(
  tx: Tx,
  senderId: string,
  releaseId: string,
  emails: string[],
): Promise<void> {
  if (emails.length === 0) return;
  const addresses = [...new Set(emails.map((email) => email.toLowerCase()))].sort();
  await lockKey(tx, `split-invitations:sender:${senderId}`);
  for (const email of addresses) await lockKey(tx, `split-invitations:email:${email}`);

  const senderAges = await agesOf(tx, 'sender_id', senderId);
  for (const [rule, window] of [
    [INVITATION_LIMITS.perAccountHour, 'hour'],
    [INVITATION_LIMITS.perAccountDay, '24 hours'],
  ] as const) {
    const wait = secondsUntilRoom(senderAges, rule, addresses.length);
    if (wait > 0) {
      throw new InvitationLimitError(
        SPLIT_TEXTS.invitationLimitAccount(rule.max, window, waitText(wait)),
        wait,
      );
    }
  }
  for (const email of addresses) {
    const wait = secondsUntilRoom(await agesOf(tx, 'email', email), INVITATION_LIMITS.perAddressDay, 1);
    if (wait > 0)
      throw new InvitationLimitError(SPLIT_TEXTS.invitationLimitAddress(email, waitText(wait)), wait);
  }
  await tx.insert(splitInvitationSends).values(addresses.map((email) => ({ senderId, email, releaseId })));
}
