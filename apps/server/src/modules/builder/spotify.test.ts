/** Artist search and lookup through the API against a local fake of the Spotify Web API. */
import { BUILDER_MESSAGES } from '@tunedrop/shared/schemas/builder';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSpotify, startFakeSpotify } from '../../test-support/builder-fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';

let spotify: FakeSpotify;
let system: TestSystem;
let cookie: string;

beforeAll(async () => {
  spotify = await startFakeSpotify();
  system = await createTestSystem({
    SPOTIFY_CLIENT_ID: 'client-id',
    SPOTIFY_CLIENT_SECRET: 'client-secret',
    SPOTIFY_API_BASE: spotify.url,
    SPOTIFY_ACCOUNTS_BASE: spotify.url,
  });
  ({ cookie } = await system.signedInUser());
});
afterAll(async () => {
  await system.close();
  await spotify.close();
});

const search = (query: unknown, as = cookie) =>
  system.request('/api/builder/search-spotify-artists', { method: 'POST', cookie: as, json: { query } });
const fetchArtist = (artistUrl: unknown) =>
  system.request('/api/builder/fetch-spotify-artist', { method: 'POST', cookie, json: { artistUrl } });

describe('search-spotify-artists', () => {
  it('answers name, Spotify link, image, followers and genres, and reuses one token', async () => {
    const first = await search('horses');
    expect(first.status).toBe(200);
    expect(await readJson(first)).toEqual({
      artists: [
        {
          name: 'Band of Horses',
          spotifyUrl: 'https://open.spotify.com/artist/0OdUWJ0sBjDrqHygGUXeCF',
          image: 'https://i.scdn.co/image/small',
          followers: 1234,
          genres: ['indie rock'],
        },
      ],
    });
    await search('avicii');
    expect(spotify.tokenRequests).toBe(1);
    expect(spotify.apiRequests.at(-1)).toMatchObject({
      path: '/v1/search?q=avicii&type=artist&limit=10',
      authorization: 'Bearer token-1',
    });
  });

  it('answers an empty list when nobody matches', async () => {
    expect(await readJson(await search('zzzz'))).toEqual({ artists: [] });
  });

  it('fetches a new token when Spotify says the cached one expired', async () => {
    spotify.expireNextToken();
    const response = await search('avicii');
    expect(response.status).toBe(200);
    expect((await readJson(response)).artists[0].name).toBe('Avicii');
    expect(spotify.apiRequests.at(-1)?.authorization).toBe('Bearer token-2');
  });

  it("refuses fewer than 2 characters with 'Please enter at least 2 characters'", async () => {
    const response = await search(' a ');
    expect(response.status).toBe(422);
    expect((await readJson(response)).error.message).toBe(BUILDER_MESSAGES.searchTooShort);
  });

  it('is for subscribers only', async () => {
    expect((await search('avicii', '')).status).toBe(401);
  });
});

describe('fetch-spotify-artist', () => {
  it('answers the name of the artist behind a link', async () => {
    const response = await fetchArtist('https://open.spotify.com/artist/1vCWHaC5f2uS3yhpwWbIA6?si=abc');
    expect(response.status).toBe(200);
    expect(await readJson(response)).toMatchObject({ name: 'Avicii', artist: { followers: 99 } });
  });

  it("refuses a link that is not a Spotify artist link with 'Please enter a valid Spotify artist link'", async () => {
    for (const link of [
      'https://open.spotify.com/album/1vCWHaC5f2uS3yhpwWbIA6',
      'spotify:artist:1vCWHaC5f2uS3yhpwWbIA6',
      '',
    ]) {
      const response = await fetchArtist(link);
      expect(response.status).toBe(422);
      expect((await readJson(response)).error.message).toBe(BUILDER_MESSAGES.spotifyLinkInvalid);
    }
  });

  it('answers 404 for an artist Spotify does not know', async () => {
    const response = await fetchArtist('https://open.spotify.com/artist/0000000000000000000000');
    expect(response.status).toBe(404);
  });
});

describe('without Spotify credentials', () => {
  it('says clearly that search is not configured, and /api/config tells the browser so', async () => {
    const bare = await createTestSystem();
    try {
      const user = await bare.signedInUser();
      const response = await bare.request('/api/builder/search-spotify-artists', {
        method: 'POST',
        cookie: user.cookie,
        json: { query: 'avicii' },
      });
      expect(response.status).toBe(503);
      expect((await readJson(response)).error).toEqual({
        code: 'spotify_not_configured',
        message:
          'Artist search is not configured on this server. You can still type the artist name and paste their Spotify link.',
      });
      const config = await readJson(await bare.request('/api/config'));
      expect(config.isSpotifyConfigured).toBe(false);
    } finally {
      await bare.close();
    }
  });
});
