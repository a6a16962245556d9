/** The wizard's draft: how a new one starts, and the changes the steps make to it (pure functions). */
import { LIMITS } from '@tunedrop/shared';
import { emptyAiDisclosureDraft } from '@tunedrop/shared/schemas/ai-disclosure';
import {
  type ArtistDraft,
  type BuilderDraft,
  lockedReleaseFields,
  type TrackDraft,
  uniqueArtistsByName,
} from '@tunedrop/shared/schemas/builder';

/**
 * Whose release it is: the plan, the artist name a Basic release is locked to, and (record 201) the artist
 * profile a new draft goes under with its credit, which a Pro draft starts with as its primary artist.
 */
export type Viewpoint = {
  isPro: boolean;
  artistName: string;
  artistProfileId?: string | null;
  profileArtist?: ArtistDraft | null;
};

const newId = () => crypto.randomUUID();

export function emptyArtist(name = ''): ArtistDraft {
  return { name, spotifyLink: '', appleMusicLink: '' };
}

export function emptyTrack({ isPro, artistName, profileArtist }: Viewpoint): TrackDraft {
  return {
    id: newId(),
    title: '',
    file: null,
    explicit: false,
    isrc: '',
    // Basic: the one primary artist is the user's artist name, filled in for them.
    // Pro: the chosen artist profile, when one is chosen (record 201); removable like any credit.
    primaryArtists: isPro ? (profileArtist ? [{ ...profileArtist }] : []) : [emptyArtist(artistName)],
    featuredArtists: [],
    songwriters: [],
    producers: [],
    contentId: null,
    aiDisclosure: emptyAiDisclosureDraft(),
  };
}

export function newDraft(viewpoint: Viewpoint, now: Date = new Date()): BuilderDraft {
  const year = String(now.getFullYear());
  const track = emptyTrack(viewpoint);
  return {
    version: 1,
    step: 1,
    idempotencyKey: newId(),
    artistProfileId: viewpoint.artistProfileId ?? null,
    release: {
      title: '',
      genre: '',
      releaseDate: '',
      coverArt: null,
      copyrightHolder: viewpoint.isPro ? '' : viewpoint.artistName,
      copyrightYear: year,
      publishingHolder: viewpoint.isPro ? '' : viewpoint.artistName,
      publishingYear: year,
      upc: '',
      labelName: '',
      originalReleaseDate: '',
    },
    tracks: [track],
    activeTrackId: track.id,
    platforms: [],
  };
}

/** A loaded draft seen through the user's plan today: basic users get the locked values back. */
export function applyPlanLocks(
  draft: BuilderDraft,
  viewpoint: Viewpoint,
  now: Date = new Date(),
): BuilderDraft {
  if (viewpoint.isPro) return draft;
  return { ...draft, release: { ...draft.release, ...lockedReleaseFields(viewpoint.artistName, now) } };
}

/** Grows the list with empty tracks or drops the last ones, to `count` (1 to 20). */
export function resizeTracks(draft: BuilderDraft, count: number, viewpoint: Viewpoint): BuilderDraft {
  const target = Math.min(LIMITS.tracksMax, Math.max(LIMITS.tracksMin, Math.trunc(count) || 1));
  const tracks =
    target <= draft.tracks.length
      ? draft.tracks.slice(0, target)
      : [
          ...draft.tracks,
          ...Array.from({ length: target - draft.tracks.length }, () => emptyTrack(viewpoint)),
        ];
  const isActiveKept = tracks.some((track) => track.id === draft.activeTrackId);
  return {
    ...draft,
    tracks,
    activeTrackId: isActiveKept ? draft.activeTrackId : (tracks.at(-1)?.id ?? null),
  };
}

export function moveTrack(draft: BuilderDraft, fromId: string, toId: string): BuilderDraft {
  const from = draft.tracks.findIndex((track) => track.id === fromId);
  const to = draft.tracks.findIndex((track) => track.id === toId);
  if (from < 0 || to < 0 || from === to) return draft;
  const tracks = [...draft.tracks];
  const [moved] = tracks.splice(from, 1);
  tracks.splice(to, 0, moved as TrackDraft);
  // The active tab follows the track that moved.
  return { ...draft, tracks, activeTrackId: fromId };
}

export function updateTrack(draft: BuilderDraft, id: string, change: Partial<TrackDraft>): BuilderDraft {
  return {
    ...draft,
    tracks: draft.tracks.map((track) => (track.id === id ? { ...track, ...change } : track)),
  };
}

export type AddArtistResult =
  | { outcome: 'added'; artists: ArtistDraft[] }
  | { outcome: 'duplicate' }
  | { outcome: 'track-limit' }
  | { outcome: 'release-limit' };

/**
 * Adds a primary or featured artist (§5): duplicates by name are ignored; primary artists stop at 4
 * per track, and across the release at 1 (basic) or 999 (Pro). On basic a blank name is the user's.
 */
export function addArtist(
  draft: BuilderDraft,
  trackId: string,
  list: 'primaryArtists' | 'featuredArtists',
  artist: ArtistDraft,
  viewpoint: Viewpoint,
): AddArtistResult {
  const track = draft.tracks.find((candidate) => candidate.id === trackId);
  if (!track) return { outcome: 'duplicate' };
  const name =
    artist.name.trim() || (list === 'primaryArtists' && !viewpoint.isPro ? viewpoint.artistName : '');
  if (!name) return { outcome: 'duplicate' };
  const current = track[list];
  if (current.some((existing) => existing.name.trim().toLowerCase() === name.toLowerCase())) {
    return { outcome: 'duplicate' };
  }
  if (list === 'primaryArtists') {
    const perTrack = viewpoint.isPro ? LIMITS.primaryArtistsPerTrack : LIMITS.primaryArtistsPerReleaseBasic;
    if (current.length >= perTrack) return { outcome: 'track-limit' };
    const releaseCap = viewpoint.isPro
      ? LIMITS.primaryArtistsPerReleasePro
      : LIMITS.primaryArtistsPerReleaseBasic;
    const others = draft.tracks
      .filter((candidate) => candidate.id !== trackId)
      .flatMap((t) => t.primaryArtists);
    const distinct = uniqueArtistsByName([...others, ...current, { ...artist, name }]);
    if (distinct.length > releaseCap) return { outcome: 'release-limit' };
  }
  return {
    outcome: 'added',
    artists: [
      ...current,
      { name, spotifyLink: artist.spotifyLink.trim(), appleMusicLink: artist.appleMusicLink.trim() },
    ],
  };
}

/** The distinct primary and featured artists of the whole release, for the summary. */
export function releaseArtists(draft: BuilderDraft) {
  return {
    primary: uniqueArtistsByName(draft.tracks.flatMap((track) => track.primaryArtists)),
    featured: uniqueArtistsByName(draft.tracks.flatMap((track) => track.featuredArtists)),
  };
}
