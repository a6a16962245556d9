/**
 * What a team member reads when the server refuses a Pro-only thing on a Basic account (issue 44, record
 * 274), over HTTP on the real database: a member cannot upgrade, so a direct API call answers that the
 * account does not include it and its owner can add it, never "upgrade"; the owner keeps the spec's texts.
 */
import { ARTIST_PROFILE_MESSAGES } from '@tunedrop/shared/schemas/artist-profile-rules';
import { BUILDER_MESSAGES } from '@tunedrop/shared/schemas/builder';
import { CONTENT_ID_MESSAGES } from '@tunedrop/shared/schemas/content-id';
import { MEMBER_LOCK_TEXTS } from '@tunedrop/shared/schemas/member-locks';
import { ANALYTICS_TEXTS } from '@tunedrop/shared/schemas/wallet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicSubmission, uploadReleaseFiles } from '../../test-support/builder-fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { joinTeam } from '../../test-support/team-fixtures';

let system: TestSystem;
type Person = Awaited<ReturnType<TestSystem['signedInUser']>>;
let owner: Person;
let ownerCookie: string;
let memberCookie: string;

beforeAll(async () => {
  system = await createTestSystem();
  owner = await system.signedInUser({ plan: 'basic', artistName: 'Basic Label' });
  ownerCookie = owner.cookie;
  const member = await system.signedInUser({ subscription: 'inactive', artistName: 'Member Own' });
  memberCookie = (await joinTeam(system, owner, 'admin', member)).acting;
});
afterAll(async () => {
  await system?.close();
});

/** The refusal's status, code and message. */
async function refusal(response: Response) {
  const body = (await readJson(response)) as { error: { code: string; message: string } };
  return { status: response.status, code: body.error.code, message: body.error.message };
}

const upgradeWords = /upgrade|Pro plan|Basic/i;

describe("a Basic account's Pro-only things, refused by the server", () => {
  it('Analytics: the member is told the account does not include them; the owner is offered Pro', async () => {
    const asMember = await refusal(await system.request('/api/analytics', { cookie: memberCookie }));
    expect(asMember).toEqual({ status: 403, code: 'pro_required', message: MEMBER_LOCK_TEXTS.analytics });
    expect(asMember.message).not.toMatch(upgradeWords);
    const asOwner = await refusal(await system.request('/api/analytics', { cookie: ownerCookie }));
    expect(asOwner.message).toBe(ANALYTICS_TEXTS.proOnly);
  });

  it('Content ID', async () => {
    const asMember = await refusal(
      await system.request('/api/content-id/channels', { cookie: memberCookie }),
    );
    expect(asMember).toEqual({ status: 403, code: 'pro_required', message: MEMBER_LOCK_TEXTS.contentId });
    const asOwner = await refusal(await system.request('/api/content-id/channels', { cookie: ownerCookie }));
    expect(asOwner.message).toBe(CONTENT_ID_MESSAGES.proOnly);
  });

  it('a second artist profile', async () => {
    const add = (cookie: string) =>
      system.request('/api/artist-profiles', { method: 'POST', cookie, json: { name: 'Second Act' } });
    const asMember = await refusal(await add(memberCookie));
    expect(asMember).toMatchObject({ status: 403, message: MEMBER_LOCK_TEXTS.artistProfiles });
    expect(asMember.message).not.toMatch(upgradeWords);
    expect((await refusal(await add(ownerCookie))).message).toBe(ARTIST_PROFILE_MESSAGES.limitBasic);
  });

  it("a release with a UPC and a second primary artist: each field says the account's owner can add it", async () => {
    const files = await uploadReleaseFiles(system, memberCookie, 1);
    const submission = basicSubmission(files, { artistName: 'Basic Label' });
    const withPro = {
      ...submission,
      release: { ...submission.release, upc: '5012345678900' },
      tracks: submission.tracks.map((track) => ({
        ...track,
        primaryArtists: [{ name: 'Basic Label' }, { name: 'Guest Star' }],
      })),
    };
    const submit = (cookie: string) =>
      system.request('/api/builder/releases', { method: 'POST', cookie, json: withPro });
    const memberResponse = await submit(memberCookie);
    const asMember = (await readJson(memberResponse)) as {
      error: { fields: Record<string, string> };
    };
    expect(memberResponse.status).toBe(422);
    expect(asMember.error.fields['release.upc']).toBe(MEMBER_LOCK_TEXTS.feature);
    expect(asMember.error.fields.tracks).toBe(MEMBER_LOCK_TEXTS.primaryArtists);
    for (const message of Object.values(asMember.error.fields)) expect(message).not.toMatch(upgradeWords);
    const asOwner = (await readJson(await submit(ownerCookie))) as {
      error: { fields: Record<string, string> };
    };
    expect(asOwner.error.fields['release.upc']).toBe(BUILDER_MESSAGES.proFeature);
    expect(asOwner.error.fields.tracks).toBe(BUILDER_MESSAGES.basicOnePrimaryArtist);
  });
});
