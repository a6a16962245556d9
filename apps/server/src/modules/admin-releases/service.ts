/**
 * Release review (spec 02 §2, §4, §6): the decisions, permanent delete, bans of the uploader and staff
 * file access (the list and its search are in review-list.ts). Each decision locks the row, re-checks
 * the status in the UPDATE's WHERE, and writes its audit row and the artist's mail in the same
 * transaction, so two moderators can never both decide one release.
 */
import type { ReleaseStatus } from '@tunedrop/shared';
import { DECISION_FROM } from '@tunedrop/shared/schemas/admin-releases';
import { RELEASE_STATUS_LABELS } from '@tunedrop/shared/schemas/releases';
import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { profiles, releases, tracks, userRoles } from '../../db/schema';
import type { Deps } from '../../deps';
import type { Viewer } from '../../lib/context';
import { AppError, notFound } from '../../lib/errors';
import { enqueueReleaseMail, type ReleaseMailKind, releaseNotFound } from '../catalogue';
import { afterReleaseDecision, assertNotAtStores } from '../delivery';
import { deleteReleaseRows, removeStoredFiles } from '../releases';
import { emitWebhookEvent } from '../webhook-outbox';
import { type AuditAction, writeAudit } from './audit';

// ------------------------------------------------------------------ decisions

export type Decision =
  | 'approve'
  | 'reject'
  | 'unapprove'
  | 'unreject'
  | 'takedown_approve'
  | 'takedown_reject';

type DecisionPlan = {
  action: AuditAction;
  where: SQL;
  set: Partial<typeof releases.$inferInsert>;
  mail?: ReleaseMailKind;
};

function planDecision(decision: Decision, reason?: string): DecisionPlan {
  switch (decision) {
    case 'approve':
      return {
        action: 'release.approve',
        where: inArray(releases.status, [...DECISION_FROM.approve]),
        set: { status: 'approved', rejectionReason: null },
        mail: 'approved',
      };
    case 'reject':
      return {
        action: 'release.reject',
        where: inArray(releases.status, [...DECISION_FROM.reject]),
        set: { status: 'rejected', rejectionReason: reason ?? null },
        mail: 'rejected',
      };
    case 'unapprove':
      return {
        action: 'release.unapprove',
        where: inArray(releases.status, [...DECISION_FROM.unapprove]),
        set: { status: 'pending' },
      };
    case 'unreject':
      return {
        action: 'release.unreject',
        where: inArray(releases.status, [...DECISION_FROM.unreject]),
        set: { status: 'pending', rejectionReason: null },
      };
    case 'takedown_approve':
      return {
        action: 'release.takedown_approve',
        where: eq(releases.takedownRequested, true),
        set: { status: 'taken_down', takedownRequested: false },
        mail: 'taken_down',
      };
    case 'takedown_reject':
      return {
        action: 'release.takedown_reject',
        where: eq(releases.takedownRequested, true),
        set: { takedownRequested: false, takedownRequestedAt: null },
        mail: 'takedown_rejected',
      };
  }
}

const snapshot = (row: typeof releases.$inferSelect) => ({
  status: row.status,
  rejectionReason: row.rejectionReason,
  takedownRequested: row.takedownRequested,
  takedownRequestedAt: row.takedownRequestedAt?.toISOString() ?? null,
});

/** 409 for a card that no longer matches the database; the message says what the release is now. */
export function staleDecision(decision: Decision, current: typeof releases.$inferSelect): AppError {
  const label = RELEASE_STATUS_LABELS[current.status] ?? current.status;
  const message =
    decision === 'takedown_approve' || decision === 'takedown_reject'
      ? `This takedown request has already been decided (the release is now ${label}). The list has been refreshed.`
      : `This release was changed in the meantime and is now ${label}${
          current.takedownRequested ? ' with a takedown request' : ''
        }. The list has been refreshed.`;
  return new AppError('release_state_changed', message, 409);
}

export async function decideRelease(
  deps: Pick<Deps, 'db' | 'config' | 'wakeMail'>,
  viewer: Viewer,
  releaseId: string,
  decision: Decision,
  reason?: string,
): Promise<{ status: ReleaseStatus; isTakedownRequested: boolean }> {
  const plan = planDecision(decision, reason);
  const result = await deps.db.transaction(async (tx) => {
    // The lock makes a concurrent decision wait here, then fail the WHERE below on the new status.
    const [before] = await tx.select().from(releases).where(eq(releases.id, releaseId)).for('update');
    if (!before) throw releaseNotFound();
    const [after] = await tx
      .update(releases)
      .set({ ...plan.set, updatedAt: new Date() })
      .where(and(eq(releases.id, releaseId), plan.where))
      .returning();
    if (!after) throw staleDecision(decision, before);
    // Delivery (issue 15): codes and jobs at approval, takedown messages to the stores, status events.
    const delivery = await afterReleaseDecision(tx, deps.config, decision, before, after.rejectionReason);
    if (delivery.keepStatus && delivery.keepStatus !== after.status) {
      // The release stays out until every store confirmed the takedown (the worker then sets taken_down).
      await tx.update(releases).set({ status: delivery.keepStatus }).where(eq(releases.id, releaseId));
      after.status = delivery.keepStatus;
    }
    if (decision === 'approve' || decision === 'reject')
      await emitWebhookEvent(
        tx,
        before.userId,
        decision === 'approve' ? 'release.approved' : 'release.rejected',
        {
          releaseId,
          ...(decision === 'reject' ? { reason: after.rejectionReason } : {}),
        },
      );
    await writeAudit(tx, viewer, {
      action: plan.action,
      releaseId,
      subjectUserId: before.userId,
      before: { title: before.title, ...snapshot(before) },
      after: { title: after.title, ...snapshot(after) },
    });
    if (plan.mail) {
      const [uploader] = await tx
        .select({ email: profiles.email, artistName: profiles.artistName })
        .from(profiles)
        .where(eq(profiles.id, before.userId));
      if (uploader) {
        await enqueueReleaseMail(tx, plan.mail, {
          to: uploader.email,
          artistName: uploader.artistName,
          releaseTitle: after.title,
          appUrl: deps.config.appUrl,
          reason: after.rejectionReason,
        });
      }
    }
    return after;
  });
  if (plan.mail) deps.wakeMail();
  return { status: result.status, isTakedownRequested: result.takedownRequested };
}

