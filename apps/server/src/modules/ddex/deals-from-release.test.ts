/**
 * Release time and territories reach the deals (issue 26 finding 7, records 319 and 199): a release row's
 * territory list and worldwide moment, read by release-data.ts, are the TerritoryCode or
 * ExcludedTerritoryCode and the StartDateTime of every deal of its package message; the default is
 * Worldwide from the release date. Every ISO code the artist can choose is one the ERN 4.3 schema takes.
 */
import { COUNTRY_CODES } from '@tunedrop/shared/schemas/release-availability';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artistProfiles, releases } from '../../db/schema';
import { validateErn43 } from '../../test-support/ddex';
import { createTestRelease, createTestUser } from '../../test-support/fixtures';
import { createTestSystem, type TestSystem } from '../../test-support/harness';
import { packageXml, planPackage } from './package';

let system: TestSystem;
let userId: string;
let lastXml = '';

beforeAll(async () => {
  system = await createTestSystem();
  ({ userId } = await createTestUser(system));
}, 60_000);

afterAll(async () => {
  await system?.close();
});

async function messageOf(
  columns: Partial<typeof releases.$inferInsert>,
  profile?: Partial<typeof artistProfiles.$inferInsert>,
) {
  const { releaseId } = await createTestRelease(system, userId, {
    releaseDate: '2027-03-05',
    distributionStores: ['spotify', 'itunes'],
  });
  if (Object.keys(columns).length > 0)
    await system.db.update(releases).set(columns).where(eq(releases.id, releaseId));
  if (profile) {
    const [row] = await system.db.select().from(releases).where(eq(releases.id, releaseId));
    await system.db
      .update(artistProfiles)
      .set(profile)
      .where(eq(artistProfiles.id, row?.artistProfileId ?? ''));
  }
  const at = new Date('2027-02-01T00:00:00Z');
  const plan = await planPackage(system.db, releaseId, { at, withResources: false, isStaged: false });
  const xml = packageXml(plan, {
    sender: { partyId: 'PADPIDA2013042401U', name: 'Tunedrop' },
    target: { dpid: 'PADPIDA2009101501Y', name: 'Store' },
    platforms: ['spotify', 'itunes'],
    files: [],
    messageId: 'TD-H2-AVAIL',
    at,
  });
  lastXml = xml;
  const validation = validateErn43(xml);
  expect(validation.status, validation.report).toBe(0);
  const terms = [...xml.matchAll(/<DealTerms>([\s\S]*?)<\/DealTerms>/g)].map((match) => match[1] ?? '');
  // Spotify's streaming deal and iTunes' download deal.
  expect(terms).toHaveLength(2);
  return terms;
}

const all = (text: string, name: string) =>
  [...text.matchAll(new RegExp(`<${name}>([^<]+)</${name}>`, 'g'))].map((match) => match[1]);

describe('territories and release time from the release row', () => {
  it('by default: Worldwide, from the release date', async () => {
    for (const terms of await messageOf({})) {
      expect(all(terms, 'TerritoryCode')).toEqual(['Worldwide']);
      expect(all(terms, 'StartDate')).toEqual(['2027-03-05']);
      expect(terms).not.toContain('StartDateTime');
    }
  });

  it('everywhere except a list, from one moment worldwide', async () => {
    const terms = await messageOf({
      territoryMode: 'exclude',
      territories: ['CN', 'RU'],
      releaseTimeMode: 'worldwide_moment',
      releaseTime: '00:00',
      releaseTimeZone: 'America/New_York',
      releaseAt: new Date('2027-03-05T05:00:00Z'),
    });
    for (const each of terms) {
      expect(all(each, 'TerritoryCode')).toEqual([]);
      expect(all(each, 'ExcludedTerritoryCode')).toEqual(['CN', 'RU']);
      expect(all(each, 'StartDateTime')).toEqual(['2027-03-05T05:00:00Z']);
      expect(all(each, 'StartDate')).toEqual([]);
    }
  });

  it('only the listed countries: every ISO code offered is valid ERN 4.3', async () => {
    const terms = await messageOf({ territoryMode: 'include', territories: [...COUNTRY_CODES] });
    for (const each of terms) expect(all(each, 'TerritoryCode')).toEqual([...COUNTRY_CODES].sort());
  });

  it("the artist profile's Spotify and Apple ids reach the main artist's Party", async () => {
    await messageOf(
      {},
      { name: 'Test Artist', spotifyArtistId: '4q3ewBCX7sLwd24euuV69X', appleArtistId: '1234567890' },
    );
    const party =
      /<Party>\s*<PartyReference>(P\d+)<\/PartyReference>\s*<PartyName>\s*<FullName>Test Artist<\/FullName>[\s\S]*?<\/Party>/.exec(
        lastXml,
      );
    expect(party?.[0]).toContain(
      '<ProprietaryId Namespace="PADPIDA2011072101T">spotify:artist:4q3ewBCX7sLwd24euuV69X</ProprietaryId>',
    );
    expect(party?.[0]).toContain('<ProprietaryId Namespace="music.apple.com">1234567890</ProprietaryId>');
    // One Party for the artist, however many credits name them.
    expect(lastXml.match(/<FullName>Test Artist<\/FullName>/g)).toHaveLength(1);
  });
});
