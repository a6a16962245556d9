/**
 * The answers of the main v1 routes as schemas for the OpenAPI document (record 293). Each equals the
 * TypeScript type its handler answers with: the `Same` checks below fail the typecheck when a handler's
 * answer changes without its schema. The other routes' answers are in responses-catalogue.ts,
 * responses-money.ts and responses-webhooks.ts, checked against the routes' RPC types in openapi.test.ts.
 */
import { RELEASE_STATUSES } from '@tunedrop/shared/constants';
import { NEW_ON_STORES } from '@tunedrop/shared/schemas/artist-profile-rules';
import type { ArtistProfile, ArtistProfileList } from '@tunedrop/shared/schemas/artist-profiles';
import type { MySongsPage } from '@tunedrop/shared/schemas/releases';
import { z } from 'zod';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const same = <_T extends true>() => undefined;

export const mySongItem = z.object({
  id: z.string(),
  title: z.string(),
  primaryArtists: z.array(z.string()),
  trackCount: z.number().int(),
  status: z.enum(RELEASE_STATUSES),
  isTakedownPending: z.boolean(),
  rejectionReason: z.string().nullable(),
  coverUrl: z.string().nullable(),
  storeRejections: z.array(z.object({ target: z.string(), reason: z.string(), at: z.string() })),
  updateInReview: z.boolean(),
});
export const releasesPage = z.object({ items: z.array(mySongItem), nextCursor: z.string().nullable() });
same<Same<z.infer<typeof releasesPage>, MySongsPage>>();

const artistProfile = z.object({
  id: z.string(),
  name: z.string(),
  position: z.number().int(),
  isFirst: z.boolean(),
  spotifyArtistId: z.string().nullable(),
  appleArtistId: z.string().nullable(),
  deezerArtistId: z.string().nullable(),
  amazonArtistId: z.string().nullable(),
  youtubeChannelId: z.string().nullable(),
  spotifyArtistKey: z.string().nullable(),
  newOnStores: z.array(z.enum(NEW_ON_STORES)),
  imageUrl: z.string().nullable(),
  canRelease: z.boolean(),
  releaseCount: z.number().int(),
});
same<Same<z.infer<typeof artistProfile>, ArtistProfile>>();

export const artistProfileList = z.object({
  profiles: z.array(artistProfile),
  canAdd: z.boolean(),
  limit: z.number().int().nullable(),
});
same<Same<z.infer<typeof artistProfileList>, ArtistProfileList>>();

export const oneArtistProfile = z.object({ profile: artistProfile });
