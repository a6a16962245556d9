/**
 * The answers of the v1 catalogue, submission and staff routes, for the OpenAPI document (issue 40,
 * record 293). Each equals the JSON its app route answers: openapi.test.ts fails the typecheck when a
 * route's answer and its schema differ.
 */
import {
  PLATFORM_IDS,
  RELEASE_STATUSES,
  SONGWRITER_ROLES,
  SUBSCRIPTION_STATUSES,
} from '@tunedrop/shared/constants';
import { AI_AREAS, AI_USAGES } from '@tunedrop/shared/schemas/ai-disclosure';
import { UPLOAD_KINDS } from '@tunedrop/shared/schemas/builder/uploads';
import { STORE_STATES } from '@tunedrop/shared/schemas/delivery/release-detail';
import { RELEASE_TIME_MODES, TERRITORY_MODES } from '@tunedrop/shared/schemas/release-availability';
import type { PayeeStatus } from '@tunedrop/shared/schemas/splits';
import { ACCOUNT_ROLES, MEMBER_ROLES } from '@tunedrop/shared/schemas/team-roles';
import { z } from 'zod';
import { mySongItem } from './responses';

const availability = z.object({
  releaseTimeMode: z.enum(RELEASE_TIME_MODES),
  releaseTime: z.string().nullable(),
  releaseTimeZone: z.string().nullable(),
  territoryMode: z.enum(TERRITORY_MODES),
  territories: z.array(z.string()),
  releaseAt: z.string().nullable(),
});
const songwriter = z.object({
  firstName: z.string(),
  middleName: z.string().nullable(),
  lastName: z.string(),
  role: z.string(),
});
const producer = z.object({ firstName: z.string(), middleName: z.string().nullable(), lastName: z.string() });
const artistCredit = z.object({
  name: z.string(),
  spotifyLink: z.string().optional(),
  appleMusicLink: z.string().optional(),
});
const storeRejection = z.object({ target: z.string(), reason: z.string(), at: z.string() });
const storeState = z.object({
  platformId: z.enum(PLATFORM_IDS),
  name: z.string(),
  state: z.enum(STORE_STATES),
  date: z.string().nullable(),
  message: z.string().nullable(),
  canRequestTakedown: z.boolean(),
  target: z.object({ id: z.string(), name: z.string() }).nullable(),
});
const statusChange = z.object({ status: z.string(), at: z.string(), note: z.string().nullable() });
const payeeStatus = z.enum(['pending', 'accepted', 'withdrawn']) satisfies z.ZodType<PayeeStatus>;
const splitShare = z.object({
  payeeId: z.string(),
  email: z.string(),
  status: payeeStatus,
  percent: z.string(),
});
const splitVersion = z.object({
  id: z.string(),
  trackId: z.string().nullable(),
  trackTitle: z.string().nullable(),
  version: z.number().int(),
  ownerPercent: z.string(),
  shares: z.array(splitShare),
  createdAt: z.string(),
  createdByEmail: z.string().nullable(),
});
const reviewedRelease = z.object({ status: z.enum(RELEASE_STATUSES), isTakedownRequested: z.boolean() });

