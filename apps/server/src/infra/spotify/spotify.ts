/**
 * The Spotify Web API with client credentials: artist search and artist lookup. The access token is
 * cached until shortly before it expires (a per-instance cache: any instance can fetch its own).
 * Base URLs come from configuration so tests point them at a local fake.
 */
import type { SpotifyArtistResult } from '@tunedrop/shared/schemas/builder';
import { z } from 'zod';
import { AppError } from '../../lib/errors';

export type SpotifyConfig = {
  clientId: string;
  clientSecret: string;
  apiBase: string;
  accountsBase: string;
  fetch?: typeof fetch;
  /** Milliseconds before a call gives up. */
  timeoutMs?: number;
};

const spotifyArtistSchema = z.object({
  name: z.string(),
  external_urls: z.object({ spotify: z.string().optional() }).optional(),
  id: z.string(),
  images: z.array(z.object({ url: z.string(), width: z.number().nullish() })).optional(),
  followers: z.object({ total: z.number().nullish() }).optional(),
  genres: z.array(z.string()).optional(),
});
type SpotifyArtistObject = z.infer<typeof spotifyArtistSchema>;
const tokenSchema = z.object({ access_token: z.string().optional(), expires_in: z.number().optional() });
const searchSchema = z.object({
  artists: z.object({ items: z.array(z.unknown()).optional() }).optional(),
});

export type SpotifyClient = {
  searchArtists(query: string, limit?: number): Promise<SpotifyArtistResult[]>;
  /** The artist, or null when Spotify has no artist with that id. */
  getArtist(id: string): Promise<SpotifyArtistResult | null>;
};

const unavailable = () =>
  new AppError('spotify_unavailable', 'Spotify did not answer. Please try again in a moment.', 502);

export function toArtistResult(artist: SpotifyArtistObject): SpotifyArtistResult {
  // Spotify lists images largest first; a small one is enough for the search list.
  const images = [...(artist.images ?? [])].sort((a, b) => (a.width ?? 0) - (b.width ?? 0));
  const image = images.find((candidate) => (candidate.width ?? 0) >= 64) ?? images.at(-1);
  return {
    name: artist.name,
    spotifyUrl: artist.external_urls?.spotify ?? `https://open.spotify.com/artist/${artist.id}`,
    image: image?.url ?? null,
    followers: artist.followers?.total ?? 0,
    genres: artist.genres ?? [],
  };
}

export function createSpotifyClient(config: SpotifyConfig): SpotifyClient {
  const doFetch = config.fetch ?? fetch;
  const timeoutMs = config.timeoutMs ?? 10_000;
  const apiBase = config.apiBase.replace(/\/$/, '');
  const accountsBase = config.accountsBase.replace(/\/$/, '');
  let token: { value: string; expiresAt: number } | null = null;
  let pending: Promise<string> | null = null;

  const fetchToken = async (): Promise<string> => {
    const basic = Buffer.from(`${config.clientId}:${config.clientSecret}`).toString('base64');
    const response = await doFetch(`${accountsBase}/api/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
      signal: AbortSignal.timeout(timeoutMs),
    }).catch(() => {
      throw unavailable();
    });
    if (!response.ok) {
      throw response.status === 400 || response.status === 401
        ? new AppError('spotify_credentials', 'Spotify refused our credentials. Please tell support.', 502)
        : unavailable();
    }
    const parsed = tokenSchema.safeParse(await response.json());
    const body = parsed.success ? parsed.data : {};
    if (!body.access_token) throw unavailable();
    // Renew a minute early so a token never expires in the middle of a request.
    token = { value: body.access_token, expiresAt: Date.now() + ((body.expires_in ?? 3600) - 60) * 1000 };
    return token.value;
  };

  const accessToken = async (): Promise<string> => {
    if (token && token.expiresAt > Date.now()) return token.value;
    pending ??= fetchToken().finally(() => {
      pending = null;
    });
    return pending;
  };

  const get = async (pathAndQuery: string): Promise<Response> => {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const bearer = await accessToken();
      const response = await doFetch(`${apiBase}${pathAndQuery}`, {
        headers: { authorization: `Bearer ${bearer}` },
        signal: AbortSignal.timeout(timeoutMs),
      }).catch(() => {
        throw unavailable();
      });
      // A revoked or expired token: forget it and try once more with a new one.
      if (response.status === 401 && attempt === 0) {
        token = null;
        continue;
      }
      return response;
    }
    throw unavailable();
  };

  return {
    async searchArtists(query, limit = 10) {
      const params = new URLSearchParams({ q: query, type: 'artist', limit: String(limit) });
      const response = await get(`/v1/search?${params}`);
      if (response.status === 429) {
        throw new AppError('spotify_busy', 'Spotify is busy. Please try again in a moment.', 503);
      }
      if (!response.ok) throw unavailable();
      const parsed = searchSchema.safeParse(await response.json());
      if (!parsed.success) throw unavailable();
      return (parsed.data.artists?.items ?? []).flatMap((item) => {
        const artist = spotifyArtistSchema.safeParse(item);
        return artist.success && artist.data.name ? [toArtistResult(artist.data)] : [];
      });
    },
    async getArtist(id) {
      const response = await get(`/v1/artists/${encodeURIComponent(id)}`);
      if (response.status === 404 || response.status === 400) return null;
      if (response.status === 429) {
        throw new AppError('spotify_busy', 'Spotify is busy. Please try again in a moment.', 503);
      }
      if (!response.ok) throw unavailable();
      const artist = spotifyArtistSchema.safeParse(await response.json());
      if (!artist.success) throw unavailable();
      return toArtistResult(artist.data);
    },
  };
}
