/**
 * The artists' mail when a delivery target is removed (issue 44): each artist whose releases leave a store
 * (or will never reach it) is told, in plain words, which release and which stores, in the transaction
 * that queues the takedowns or closes the jobs, so each is sent once.
 */
import { platformName } from '@tunedrop/shared';
import { eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { profiles, releases } from '../../db/schema';
import { enqueueMail } from '../../infra/mail/mail';
import type { RemovalDelivery } from './targets';

const oneLine = (text: string) => text.replace(/\p{Cc}+/gu, ' ').trim();

/** "Spotify", "Spotify and Deezer", "Spotify, Deezer and TIDAL". */
function listOf(names: string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** Mails every affected artist once; answers how many were mailed. */
export async function mailTargetRemoval(
  tx: DbOrTx,
  input: {
    mode: 'takedown' | 'close';
    targetName: string;
    deliveries: RemovalDelivery[];
    appUrl?: string | undefined;
  },
): Promise<number> {
  const releaseIds = [...new Set(input.deliveries.map((d) => d.releaseId))];
  if (releaseIds.length === 0) return 0;
  const found = await tx
    .select({
      id: releases.id,
      title: releases.title,
      userId: releases.userId,
      email: profiles.email,
      artistName: profiles.artistName,
    })
    .from(releases)
    .innerJoin(profiles, eq(profiles.id, releases.userId))
    .where(inArray(releases.id, releaseIds));
  const byArtist = new Map<string, typeof found>();
  for (const release of found)
    byArtist.set(release.userId, [...(byArtist.get(release.userId) ?? []), release]);
  // A target carrying only Content ID for a release has no store deals: its name is what the artist knows.
  const storesOf = (releaseId: string) => {
    const ids = input.deliveries.filter((d) => d.releaseId === releaseId).flatMap((d) => d.platforms);
    return ids.length > 0 ? listOf([...new Set(ids)].map(platformName)) : oneLine(input.targetName);
  };
  const isTakedown = input.mode === 'takedown';
  for (const own of byArtist.values()) {
    const first = own[0];
    if (!first) continue;
    const lines = own.map((release) =>
      isTakedown
        ? `- "${oneLine(release.title)}" is being taken down from ${storesOf(release.id)}.`
        : `- "${oneLine(release.title)}" will not be sent to ${storesOf(release.id)}.`,
    );
    const subject =
      own.length === 1
        ? isTakedown
          ? `Your release "${oneLine(first.title)}" is being taken down from ${storesOf(first.id)}`
          : `Your release "${oneLine(first.title)}" will not be sent to ${storesOf(first.id)}`
        : isTakedown
          ? `${own.length} of your releases are being taken down from some stores`
          : `${own.length} of your releases will not be sent to some stores`;
    await enqueueMail(tx, {
      to: first.email,
      subject,
      text: [
        `Hi ${oneLine(first.artistName ?? '') || 'there'},`,
        '',
        isTakedown
          ? 'Tunedrop no longer delivers to some stores, so your music is being taken down there:'
          : 'Tunedrop no longer delivers to some stores, so your music will not reach them:',
        '',
        ...lines,
        '',
        'Every other store keeps your releases as they are. You do not need to do anything; contact support if you have questions.',
        ...(input.appUrl
          ? ['', `See where each release stands on its page: ${input.appUrl}/dashboard/songs`]
          : []),
        '',
        '— The Tunedrop team',
      ].join('\n'),
    });
  }
  return byArtist.size;
}
