/**
 * A track's credits (performers, songwriters, producers) and ISRC fixed after release (issue 44, record
 * 236), through the post-release update: checked when proposed (the builder's per-track rules, the plan's,
 * an ISRC's format and that no other track of the catalogue has it), shown in the diff, and written to the
 * track at approval, when the ISRC is checked again; the update delivery then carries them to the stores.
 */

import { hasProFeatures, LIMITS, songwriterRoleLabel } from '@tunedrop/shared';
import { BUILDER_MESSAGES, uniqueArtistsByName } from '@tunedrop/shared/schemas/builder';
import { isTeamMemberOf, MEMBER_LOCK_TEXTS } from '@tunedrop/shared/schemas/member-locks';
import {
  RELEASE_UPDATE_MESSAGES,
  type ReleaseUpdateChange,
  TRACK_UPDATE_FIELD_LABELS,
  type TrackCreditsUpdate,
} from '@tunedrop/shared/schemas/release-updates';
import { RELEASE_MESSAGES } from '@tunedrop/shared/schemas/releases';
import { and, eq, inArray, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { producers, songwriters, tracks } from '../../db/schema';
import type {
  ProposedTrackCredits,
  ReleaseUpdateBefore,
  TrackCreditTexts,
} from '../../db/schema/release-updates';
import type { Viewer } from '../../lib/context';
import { AppError, validationError } from '../../lib/errors';
import { replaceCredits } from '../catalogue';

type TrackRow = typeof tracks.$inferSelect;
type Person = { firstName: string; middleName: string | null; lastName: string };
type CurrentCredits = Omit<ProposedTrackCredits, 'isrc'> & { isrc: string | null };

const personName = (person: Person) =>
  [person.firstName, person.middleName, person.lastName].filter(Boolean).join(' ');
const names = (list: { name: string }[]) => list.map((item) => item.name).join(', ') || '—';
const people = (list: Person[]) => list.map(personName).join(', ') || '—';

/** The texts the diff compares: a change is a field whose text differs. */
export function creditTexts(credits: CurrentCredits): TrackCreditTexts {
  return {
    isrc: credits.isrc ?? '—',
    primaryArtists: names(credits.primaryArtists),
    featuredArtists: names(credits.featuredArtists),
    songwriters:
      credits.songwriters.map((w) => `${personName(w)} (${songwriterRoleLabel(w.role)})`).join(', ') || '—',
    producers: people(credits.producers),
  };
}

async function currentCredits(db: DbOrTx, rows: TrackRow[]): Promise<Map<string, CurrentCredits>> {
  const ids = rows.map((row) => row.id);
  const [writerRows, producerRows] = ids.length
    ? await Promise.all([
        db.select().from(songwriters).where(inArray(songwriters.trackId, ids)),
        db.select().from(producers).where(inArray(producers.trackId, ids)),
      ])
    : [[], []];
  return new Map(
    rows.map((row) => [
      row.id,
      {
        trackId: row.id,
        isrc: row.isrc,
        primaryArtists: row.primaryArtistsData,
        featuredArtists: row.featuredArtistsData,
        songwriters: writerRows
          .filter((writer) => writer.trackId === row.id)
          .map(({ firstName, middleName, lastName, role }) => ({ firstName, middleName, lastName, role })),
        producers: producerRows
          .filter((producer) => producer.trackId === row.id)
          .map(({ firstName, middleName, lastName }) => ({ firstName, middleName, lastName })),
      },
    ]),
  );
}

/** 422 when another track of the operator's catalogue already has `isrc` (the builder's text). */
async function assertIsrcFree(db: DbOrTx, isrc: string, trackId: string, field: string) {
  const [taken] = await db
    .select({ id: tracks.id })
    .from(tracks)
    .where(and(eq(tracks.isrc, isrc), ne(tracks.id, trackId)));
  if (taken) throw validationError(BUILDER_MESSAGES.isrcTaken, { [field]: BUILDER_MESSAGES.isrcTaken });
}

/**
 * The tracks whose credits or ISRC the update changes, with their "before" texts; [] when none does. A
 * track not on the release, a track twice, an ISRC change on Basic, an ISRC another track has or two
 * tracks given one ISRC, or more than one primary artist on Basic: 422 with the field named.
 */
export async function proposedTrackCredits(
  db: DbOrTx,
  viewer: Viewer,
  trackRows: TrackRow[],
  input: TrackCreditsUpdate[],
): Promise<{ proposed: ProposedTrackCredits[]; before: Map<string, TrackCreditTexts> }> {
  if (input.length === 0) return { proposed: [], before: new Map() };
  const isPro = hasProFeatures(viewer.profile.plan, viewer.roles);
  const current = await currentCredits(db, trackRows);
  const seen = new Set<string>();
  const newIsrcs = new Set<string>();
  const proposed: ProposedTrackCredits[] = [];
  const before = new Map<string, TrackCreditTexts>();
  for (const [index, item] of input.entries()) {
    const trackId = item.trackId.toLowerCase();
    const now = current.get(trackId);
    if (!now || seen.has(trackId)) {
      throw validationError(RELEASE_UPDATE_MESSAGES.trackNotOnRelease, {
        [`tracks.${index}`]: RELEASE_UPDATE_MESSAGES.trackNotOnRelease,
      });
    }
    seen.add(trackId);
    const field = `tracks.${index}.isrc`;
    const isrc = item.isrc && item.isrc !== now.isrc ? item.isrc : undefined;
    if (isrc) {
      if (!isPro) {
        const message = isTeamMemberOf(viewer)
          ? MEMBER_LOCK_TEXTS.feature
          : RELEASE_UPDATE_MESSAGES.isrcProOnly;
        throw validationError(message, { [field]: message });
      }
      if (newIsrcs.has(isrc))
        throw validationError(BUILDER_MESSAGES.isrcDuplicate, { [field]: BUILDER_MESSAGES.isrcDuplicate });
      newIsrcs.add(isrc);
      await assertIsrcFree(db, isrc, trackId, field);
    }
    const next: ProposedTrackCredits = {
      trackId,
      ...(isrc ? { isrc } : {}),
      // Links stored for names that stay are kept; new names get a bare credit (as Edit Release does).
      primaryArtists: keepLinks(item.primaryArtists, now.primaryArtists),
      featuredArtists: keepLinks(item.featuredArtists, now.featuredArtists),
      songwriters: item.songwriters.map((w) => ({ ...w, middleName: w.middleName ?? null })),
      producers: item.producers.map((p) => ({ ...p, middleName: p.middleName ?? null })),
    };
    const was = creditTexts(now);
    const will = creditTexts({ ...next, isrc: next.isrc ?? now.isrc });
    if (
      Object.keys(was).some(
        (key) => was[key as keyof TrackCreditTexts] !== will[key as keyof TrackCreditTexts],
      )
    ) {
      proposed.push(next);
      before.set(trackId, was);
    }
  }
  // The plan's artist rule over the release's tracks as they would be (Basic: one primary artist).
  const primary = uniqueArtistsByName(
    trackRows.flatMap(
      (row) => proposed.find((p) => p.trackId === row.id)?.primaryArtists ?? row.primaryArtistsData,
    ),
  );
  const limit = isPro ? LIMITS.primaryArtistsPerReleasePro : LIMITS.primaryArtistsPerReleaseBasic;
  if (primary.length > limit) {
    const message = isPro
      ? BUILDER_MESSAGES.maxPrimaryArtistsPerRelease
      : isTeamMemberOf(viewer)
        ? MEMBER_LOCK_TEXTS.primaryArtists
        : RELEASE_MESSAGES.basicOnePrimaryArtist;
    throw validationError(message, { tracks: message });
  }
  return { proposed, before };
}

function keepLinks(
  given: { name: string; spotifyLink?: string | undefined; appleMusicLink?: string | undefined }[],
  stored: ProposedTrackCredits['primaryArtists'],
) {
  return given.map((credit) => {
    const kept = stored.find((item) => item.name.toLowerCase() === credit.name.toLowerCase());
    return {
      name: credit.name,
      ...((credit.spotifyLink ?? kept?.spotifyLink)
        ? { spotifyLink: credit.spotifyLink ?? kept?.spotifyLink }
        : {}),
      ...((credit.appleMusicLink ?? kept?.appleMusicLink)
        ? { appleMusicLink: credit.appleMusicLink ?? kept?.appleMusicLink }
        : {}),
    } as ProposedTrackCredits['primaryArtists'][number];
  });
}

/** The diff's lines of the tracks' credits and ISRC: one per field that changes. */
export function trackCreditChanges(
  before: ReleaseUpdateBefore,
  proposed: ProposedTrackCredits[],
): ReleaseUpdateChange[] {
  const changes: ReleaseUpdateChange[] = [];
  for (const item of proposed) {
    const track = before.tracks.find((t) => t.id === item.trackId);
    const was = track?.credits;
    if (!was) continue;
    const will = creditTexts({ ...item, isrc: item.isrc ?? (was.isrc === '—' ? null : was.isrc) });
    const position = before.tracks.indexOf(track) + 1;
    for (const field of Object.keys(TRACK_UPDATE_FIELD_LABELS) as (keyof TrackCreditTexts)[]) {
      if (was[field] === will[field]) continue;
      changes.push({
        kind: 'detail',
        field: `tracks.${item.trackId}.${field}`,
        label: `${TRACK_UPDATE_FIELD_LABELS[field]}, track ${position} "${track.title}"`,
        before: was[field],
        after: will[field],
      });
    }
  }
  return changes;
}

/**
 * At approval: each track takes its credits and ISRC. An ISRC another track took since it was proposed
 * refuses the approval (409), changing nothing.
 */
export async function applyTrackCredits(tx: DbOrTx, releaseId: string, proposed: ProposedTrackCredits[]) {
  for (const item of proposed) {
    if (item.isrc) {
      const [taken] = await tx
        .select({ id: tracks.id })
        .from(tracks)
        .where(and(eq(tracks.isrc, item.isrc), ne(tracks.id, item.trackId)));
      if (taken) throw new AppError('isrc_taken', BUILDER_MESSAGES.isrcTaken, 409);
    }
    const [track] = await tx
      .update(tracks)
      .set({
        ...(item.isrc ? { isrc: item.isrc } : {}),
        primaryArtistsData: item.primaryArtists,
        featuredArtistsData: item.featuredArtists,
      })
      .where(and(eq(tracks.id, item.trackId), eq(tracks.releaseId, releaseId)))
      .returning({ id: tracks.id });
    // A track removed since (only possible before approval) has nothing to take.
    if (!track) continue;
    await replaceCredits(tx, item.trackId, item);
  }
}
