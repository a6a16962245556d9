/** Release fixtures beyond createTestRelease: cover art with thumbnails, stored as the builder stores them. */
import { eq } from 'drizzle-orm';
import { releases } from '../db/schema';
import type { Deps } from '../deps';
import { makeImage } from './media';

/** Stores a cover (a small stand-in for the 3000 px original) and two thumbnails, and links them. */
export async function addTestCover(
  deps: Pick<Deps, 'db' | 'storage'>,
  userId: string,
  releaseId: string,
): Promise<{ coverKey: string; smallKey: string; mediumKey: string }> {
  const coverKey = `${userId}/${releaseId}/cover.png`;
  const smallKey = `${userId}/${releaseId}/cover-small.jpg`;
  const mediumKey = `${userId}/${releaseId}/cover-medium.jpg`;
  await deps.storage.putBuffer(coverKey, await makeImage({ width: 300, height: 300, format: 'png' }));
  await deps.storage.putBuffer(smallKey, await makeImage({ width: 64, height: 64, format: 'jpeg' }));
  await deps.storage.putBuffer(mediumKey, await makeImage({ width: 160, height: 160, format: 'jpeg' }));
  await deps.db
    .update(releases)
    .set({ coverArtKey: coverKey, coverThumbSmallKey: smallKey, coverThumbMediumKey: mediumKey })
    .where(eq(releases.id, releaseId));
  return { coverKey, smallKey, mediumKey };
}
