/**
 * The events other modules report, one function each, so a caller adds one line in the transaction
 * where the event happens (record 179); each reads the few names its mail needs.
 */
import { formatCents, platformName } from '@tunedrop/shared';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { deliveries, deliveryTargets, profiles, releases } from '../../db/schema';
import { notifyStaff } from './service';

async function releaseName(db: DbOrTx, releaseId: string): Promise<string> {
  const [row] = await db
    .select({ title: releases.title, artists: releases.primaryArtists })
    .from(releases)
    .where(eq(releases.id, releaseId));
  return row ? `"${row.title}" by ${row.artists.join(', ')}` : `release ${releaseId}`;
}

/** An artist submitted a release for review (builder). */
export async function notifyReleaseSubmitted(db: DbOrTx, releaseId: string): Promise<void> {
  const name = await releaseName(db, releaseId);
  await notifyStaff(db, {
    kind: 'release_submitted',
    summary: `New release to review: ${name}`,
    details: ['It waits in Admin → Review, tab "Pending".'],
  });
}

/**
 * The owner of an approved or live release proposed an update to it (release-updates, record 197): the
 * same kind as a submission, since the same people review both in the same place.
 */
export async function notifyReleaseUpdateSubmitted(
  db: DbOrTx,
  releaseId: string,
  changes: string[],
): Promise<void> {
  const name = await releaseName(db, releaseId);
  await notifyStaff(db, {
    kind: 'release_submitted',
    summary: `Release update to review: ${name}`,
    details: [
      `Changed: ${changes.join(', ')}.`,
      'The release stays as it is at the stores until the update is approved.',
      'It waits in Admin → Review, under "Updates in review".',
    ],
  });
}

/** An artist asked to take down a release, or (with `platformId`) one store of it. */
export async function notifyTakedownRequested(
  db: DbOrTx,
  releaseId: string,
  platformId?: string,
): Promise<void> {
  const name = await releaseName(db, releaseId);
  await notifyStaff(db, {
    kind: 'takedown_requested',
    summary: platformId
      ? `Takedown requested from ${platformName(platformId)}: ${name}`
      : `Takedown requested: ${name}`,
    details: ['It waits in Admin → Review, tab "Takedown Requests".'],
  });
}

/** An artist asked to withdraw money (wallet); admins only. */
export async function notifyWithdrawalRequested(
  db: DbOrTx,
  userId: string,
  amountCents: number,
): Promise<void> {
  const [who] = await db
    .select({ email: profiles.email, artistName: profiles.artistName })
    .from(profiles)
    .where(eq(profiles.id, userId));
  await notifyStaff(db, {
    kind: 'withdrawal_requested',
    summary: `Withdrawal requested: ${formatCents(amountCents)} by ${who?.artistName ?? who?.email ?? userId}`,
    details: ['It waits in Admin → Withdrawals.'],
  });
}

async function deliveryName(db: DbOrTx, deliveryId: string) {
  const [row] = await db
    .select({ releaseId: deliveries.releaseId, target: deliveryTargets.name })
    .from(deliveries)
    .innerJoin(deliveryTargets, eq(deliveryTargets.id, deliveries.targetId))
    .where(eq(deliveries.id, deliveryId));
  return {
    release: row ? await releaseName(db, row.releaseId) : deliveryId,
    target: row?.target ?? 'a target',
  };
}

/** Tunedrop gave up sending a package after its last attempt (delivery); admins only. */
export async function notifyDeliveryFailed(
  db: DbOrTx,
  deliveryId: string,
  attempts: number,
  error: string,
): Promise<void> {
  const { release, target } = await deliveryName(db, deliveryId);
  await notifyStaff(db, {
    kind: 'delivery_failed',
    summary: `Delivery failed: ${release} to ${target}`,
    details: [
      `Tunedrop gave up after ${attempts} attempts.`,
      `Last error: ${error}`,
      'Retry it in Admin → Delivery.',
    ],
  });
}

export type AckOutcome = {
  outcome: string;
  deliveryId?: string | null;
  fileName: string;
  status?: string | null;
  errorText?: string | null;
};

/**
 * A store's acknowledgement file was read (delivery): a rejection, or a file Tunedrop could not read
 * or match to a message, is told to admins; an acceptance is not.
 */
export async function notifyAcknowledgement(db: DbOrTx, targetName: string, ack: AckOutcome): Promise<void> {
  if (ack.outcome === 'rejected' && ack.deliveryId) {
    const { release } = await deliveryName(db, ack.deliveryId);
    await notifyStaff(db, {
      kind: 'store_rejected',
      summary: `Store rejection: ${release} at ${targetName}`,
      details: [
        `The store answered ${ack.status ?? 'rejected'}${ack.errorText ? `: ${ack.errorText}` : ''} (${ack.fileName}).`,
        'See Admin → Delivery.',
      ],
    });
  } else if (ack.outcome === 'malformed' || ack.outcome === 'unknown_message') {
    await notifyStaff(db, {
      kind: 'ack_unreadable',
      summary: `Unreadable acknowledgement from ${targetName}: ${ack.fileName}`,
      details: [
        ack.outcome === 'malformed'
          ? `Tunedrop could not read it: ${ack.errorText ?? 'not a DDEX acknowledgement'}.`
          : 'It names a message Tunedrop did not send there.',
        'See Admin → Delivery, unmatched acknowledgements.',
      ],
    });
  }
}
