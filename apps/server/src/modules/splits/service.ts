/**
 * Royalty splits (issue 17, decision 140): the owner's rules (who shares and how much; expenses in
 * expenses.ts, the invitation's acceptance in invitations.ts, the payee's view in payee-shares.ts, the
 * owner's view in release-splits.ts). Versions are immutable: a save writes a new version of
 * its target (release default or one track) under the release's row lock and the splits lock taken
 * shared (posting takes it exclusive), so a version either precedes a posting or follows it.
 */
import { randomBytes } from 'node:crypto';
import {
  hundredthsToPercent,
  percentToHundredths,
  type ReleaseSplits,
  SPLIT_TEXTS,
  type SplitSetInput,
} from '@tunedrop/shared/schemas/splits';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { splitPayees, splitShares, splitVersions } from '../../db/schema';
import { enqueueMail } from '../../infra/mail/mail';
import type { Viewer } from '../../lib/context';
import { AppError, notFound } from '../../lib/errors';
import { rows } from '../../lib/sql';
import { recordInvitationSends } from './invitation-limits';
import { hashToken } from './invitations';
import { invitationMail } from './mails';
import { lockSplitsForEdit } from './posting';
import { ownedRelease, readReleaseSplits } from './release-splits';
import { requiredReason, splitInForce, traceSplitSave } from './split-trace';

/**
 * Saves a new version of one split (release default or a track). New payees are invited (a mail with
 * their own link, in the same transaction); payees already invited to this release keep their invitation.
 */
export async function saveSplit(
  db: Db,
  releaseId: string,
  viewer: Viewer,
  input: SplitSetInput,
  appUrl: string,
): Promise<ReleaseSplits> {
  return db.transaction(async (tx) => {
    await lockSplitsForEdit(tx);
    const release = await ownedRelease(tx, releaseId, viewer, true);
    const reason = requiredReason(release, viewer, input.reason);
    let target = 'Release default';
    if (input.trackId) {
      const [track] = await rows<{ id: string; position: number; title: string }>(
        tx,
        sql`select id, position, title from tracks where id = ${input.trackId} and release_id = ${release.id}`,
      );
      if (!track) throw new AppError('track_not_in_release', SPLIT_TEXTS.trackNotInRelease, 422);
      target = `Track ${track.position}: ${track.title}`;
    }
    const [owner] = await rows<{ email: string; artistName: string | null }>(
      tx,
      sql`
        select u.email, p.artist_name from "user" u left join profiles p on p.id = u.id
         where u.id = ${release.userId}`,
    );
    const emails = input.payees.map((payee) => payee.email.trim().toLowerCase());
    if (owner && emails.includes(owner.email.toLowerCase())) {
      throw new AppError('owner_listed', SPLIT_TEXTS.ownerListed, 422);
    }
    if (new Set(emails).size !== emails.length)
      throw new AppError('duplicate_payee', SPLIT_TEXTS.duplicate, 422);
    const ownerHundredths = percentToHundredths(input.ownerPercent);
    const payeeHundredths = input.payees.map((payee) => percentToHundredths(payee.percent));
    if (
      ownerHundredths === null ||
      ownerHundredths < 0 ||
      ownerHundredths > 10_000 ||
      payeeHundredths.some((value) => value === null || value < 1 || value > 10_000)
    ) {
      throw new AppError('invalid_percent', SPLIT_TEXTS.percentRange, 422);
    }
    const sum = payeeHundredths.reduce<number>((total, value) => total + (value ?? 0), ownerHundredths);
    if (sum !== 10_000) throw new AppError('sum_not_100', SPLIT_TEXTS.sumNot100, 422);

    const existing = await tx
      .select({ id: splitPayees.id, email: splitPayees.email })
      .from(splitPayees)
      .where(and(eq(splitPayees.releaseId, release.id), sql`${splitPayees.status} <> 'withdrawn'`));
    const byEmail = new Map(existing.map((row) => [row.email.toLowerCase(), row.id]));
    const created: { email: string; token: string }[] = [];
    for (const email of emails) {
      if (byEmail.has(email)) continue;
      const token = randomBytes(32).toString('base64url');
      const [payee] = await tx
        .insert(splitPayees)
        .values({ releaseId: release.id, email, tokenHash: hashToken(token), invitedBy: viewer.user.id })
        .returning({ id: splitPayees.id });
      if (!payee) throw new Error('payee insert returned nothing');
      byEmail.set(email, payee.id);
      created.push({ email, token });
    }
    const before = await splitInForce(tx, release.id, input.trackId ?? null);
    const [last] = await rows<{ version: number | null }>(
      tx,
      sql`
        select max(version) as version from split_versions
         where release_id = ${release.id}
           and track_id is not distinct from ${input.trackId ?? null}::uuid`,
    );
    const [version] = await tx
      .insert(splitVersions)
      .values({
        releaseId: release.id,
        trackId: input.trackId ?? null,
        version: Number(last?.version ?? 0) + 1,
        ownerPercent: hundredthsToPercent(ownerHundredths),
        createdBy: viewer.user.id,
      })
      .returning({ id: splitVersions.id });
    if (!version) throw new Error('version insert returned nothing');
    if (emails.length > 0) {
      await tx.insert(splitShares).values(
        emails.map((email, index) => ({
          versionId: version.id,
          payeeId: byEmail.get(email) as string,
          percent: hundredthsToPercent(payeeHundredths[index] ?? 0),
        })),
      );
    }
    await traceSplitSave(tx, {
      viewer,
      release,
      target,
      before,
      after: {
        ownerPercent: hundredthsToPercent(ownerHundredths),
        payees: new Map(
          emails.map((email, index) => [email, hundredthsToPercent(payeeHundredths[index] ?? 0)]),
        ),
      },
      reason,
      invited: created.map((invite) => invite.email),
      appUrl,
    });
    // Counted (and refused with 429 past the limits) in this transaction: a refused save sends nothing.
    await recordInvitationSends(
      tx,
      viewer.account.id,
      release.id,
      created.map((invite) => invite.email),
    );
    for (const invite of created) {
      await enqueueMail(
        tx,
        invitationMail({
          to: invite.email,
          ownerName: owner?.artistName ?? owner?.email ?? 'A Tunedrop artist',
          releaseTitle: release.title,
          url: `${appUrl}/splits/invitations/${invite.token}`,
          appUrl,
        }),
      );
    }
    return readReleaseSplits(tx, release, viewer);
  });
}

/** Withdraws a pending invitation: later shares go to the owner; held ones return at the next posting. */
export async function withdrawPayee(db: Db, releaseId: string, payeeId: string, viewer: Viewer) {
  return db.transaction(async (tx) => {
    await lockSplitsForEdit(tx);
    const release = await ownedRelease(tx, releaseId, viewer, true);
    const [updated] = await tx
      .update(splitPayees)
      .set({ status: 'withdrawn', withdrawnAt: sql`clock_timestamp()` })
      .where(
        and(
          eq(splitPayees.id, payeeId),
          eq(splitPayees.releaseId, release.id),
          eq(splitPayees.status, 'pending'),
        ),
      )
      .returning({ id: splitPayees.id });
    if (!updated) {
      const [row] = await tx
        .select({ id: splitPayees.id })
        .from(splitPayees)
        .where(and(eq(splitPayees.id, payeeId), eq(splitPayees.releaseId, release.id)));
      if (!row) throw notFound('Invitation not found');
      throw new AppError('not_pending', SPLIT_TEXTS.notPending, 409);
    }
    return readReleaseSplits(tx, release, viewer);
  });
}
