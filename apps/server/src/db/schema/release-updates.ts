/** Post-release edits waiting for review or decided (issue 26, record 197; migration 0051). */
import type { SongwriterRole } from '@tunedrop/shared';
import type { AudioAnalysis } from '@tunedrop/shared/schemas/audio-checks';
import { RELEASE_UPDATE_STATES, type ReleaseUpdateState } from '@tunedrop/shared/schemas/release-updates';
import type { EditRelease } from '@tunedrop/shared/schemas/releases';
import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { user } from './auth';
import { createdAt, inList, updatedAt } from './columns';
import { type ArtistCredit, releases } from './releases';

/** The release's values the update changes, as they were when it was proposed (the diff's "before"). */
export type ReleaseUpdateBefore = {
  details: EditRelease;
  coverArtKey: string | null;
  coverThumbMediumKey: string | null;
  tracks: {
    id: string;
    title: string;
    originalFileName: string;
    /** The track's credits and ISRC as shown in the diff, on a track whose credits the update changes. */
    credits?: TrackCreditTexts;
  }[];
};

/** A track's credits and ISRC as the diff shows them (record 236). */
export type TrackCreditTexts = {
  isrc: string;
  primaryArtists: string;
  featuredArtists: string;
  songwriters: string;
  producers: string;
};

/** A track's credits (performers, songwriters, producers) and ISRC after the update (record 236). */
export type ProposedTrackCredits = {
  trackId: string;
  /** The new ISRC; absent when it stays. */
  isrc?: string;
  primaryArtists: ArtistCredit[];
  featuredArtists: ArtistCredit[];
  songwriters: { firstName: string; middleName: string | null; lastName: string; role: SongwriterRole }[];
  producers: { firstName: string; middleName: string | null; lastName: string }[];
};

/** A proposed cover, already in storage (the checked upload's keys). */
export type ProposedCover = {
  uploadId: string;
  artKey: string;
  thumbSmallKey: string | null;
  thumbMediumKey: string | null;
  originalName: string;
};

/** A proposed WAV for one track, copied into storage under a key no track uses. */
export type ProposedAudio = {
  trackId: string;
  uploadId: string;
  fileKey: string;
  originalFileName: string;
  fileSizeBytes: number;
  durationMs: number | null;
  sampleRate: number | null;
  bitDepth: number | null;
  channels: number | null;
  audioAnalysis?: AudioAnalysis | null;
};

export const releaseUpdates = pgTable(
  'release_updates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    releaseId: uuid('release_id')
      .notNull()
      .references(() => releases.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    state: text('state').$type<ReleaseUpdateState>().notNull().default('in_review'),
    before: jsonb('before').$type<ReleaseUpdateBefore>().notNull(),
    /** The release's details after the update (plan locks applied), or null when they do not change. */
    details: jsonb('details').$type<EditRelease>(),
    cover: jsonb('cover').$type<ProposedCover>(),
    audio: jsonb('audio').$type<ProposedAudio[]>().notNull().default(sql`'[]'::jsonb`),
    tracks: jsonb('tracks').$type<ProposedTrackCredits[]>().notNull().default(sql`'[]'::jsonb`),
    rejectionReason: text('rejection_reason'),
    decidedBy: text('decided_by'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('release_updates_state_check', inList('state', RELEASE_UPDATE_STATES)),
    uniqueIndex('release_updates_one_in_review').on(t.releaseId).where(sql`state = 'in_review'`),
    index('release_updates_state_created_idx').on(t.state, t.createdAt),
  ],
);
