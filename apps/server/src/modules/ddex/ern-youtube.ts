/**
 * The YouTube profile of the ERN 4.3 message (issue 28, record 192): YouTube streams and claims per
 * track, so each track is also a TrackRelease, and the deals sit on those: the Art Track deal
 * (SubscriptionModel + AdvertisementSupportedModel, OnDemandStream) when the release goes to YouTube
 * Music, and the Content ID deal (AdvertisementSupportedModel, UserMakeAvailableUserProvided, a Monetize
 * rights claim policy) for a track the artist opted in. A track opted out keeps its Content ID deal with
 * an end date, so the update withdraws it explicitly. Values are the vendored ERN 4.3 AVS's.
 */
import { PLATFORM_DEALS } from '@tunedrop/shared/platform-deals';
import { type DealScope, territoryTerms, validityPeriod } from './deals';
import { el, type XmlElement } from './xml';

/** YouTube's registered DDEX party ids ("Message Header", support.google.com/youtube/answer/3505274). */
export const YOUTUBE_PARTIES = {
  youtube: { partyId: 'PADPIDA2013020802I', name: 'YouTube' },
  contentId: { partyId: 'PADPIDA2015120100H', name: 'YouTube_ContentID' },
} as const;

/** The platform whose selection gives a release YouTube's Art Track (streaming) deal. */
export const YOUTUBE_ART_TRACK_PLATFORM = 'youtube_music' as const;

/** A track's Content ID choice as the message carries it: opted in, or opted out on a day. */
export type ErnContentId = { isOptedIn: boolean; optedOutOn: string | null };

/** What these deals read of the message's release (ern.ts's ErnRelease has it; no import, no cycle). */
type YoutubeTrack = { id: string; title: string; contentId?: ErnContentId | null };
type YoutubeRelease = DealScope & {
  id: string;
  genre: string;
  distributionStores: string[];
  tracks: YoutubeTrack[];
};

/*
 * Ownership territories: YouTube sets the asset's ownership from the deal's TerritoryCode, so every deal
 * carries the release's territories (worldwide unless the artist chose a list, record 319) and starts at
 * its release date or release moment (deals.ts).
 */

export const trackReleaseReference = (index: number) => `R${index + 1}`;

export function youtubeTrackReleases(
  release: YoutubeRelease,
  context: { sender: string; labelRef: string },
): XmlElement[] {
  return release.tracks.map((track, index) =>
    el(
      'TrackRelease',
      el('ReleaseReference', trackReleaseReference(index)),
      el('ReleaseId', el('ProprietaryId', { Namespace: context.sender }, `${release.id}:${track.id}`)),
      el('DisplayTitleText', track.title),
      el('ReleaseResourceReference', `A${index + 1}`),
      el(
        'ReleaseLabelReference',
        { ApplicableTerritoryCode: 'Worldwide', IsDefault: true },
        context.labelRef,
      ),
      el('Genre', { ApplicableTerritoryCode: 'Worldwide' }, el('GenreText', release.genre)),
    ),
  );
}

const hasArtTracks = (release: YoutubeRelease) =>
  release.distributionStores.includes(YOUTUBE_ART_TRACK_PLATFORM);

/** Deals for one track: the Art Track deal and the Content ID deal (withdrawn with an end date). */
export function youtubeTrackDeals(release: YoutubeRelease, track: YoutubeTrack): XmlElement[] {
  const deals: XmlElement[] = [];
  if (hasArtTracks(release)) {
    // YouTube Music's offer in the one capability table (packages/shared platform-deals.ts).
    for (const offer of PLATFORM_DEALS[YOUTUBE_ART_TRACK_PLATFORM]) {
      deals.push(
        el(
          'Deal',
          el(
            'DealTerms',
            ...territoryTerms(release),
            validityPeriod(release),
            ...offer.models.map((model) => el('CommercialModelType', model)),
            ...offer.uses.map((use) => el('UseType', use)),
          ),
        ),
      );
    }
  }
  const contentId = track.contentId;
  if (contentId) {
    // Withdrawn: the deal ends on the day the artist opted out (never before it started, deals.ts).
    const end = contentId.isOptedIn ? null : { date: contentId.optedOutOn ?? release.releaseDate };
    deals.push(
      el(
        'Deal',
        el(
          'DealTerms',
          ...territoryTerms(release),
          validityPeriod(release, end),
          el('CommercialModelType', 'AdvertisementSupportedModel'),
          el('UseType', 'UserMakeAvailableUserProvided'),
          el('RightsClaimPolicy', el('RightsClaimPolicyType', 'Monetize')),
        ),
      ),
    );
  }
  return deals;
}

/** The DealList of the YouTube profile: one ReleaseDeal per TrackRelease with a deal; none = takedown. */
export function youtubeDealList(release: YoutubeRelease): XmlElement | null {
  const releaseDeals = release.tracks.flatMap((track, index) => {
    const deals = youtubeTrackDeals(release, track);
    return deals.length > 0
      ? [el('ReleaseDeal', el('DealReleaseReference', trackReleaseReference(index)), ...deals)]
      : [];
  });
  return releaseDeals.length > 0 ? el('DealList', ...releaseDeals) : null;
}

/**
 * YouTube_ContentID is a recipient too when the message carries a Content ID deal (YouTube's "Message
 * Header": a feed for both YouTube Premium and Content ID names both), unless it is the target itself.
 */
export function youtubeExtraRecipients(release: YoutubeRelease, recipientPartyId: string) {
  const hasContentId = release.tracks.some((track) => track.contentId);
  return hasContentId && recipientPartyId !== YOUTUBE_PARTIES.contentId.partyId
    ? [YOUTUBE_PARTIES.contentId]
    : [];
}
