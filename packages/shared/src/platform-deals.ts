/**
 * What each store does with a release, in ERN 4.3 words (issue 26 finding 6, record 198): the commercial
 * models and use types of its offers. The ERN builder makes one Deal per distinct offer and lists in it
 * only the stores that make that offer, so a PermanentDownload deal never names a stream-only store.
 * Values are from the vendored ERN 4.3 allowed-value sets (CommercialModelType_ERN, UseType_ERN).
 * Stores not covered by a published spec get the offer their service plainly is (streaming, paid
 * streaming, downloads, or a library users add to their own videos); a store's feed agreement wins.
 */
import type { PlatformId } from './constants';

export type DealCommercialModel = 'SubscriptionModel' | 'AdvertisementSupportedModel' | 'PayAsYouGoModel';

export type DealUseType =
  | 'OnDemandStream'
  | 'NonInteractiveStream'
  | 'PermanentDownload'
  | 'UserMakeAvailableLabelProvided';

/** One offer: every listed use under every listed model (a DealTerms' CommercialModelType × UseType). */
export type PlatformOffer = {
  readonly models: readonly DealCommercialModel[];
  readonly uses: readonly DealUseType[];
};

/** Interactive and radio-style streaming, free with ads and paid. */
const STREAMING: PlatformOffer = {
  models: ['SubscriptionModel', 'AdvertisementSupportedModel'],
  uses: ['OnDemandStream', 'NonInteractiveStream'],
};
/** The same, for services with no free tier. */
const PAID_STREAMING: PlatformOffer = {
  models: ['SubscriptionModel'],
  uses: ['OnDemandStream', 'NonInteractiveStream'],
};
/** Track and album sales (iTunes Store, Amazon MP3, Qobuz's store). */
const DOWNLOAD: PlatformOffer = { models: ['PayAsYouGoModel'], uses: ['PermanentDownload'] };
/** A music library users add to their own videos and posts; the label provides the files. */
const USER_CREATIONS: PlatformOffer = {
  models: ['AdvertisementSupportedModel'],
  uses: ['UserMakeAvailableLabelProvided'],
};

/** Every platform of PLATFORMS, with its offers (the type makes a missing platform a compile error). */
export const PLATFORM_DEALS: Readonly<Record<PlatformId, readonly PlatformOffer[]>> = {
  spotify: [STREAMING],
  apple_music: [PAID_STREAMING],
  itunes: [DOWNLOAD],
  instagram: [USER_CREATIONS],
  tiktok: [USER_CREATIONS],
  // The Art Track deal of YouTube's own feed (ern-youtube.ts) is this offer too.
  youtube_music: [{ models: ['SubscriptionModel', 'AdvertisementSupportedModel'], uses: ['OnDemandStream'] }],
  amazon: [STREAMING, DOWNLOAD],
  pandora: [STREAMING],
  deezer: [STREAMING],
  tidal: [PAID_STREAMING],
  iheart: [STREAMING],
  claro: [PAID_STREAMING],
  saavn: [STREAMING],
  boomplay: [STREAMING],
  anghami: [STREAMING],
  netease: [STREAMING],
  tencent: [STREAMING],
  qobuz: [PAID_STREAMING, DOWNLOAD],
  joox: [STREAMING],
  kuack: [PAID_STREAMING],
  // Programmed music for fitness and business apps: no on-demand choice of track.
  adaptr: [{ models: ['SubscriptionModel'], uses: ['NonInteractiveStream'] }],
  flo: [PAID_STREAMING],
  medianet: [PAID_STREAMING, DOWNLOAD],
  snapchat: [USER_CREATIONS],
  roblox: [USER_CREATIONS],
};

const offerKey = (offer: PlatformOffer) => `${offer.models.join('+')}|${offer.uses.join('+')}`;

/**
 * The deals for a set of stores: one per distinct offer, naming the stores that make it, in the order the
 * offers first appear (stores in the order given). Unknown store ids get no deal.
 */
export function dealsForPlatforms(
  platforms: readonly string[],
): { offer: PlatformOffer; platforms: PlatformId[] }[] {
  const deals = new Map<string, { offer: PlatformOffer; platforms: PlatformId[] }>();
  for (const platform of new Set(platforms)) {
    if (!Object.hasOwn(PLATFORM_DEALS, platform)) continue;
    const id = platform as PlatformId;
    for (const offer of PLATFORM_DEALS[id]) {
      const key = offerKey(offer);
      const deal = deals.get(key) ?? { offer, platforms: [] };
      deal.platforms.push(id);
      deals.set(key, deal);
    }
  }
  return [...deals.values()];
}

/** Whether a store sells downloads (PermanentDownload in one of its offers). */
export const sellsDownloads = (platform: PlatformId): boolean =>
  PLATFORM_DEALS[platform].some((offer) => offer.uses.includes('PermanentDownload'));