export async function deleteReleasePermanently(
  deps: Pick<Deps, 'db' | 'storage' | 'logger'>,
  viewer: Viewer,
  releaseId: string,
): Promise<void> {
  const removed = await deps.db.transaction(async (tx) => {
    await assertNotAtStores(tx, releaseId);
    const result = await deleteReleaseRows(
      tx,
      releaseId,
      inArray(releases.status, [...DECISION_FROM.delete]),
    );
    if (!result) {
      const [current] = await tx.select().from(releases).where(eq(releases.id, releaseId));
      if (!current) throw releaseNotFound();
      throw new AppError(
        'release_state_changed',
        `Only approved, rejected or taken-down releases can be deleted permanently; this release is now ${
          RELEASE_STATUS_LABELS[current.status] ?? current.status
        }. The list has been refreshed.`,
        409,
      );
    }
    const { row } = result;
    await writeAudit(tx, viewer, {
      action: 'release.delete',
      releaseId,
      subjectUserId: row.userId,
      before: {
        title: row.title,
        ...snapshot(row),
        primaryArtists: row.primaryArtists,
        trackCount: result.trackCount,
        files: result.fileKeys,
      },
      after: null,
    });
    return result;
  });
  await removeStoredFiles(deps.storage, deps.logger, removed.fileKeys);
}

// ------------------------------------------------------------------ bans

export async function setUploaderBan(
  db: Db,
  viewer: Viewer,
  releaseId: string,
  ban: { reason: string } | null,
): Promise<{ isBanned: boolean; banReason: string | null }> {
  return db.transaction(async (tx) => {
    const [release] = await tx
      .select({ userId: releases.userId })
      .from(releases)
      .where(eq(releases.id, releaseId))
      .limit(1);
    if (!release) throw releaseNotFound();
    if (ban && release.userId === viewer.user.id) {
      throw new AppError('cannot_ban_self', 'You cannot ban your own account.', 422);
    }
    if (ban) {
      const staff = await tx
        .select({ role: userRoles.role })
        .from(userRoles)
        .where(and(eq(userRoles.userId, release.userId), inArray(userRoles.role, ['admin', 'moderator'])));
      if (staff.length > 0) {
        throw new AppError(
          'cannot_ban_staff',
          'Admins and moderators cannot be banned from release review.',
          403,
        );
      }
    }
    const [before] = await tx
      .select({ banned: profiles.banned, banReason: profiles.banReason, bannedAt: profiles.bannedAt })
      .from(profiles)
      .where(eq(profiles.id, release.userId))
      .for('update');
    if (!before) throw notFound('User not found.');
    const [after] = await tx
      .update(profiles)
      .set(
        ban
          ? { banned: true, banReason: ban.reason, bannedAt: new Date(), updatedAt: new Date() }
          : { banned: false, banReason: null, bannedAt: null, updatedAt: new Date() },
      )
      .where(and(eq(profiles.id, release.userId), eq(profiles.banned, !ban)))
      .returning({ banned: profiles.banned, banReason: profiles.banReason, bannedAt: profiles.bannedAt });
    if (!after) {
      throw new AppError(
        'user_state_changed',
        ban
          ? 'This user is already banned. The list has been refreshed.'
          : 'This user is not banned any more. The list has been refreshed.',
        409,
      );
    }
    const view = (state: typeof before) => ({
      banned: state.banned,
      banReason: state.banReason,
      bannedAt: state.bannedAt?.toISOString() ?? null,
    });
    await writeAudit(tx, viewer, {
      action: ban ? 'user.ban' : 'user.unban',
      releaseId,
      subjectUserId: release.userId,
      before: view(before),
      after: view(after),
    });
    return { isBanned: after.banned, banReason: after.banReason };
  });
}

// ------------------------------------------------------------------ files

export async function trackFile(
  db: DbOrTx,
  releaseId: string,
  trackId: string,
): Promise<{ key: string; name: string }> {
  const [track] = await db
    .select({ key: tracks.fileKey, name: tracks.originalFileName })
    .from(tracks)
    .where(and(eq(tracks.id, trackId), eq(tracks.releaseId, releaseId)))
    .limit(1);
  if (!track) throw notFound('Track not found.');
  return track;
}
