/**
 * A moderator rejects an artist's per-store takedown request from the Takedown Requests tab (issue 26),
 * as a whole-release request can be: the store stays live, the request leaves the tab (the artist may ask
 * again), the artist is mailed the reason, and the decision is audited, all in one transaction.
 */
import { PLATFORMS, type PlatformId } from '@tunedrop/shared';
import { DELIVERY_MESSAGES } from '@tunedrop/shared/schemas/delivery';
import { and, eq } from 'drizzle-orm';
import { profiles, releaseStoreTakedowns, releases } from '../../db/schema';
import type { Deps } from '../../deps';
import type { Viewer } from '../../lib/context';
import { AppError, notFound } from '../../lib/errors';
import { recordAudit } from '../audit';
import { enqueueReleaseMail } from '../catalogue';
import { addEvent } from './planning';

export async function rejectStoreTakedown(
  deps: Pick<Deps, 'db' | 'config' | 'wakeMail'>,
  viewer: Viewer,
  releaseId: string,
  input: { platformId: PlatformId; reason: string },
): Promise<{ ok: true }> {
  const storeName = PLATFORMS.find((p) => p.id === input.platformId)?.name ?? input.platformId;
  await deps.db.transaction(async (tx) => {
    const [release] = await tx.select().from(releases).where(eq(releases.id, releaseId)).for('update');
    if (!release) throw notFound(DELIVERY_MESSAGES.releaseNotFound);
    const [request] = await tx
      .delete(releaseStoreTakedowns)
      .where(
        and(
          eq(releaseStoreTakedowns.releaseId, releaseId),
          eq(releaseStoreTakedowns.platformId, input.platformId),
          eq(releaseStoreTakedowns.state, 'requested'),
        ),
      )
      .returning();
    if (!request)
      throw new AppError('store_takedown_decided', DELIVERY_MESSAGES.storeTakedownNotRequested, 409);
    await addEvent(
      tx,
      releaseId,
      release.status,
      `Takedown request for ${storeName} rejected: ${input.reason}`,
    );
    await recordAudit(tx, viewer, {
      kind: 'release.store_takedown_reject',
      releaseId,
      subjectUserId: release.userId,
      before: { title: release.title, store: input.platformId, takedown: 'requested' },
      after: { title: release.title, store: input.platformId, takedown: 'rejected', reason: input.reason },
    });
    const [uploader] = await tx
      .select({ email: profiles.email, artistName: profiles.artistName })
      .from(profiles)
      .where(eq(profiles.id, release.userId));
    if (uploader) {
      await enqueueReleaseMail(tx, 'store_takedown_rejected', {
        to: uploader.email,
        artistName: uploader.artistName,
        releaseTitle: release.title,
        appUrl: deps.config.appUrl,
        reason: input.reason,
        storeName,
      });
    }
  });
  deps.wakeMail();
  return { ok: true };
}