/** GET, PATCH /releases/:id and POST /releases/:id/resubmit: the release as the edit form reads it. */
export const releaseFormAnswer = z.object({
  release: z.object({
    id: z.string(),
    title: z.string(),
    primaryArtists: z.array(z.string()),
    featuredArtists: z.array(z.string()),
    genre: z.string(),
    labelName: z.string().nullable(),
    copyrightHolder: z.string(),
    copyrightYear: z.number().int(),
    publishingHolder: z.string(),
    releaseDate: z.string(),
    availability: availability,
    status: z.enum(RELEASE_STATUSES),
    isEditable: z.boolean(),
    coverUrl: z.string().nullable(),
    tracks: z.array(
      z.object({
        id: z.string(),
        title: z.string(),
        explicit: z.boolean(),
        fileName: z.string(),
        durationMs: z.number().int().nullable(),
        primaryArtists: z.array(artistCredit),
        featuredArtists: z.array(artistCredit),
        songwriters: z.array(songwriter),
        producers: z.array(producer),
      }),
    ),
  }),
});
/** DELETE /releases/:id, PUT /releases/:id/tracks. */
export const okAnswer = z.object({ ok: z.literal(true) });
export const takedownAnswer = z.object({ release: mySongItem });
/** GET /releases/:id/detail and POST /releases/:id/store-takedowns: stores, deliveries and states. */
export const releaseDetailAnswer = z.object({
  id: z.string(),
  title: z.string(),
  status: z.enum(RELEASE_STATUSES),
  coverUrl: z.string().nullable(),
  primaryArtists: z.array(z.string()),
  featuredArtists: z.array(z.string()),
  genre: z.string(),
  releaseDate: z.string(),
  availability: availability,
  originalReleaseDate: z.string().nullable(),
  labelName: z.string().nullable(),
  copyrightHolder: z.string(),
  copyrightYear: z.number().int(),
  publishingHolder: z.string(),
  publishingYear: z.number().int(),
  upc: z.string().nullable(),
  codesPending: z.boolean(),
  takedownRequested: z.boolean(),
  rejectionReason: z.string().nullable(),
  isEditable: z.boolean(),
  tracks: z.array(
    z.object({
      id: z.string(),
      position: z.number().int(),
      title: z.string(),
      isrc: z.string().nullable(),
      explicit: z.boolean(),
      durationMs: z.number().int().nullable(),
      primaryArtists: z.array(z.string()),
      featuredArtists: z.array(z.string()),
      songwriters: z.array(songwriter),
      producers: z.array(producer),
    }),
  ),
  stores: z.array(storeState),
  storeRejections: z.array(storeRejection),
  statusHistory: z.array(statusChange),
});
export const releaseSplitsAnswer = z.object({
  releaseId: z.string(),
  releaseTitle: z.string(),
  ownerEmail: z.string(),
  isReasonRequired: z.boolean(),
  tracks: z.array(z.object({ id: z.string(), position: z.number().int(), title: z.string() })),
  current: z.array(splitVersion),
  history: z.array(splitVersion),
  payees: z.array(
    z.object({
      id: z.string(),
      email: z.string(),
      status: payeeStatus,
      invitedAt: z.string(),
      acceptedAt: z.string().nullable(),
      withdrawnAt: z.string().nullable(),
      heldCents: z.number().int(),
      paidCents: z.number().int(),
    }),
  ),
  expenses: z.array(
    z.object({
      id: z.string(),
      amountCents: z.number().int(),
      description: z.string(),
      spentOn: z.string(),
      createdAt: z.string(),
    }),
  ),
  recoupment: z.object({
    expensesCents: z.number().int(),
    recoupedCents: z.number().int(),
    remainingCents: z.number().int(),
  }),
  heldCents: z.number().int(),
});
export const teamAnswer = z.object({
  accountName: z.string(),
  viewerRole: z.enum(ACCOUNT_ROLES),
  members: z.array(
    z.object({
      userId: z.string(),
      name: z.string(),
      email: z.string(),
      role: z.enum(ACCOUNT_ROLES),
      joinedAt: z.string().nullable(),
    }),
  ),
  invitations: z.array(
    z.object({ id: z.string(), email: z.string(), role: z.enum(MEMBER_ROLES), expiresAt: z.string() }),
  ),
  limit: z.number().int(),
});
export const coverAnswer = z.object({ cover: z.object({ coverUrl: z.string(), originalName: z.string() }) });
export const audioAnswer = z.object({
  audio: z.object({
    trackId: z.string(),
    originalFileName: z.string(),
    durationMs: z.number().int().nullable(),
    fileSizeBytes: z.number().int(),
  }),
});
export const submittedReleaseAnswer = z.object({
  release: z.object({
    id: z.string(),
    title: z.string(),
    status: z.enum(RELEASE_STATUSES),
    createdAt: z.string(),
  }),
  isRepeat: z.boolean(),
});
export const uploadFactsAnswer = z.object({
  id: z.string(),
  kind: z.enum(UPLOAD_KINDS),
  status: z.enum(['uploading', 'checked', 'rejected', 'consumed', 'missing']),
  originalName: z.string(),
  sizeBytes: z.number().int(),
  receivedBytes: z.number().int(),
  error: z.string().nullable(),
  details: z.record(z.string(), z.union([z.string(), z.number()])).nullable(),
});
export const reviewQueueAnswer = z.object({
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
  items: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      status: z.enum(RELEASE_STATUSES),
      primaryArtists: z.array(artistCredit),
      featuredArtists: z.array(artistCredit),
      genre: z.string(),
      releaseDate: z.string(),
      availability: availability,
      originalReleaseDate: z.string().nullable(),
      labelName: z.string().nullable(),
      upc: z.string().nullable(),
      copyrightHolder: z.string(),
      copyrightYear: z.number().int(),
      publishingHolder: z.string(),
      publishingYear: z.number().int(),
      distributionStores: z.array(z.enum(PLATFORM_IDS)),
      rejectionReason: z.string().nullable(),
      isTakedownRequested: z.boolean(),
      takedownRequestedAt: z.string().nullable(),
      storeTakedownRequests: z.array(z.object({ platformId: z.enum(PLATFORM_IDS), requestedAt: z.string() })),
      storeRejections: z.array(storeRejection),
      createdAt: z.string(),
      coverUrl: z.string().nullable(),
      coverArtKey: z.string().nullable(),
      uploader: z.object({
        id: z.string(),
        email: z.string(),
        artistName: z.string(),
        isBanned: z.boolean(),
        banReason: z.string().nullable(),
        subscription: z.object({
          standing: z.enum(['active', 'exempt', 'ending', 'lapsed']),
          status: z.enum(SUBSCRIPTION_STATUSES),
          endsAt: z.string().nullable(),
        }),
      }),
      tracks: z.array(
        z.object({
          id: z.string(),
          position: z.number().int(),
          title: z.string(),
          isrc: z.string().nullable(),
          explicit: z.boolean(),
          durationMs: z.number().int().nullable(),
          originalFileName: z.string(),
          fileKey: z.string(),
          fileSizeBytes: z.number().int(),
          sampleRate: z.number().int().nullable(),
          bitDepth: z.number().int().nullable(),
          channels: z.number().int().nullable(),
          primaryArtists: z.array(artistCredit),
          featuredArtists: z.array(artistCredit),
          songwriters: z.array(
            z.object({
              firstName: z.string(),
              middleName: z.string().nullable(),
              lastName: z.string(),
              role: z.enum(SONGWRITER_ROLES),
            }),
          ),
          producers: z.array(producer),
          aiUsage: z.enum(AI_USAGES).nullable(),
          aiAreas: z.array(z.enum(AI_AREAS)),
          audioAnalysis: z
            .object({
              cutoffHz: z.number().int(),
              cutoffDropDb: z.number(),
              clippedRuns: z.number().int(),
              leadingSilenceMs: z.number().int(),
              trailingSilenceMs: z.number().int(),
            })
            .nullable(),
          audioUrl: z.string(),
        }),
      ),
    }),
  ),
  counts: z.object({
    pending: z.number().int(),
    rejected: z.number().int(),
    approved: z.number().int(),
    takedown: z.number().int(),
    takendown: z.number().int(),
  }),
  totalPages: z.number().int(),
});
/** POST /admin/releases/:id/approve and /reject. */
export const reviewedReleaseAnswer = z.object({ release: reviewedRelease });
