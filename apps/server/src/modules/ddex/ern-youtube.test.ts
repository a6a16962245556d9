/**
 * YouTube's feed (issue 28, record 192): a TrackRelease per track, the Art Track deal when the release
 * goes to YouTube Music, the Content ID deal only for tracks opted in, its withdrawal with an end date,
 * YouTube_ContentID among the recipients; every message valid against the vendored ERN 4.3 schema.
 */
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { validateErn43 } from '../../test-support/ddex';
import { ernRelease, ernTrack } from '../../test-support/ern-fixtures';
import { buildErnMessage, type ErnRelease, type ErnTrack } from './ern';
import { YOUTUBE_PARTIES } from './ern-youtube';

const track = (position: number, contentId: ErnTrack['contentId'] = null): ErnTrack =>
  ernTrack(position, { contentId });

const release = (overrides: Partial<ErnRelease> = {}): ErnRelease =>
  ernRelease({
    distributionStores: ['youtube_music'],
    tracks: [track(1, { isOptedIn: true, optedOutOn: null }), track(2)],
    dealProfile: 'youtube',
    ...overrides,
  });

const parties = {
  senderPartyId: 'PADPIDA2013042401U',
  senderName: 'Tunedrop',
  recipientPartyId: YOUTUBE_PARTIES.youtube.partyId,
  recipientName: 'YouTube',
};

const build = (value: ErnRelease) =>
  buildErnMessage(value, parties, { messageId: 'TD1', createdAt: new Date('2026-11-25T00:00:00Z') });

const parser = new XMLParser({
  removeNSPrefix: true,
  parseTagValue: false,
  ignoreAttributes: false,
  isArray: (name) =>
    ['TrackRelease', 'ReleaseDeal', 'Deal', 'CommercialModelType', 'UseType', 'MessageRecipient'].includes(
      name,
    ),
});

type Terms = {
  TerritoryCode: string;
  ValidityPeriod: { StartDate: string; EndDate?: string };
  CommercialModelType: string[];
  UseType: string[];
  RightsClaimPolicy?: { RightsClaimPolicyType: string };
};
type ReleaseDeal = { DealReleaseReference: string; Deal: { DealTerms: Terms }[] };

function read(xml: string) {
  const doc = parser.parse(xml).NewReleaseMessage;
  const deals = (doc.DealList?.ReleaseDeal ?? []) as ReleaseDeal[];
  const dealsOf = (reference: string) =>
    deals.find((deal) => deal.DealReleaseReference === reference)?.Deal.map((deal) => deal.DealTerms) ?? [];
  return { doc, deals, dealsOf };
}

const isContentIdDeal = (terms: Terms) => terms.UseType.includes('UserMakeAvailableUserProvided');

describe('the ERN of a YouTube target', () => {
  it('lists each track as a TrackRelease of its sound recording, beside the album', () => {
    const { doc } = read(build(release()));
    expect(doc.ReleaseList.Release.ReleaseReference).toBe('R0');
    const trackReleases = doc.ReleaseList.TrackRelease as {
      ReleaseReference: string;
      ReleaseResourceReference: string;
    }[];
    expect(trackReleases.map((t) => [t.ReleaseReference, t.ReleaseResourceReference])).toEqual([
      ['R1', 'A1'],
      ['R2', 'A2'],
    ]);
  });

  it('gives every track the Art Track deal and only the opted-in track the Content ID deal', () => {
    const { dealsOf, deals } = read(build(release()));
    expect(deals.map((deal) => deal.DealReleaseReference)).toEqual(['R1', 'R2']);
    const artTrack = {
      TerritoryCode: 'Worldwide',
      ValidityPeriod: { StartDate: '2026-12-12' },
      CommercialModelType: ['SubscriptionModel', 'AdvertisementSupportedModel'],
      UseType: ['OnDemandStream'],
    };
    expect(dealsOf('R1')).toEqual([
      artTrack,
      {
        TerritoryCode: 'Worldwide',
        ValidityPeriod: { StartDate: '2026-12-12' },
        CommercialModelType: ['AdvertisementSupportedModel'],
        UseType: ['UserMakeAvailableUserProvided'],
        RightsClaimPolicy: { RightsClaimPolicyType: 'Monetize' },
      },
    ]);
    expect(dealsOf('R2')).toEqual([artTrack]);
  });

  it('without YouTube Music, only the opted-in track has a deal: the Content ID one', () => {
    const { deals, dealsOf } = read(build(release({ distributionStores: ['spotify'] })));
    expect(deals.map((deal) => deal.DealReleaseReference)).toEqual(['R1']);
    expect(dealsOf('R1').every(isContentIdDeal)).toBe(true);
  });

  it('an opted-out track keeps its Content ID deal with an end date: the update withdraws it', () => {
    const xml = build(
      release({ tracks: [track(1, { isOptedIn: false, optedOutOn: '2027-01-05' }), track(2)] }),
    );
    const contentId = read(xml).dealsOf('R1').filter(isContentIdDeal);
    expect(contentId).toHaveLength(1);
    expect(contentId[0]?.ValidityPeriod).toEqual({ StartDate: '2026-12-12', EndDate: '2027-01-05' });
    // Opted out before the release date: the deal ends the day it starts.
    const early = build(release({ tracks: [track(1, { isOptedIn: false, optedOutOn: '2026-12-01' })] }));
    expect(read(early).dealsOf('R1').filter(isContentIdDeal)[0]?.ValidityPeriod.EndDate).toBe('2026-12-12');
    expect(validateErn43(xml).status, validateErn43(xml).report).toBe(0);
  });

  it('addresses YouTube_ContentID too when a Content ID deal is carried, and no one else without one', () => {
    const recipients = (xml: string) =>
      (read(xml).doc.MessageHeader.MessageRecipient as { PartyId: string }[]).map((r) => r.PartyId);
    expect(recipients(build(release()))).toEqual([
      YOUTUBE_PARTIES.youtube.partyId,
      YOUTUBE_PARTIES.contentId.partyId,
    ]);
    expect(recipients(build(release({ tracks: [track(1)] })))).toEqual([YOUTUBE_PARTIES.youtube.partyId]);
  });

  it('a takedown (no store, no Content ID) carries no DealList at all', () => {
    const { doc } = read(build(release({ distributionStores: [], tracks: [track(1), track(2)] })));
    expect(doc.DealList).toBeUndefined();
  });

  it('other targets get the release deals of before, without TrackReleases', () => {
    const { doc } = read(build(release({ dealProfile: 'stores' })));
    expect(doc.ReleaseList.TrackRelease).toBeUndefined();
    expect((doc.DealList.ReleaseDeal as ReleaseDeal[]).map((d) => d.DealReleaseReference)).toEqual(['R0']);
    expect(build(release({ dealProfile: 'stores' }))).not.toContain('UserMakeAvailableUserProvided');
  });

  it('validates against the vendored ERN 4.3 schema, with and without Content ID', () => {
    for (const value of [release(), release({ distributionStores: [] }), release({ tracks: [track(1)] })]) {
      const result = validateErn43(build(value));
      expect(result.status, result.report).toBe(0);
    }
  });
});
