/**
 * An artist profile's store ids, Spotify artist key and "new on the store" choice (issue 41, record 297):
 * each id checked by its format (a link gives its id), one store never both an id and new, all returned.
 */
import { ARTIST_PROFILE_MESSAGES } from '@tunedrop/shared/schemas/artist-profiles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem();
});
afterAll(async () => system?.close());

const SPOTIFY = '0OdUWJ0sBjDrqHygGUXeCF';

describe('artist profile store ids', () => {
  it('saves every store id from an id or a link, the artist key and the new-on-store choice', async () => {
    const user = await system.signedInUser({ plan: 'basic', artistName: 'Mira Vale' });
    const [profile] = (await readJson(await system.request('/api/artist-profiles', { cookie: user.cookie })))
      .profiles;
    const patch = (json: unknown) =>
      system.request(`/api/artist-profiles/${profile.id}`, { method: 'PATCH', cookie: user.cookie, json });

    const saved = await patch({
      name: 'Mira Vale',
      spotifyArtistId: `https://open.spotify.com/artist/${SPOTIFY}`,
      deezerArtistId: 'https://www.deezer.com/fr/artist/27',
      amazonArtistId: 'https://music.amazon.com/artists/B000QJPXPQ/mira-vale',
      youtubeChannelId: 'https://www.youtube.com/channel/UCabcdefghijklmnopqrstuv',
      spotifyArtistKey: 'app-key_0123456789',
      newOnStores: ['apple_music'],
    });
    expect(saved.status, await saved.clone().text()).toBe(200);
    expect((await readJson(saved)).profile).toMatchObject({
      spotifyArtistId: SPOTIFY,
      appleArtistId: null,
      deezerArtistId: '27',
      amazonArtistId: 'B000QJPXPQ',
      youtubeChannelId: 'UCabcdefghijklmnopqrstuv',
      spotifyArtistKey: 'app-key_0123456789',
      newOnStores: ['apple_music'],
    });

    const bad = await patch({
      name: 'Mira Vale',
      deezerArtistId: 'deezer-27',
      amazonArtistId: 'A123',
      youtubeChannelId: 'channel',
      spotifyArtistKey: 'no spaces please',
    });
    expect(bad.status).toBe(422);
    expect((await readJson(bad)).error.fields).toMatchObject({
      deezerArtistId: ARTIST_PROFILE_MESSAGES.deezerInvalid,
      amazonArtistId: ARTIST_PROFILE_MESSAGES.amazonInvalid,
      youtubeChannelId: ARTIST_PROFILE_MESSAGES.youtubeInvalid,
      spotifyArtistKey: ARTIST_PROFILE_MESSAGES.spotifyKeyInvalid,
    });

    const both = await patch({ name: 'Mira Vale', spotifyArtistId: SPOTIFY, newOnStores: ['spotify'] });
    expect(both.status).toBe(422);
    expect((await readJson(both)).error.fields).toMatchObject({
      newOnStores: ARTIST_PROFILE_MESSAGES.newAndIdBoth('Spotify'),
    });
    // Nothing changed by the refused requests.
    const after = (await readJson(await system.request('/api/artist-profiles', { cookie: user.cookie })))
      .profiles[0];
    expect(after).toMatchObject({ deezerArtistId: '27', newOnStores: ['apple_music'] });
  });
});
