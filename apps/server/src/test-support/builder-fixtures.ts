/**
 * Fixtures of the release builder's tests: tus uploads through the app in-process, WAV variants
 * makeWav does not write, a complete submission body, and a local fake of the Spotify Web API.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ReleaseSubmissionInput } from '@tunedrop/shared/schemas/builder';
import type { TestSystem } from './harness';
import { makeImage, makeWav } from './media';

const b64 = (value: string) => Buffer.from(value, 'utf8').toString('base64');

export type TusUploadResult = {
  id: string | null;
  /** The creation answer (201, or the refusal). */
  created: Response;
  /** The last PATCH answer, when the creation succeeded. */
  finished: Response | null;
};

/** Creates a tus upload and sends the body in one or more PATCH requests, as tus-js-client does. */
export async function tusUpload(
  system: TestSystem,
  cookie: string,
  file: { kind: 'cover' | 'audio'; name: string; body: Buffer; chunkSize?: number; stopAfterBytes?: number },
): Promise<TusUploadResult> {
  const created = await system.request('/api/uploads', {
    method: 'POST',
    cookie,
    headers: {
      'Tus-Resumable': '1.0.0',
      'Upload-Length': String(file.body.length),
      'Upload-Metadata': `filename ${b64(file.name)},filetype ${b64('application/octet-stream')},kind ${b64(file.kind)}`,
    },
  });
  if (created.status !== 201) return { id: null, created, finished: null };
  const location = created.headers.get('location') ?? '';
  const id = location.split('/').pop() ?? '';
  const finished = await tusPatch(
    system,
    cookie,
    location,
    file.body,
    0,
    file.chunkSize,
    file.stopAfterBytes,
  );
  return { id, created, finished };
}

/** Sends `body` from `offset` to an existing tus upload; stops early after `stopAfterBytes` (a dropped link). */
export async function tusPatch(
  system: TestSystem,
  cookie: string,
  location: string,
  body: Buffer,
  offset: number,
  chunkSize = body.length,
  stopAfterBytes = body.length,
): Promise<Response> {
  let position = offset;
  let response: Response | null = null;
  while (position < Math.min(body.length, stopAfterBytes) || (body.length === 0 && !response)) {
    const end = Math.min(position + chunkSize, body.length, stopAfterBytes);
    response = await system.request(location, {
      method: 'PATCH',
      cookie,
      headers: {
        'Tus-Resumable': '1.0.0',
        'Upload-Offset': String(position),
        'Content-Type': 'application/offset+octet-stream',
      },
      body: body.subarray(position, end),
    });
    if (response.status !== 204) return response;
    position = Number(response.headers.get('upload-offset'));
  }
  return response as Response;
}

export function uploadHead(system: TestSystem, cookie: string, id: string) {
  return system.request(`/api/uploads/${id}`, {
    method: 'HEAD',
    cookie,
    headers: { 'Tus-Resumable': '1.0.0' },
  });
}

/** A WAVE_FORMAT_EXTENSIBLE file; `subFormat` 1 is PCM, 3 is IEEE float. */
export function makeExtensibleWav(options: {
  seconds: number;
  sampleRate: number;
  bitDepth: 16 | 24 | 32;
  channels: number;
  subFormat?: number;
}): Buffer {
  const plain = makeWav({ ...options, bitDepth: options.bitDepth });
  const data = plain.subarray(44);
  const fmt = Buffer.alloc(40);
  fmt.writeUInt16LE(0xfffe, 0);
  fmt.writeUInt16LE(options.channels, 2);
  fmt.writeUInt32LE(options.sampleRate, 4);
  fmt.writeUInt32LE(options.sampleRate * options.channels * (options.bitDepth / 8), 8);
  fmt.writeUInt16LE(options.channels * (options.bitDepth / 8), 12);
  fmt.writeUInt16LE(options.bitDepth, 14);
  fmt.writeUInt16LE(22, 16);
  fmt.writeUInt16LE(options.bitDepth, 18);
  fmt.writeUInt32LE(options.channels === 2 ? 3 : 4, 20);
  fmt.writeUInt16LE(options.subFormat ?? 1, 24);
  Buffer.from('000000001000800000aa00389b71', 'hex').copy(fmt, 26);
  return riff([chunk('fmt ', fmt), chunk('data', data)]);
}

export function chunk(id: string, body: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.write(id, 0, 'ascii');
  header.writeUInt32LE(body.length, 4);
  return Buffer.concat([header, body, body.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
}

export function riff(chunks: Buffer[]): Buffer {
  const body = Buffer.concat(chunks);
  const header = Buffer.alloc(12);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(body.length + 4, 4);
  header.write('WAVE', 8, 'ascii');
  return Buffer.concat([header, body]);
}

let cachedCover: Buffer | null = null;
/** A valid 3000x3000 PNG cover (made once per test file). */
export async function validCover(): Promise<Buffer> {
  cachedCover ??= await makeImage({ width: 3000, height: 3000, format: 'png' });
  return cachedCover;
}

export const shortWav = () => makeWav({ seconds: 0.5, sampleRate: 44_100, bitDepth: 16, channels: 2 });

/** Uploads a valid cover and one valid WAV per track; returns their upload ids. */
export async function uploadReleaseFiles(
  system: TestSystem,
  cookie: string,
  trackCount = 2,
): Promise<{ coverId: string; audioIds: string[] }> {
  const cover = await tusUpload(system, cookie, {
    kind: 'cover',
    name: 'Cover Art.png',
    body: await validCover(),
  });
  if (cover.finished?.status !== 204) throw new Error(`cover upload failed: ${await cover.finished?.text()}`);
  const audioIds: string[] = [];
  for (let index = 0; index < trackCount; index += 1) {
    const audio = await tusUpload(system, cookie, {
      kind: 'audio',
      name: `Track ${index + 1}.wav`,
      body: shortWav(),
    });
    if (audio.finished?.status !== 204)
      throw new Error(`audio upload failed: ${await audio.finished?.text()}`);
    audioIds.push(audio.id as string);
  }
  return { coverId: cover.id as string, audioIds };
}

/** A submission a basic user may make (one primary artist: their artist name). */
export function basicSubmission(
  files: { coverId: string; audioIds: string[] },
  overrides: { artistName?: string; idempotencyKey?: string } = {},
): ReleaseSubmissionInput {
  const artistName = overrides.artistName ?? 'Test Artist';
  const year = new Date().getFullYear();
  return {
    idempotencyKey: overrides.idempotencyKey ?? randomUUID(),
    release: {
      title: 'Night Drive',
      genre: 'Electronic',
      releaseDate: `${year + 1}-03-01`,
      coverUploadId: files.coverId,
      copyrightHolder: artistName,
      publishingHolder: artistName,
      copyrightYear: year,
      publishingYear: year,
    },
    tracks: files.audioIds.map((audioUploadId, index) => ({
      title: `Song ${index + 1}`,
      audioUploadId,
      explicit: index === 0,
      primaryArtists: [{ name: artistName }],
      featuredArtists: [],
      songwriters: [{ firstName: 'Sam', lastName: 'Writer', role: 'music_and_lyrics' as const }],
      producers: [{ firstName: 'Pat', middleName: 'Q', lastName: 'Producer' }],
      aiDisclosure: { usage: 'none' as const },
    })),
    platforms: ['spotify', 'apple_music'],
  };
}

// ---------------------------------------------------------------- a fake Spotify

export type FakeSpotify = {
  url: string;
  tokenRequests: number;
  apiRequests: { path: string; authorization: string | undefined }[];
  /** Makes the next API answer a 401 (an expired token). */
  expireNextToken: () => void;
  close: () => Promise<void>;
};

export const FAKE_ARTISTS = [
  {
    id: '0OdUWJ0sBjDrqHygGUXeCF',
    name: 'Band of Horses',
    external_urls: { spotify: 'https://open.spotify.com/artist/0OdUWJ0sBjDrqHygGUXeCF' },
    images: [
      { url: 'https://i.scdn.co/image/large', width: 640 },
      { url: 'https://i.scdn.co/image/small', width: 160 },
    ],
    followers: { total: 1234 },
    genres: ['indie rock'],
  },
  {
    id: '1vCWHaC5f2uS3yhpwWbIA6',
    name: 'Avicii',
    external_urls: { spotify: 'https://open.spotify.com/artist/1vCWHaC5f2uS3yhpwWbIA6' },
    images: [],
    followers: { total: 99 },
    genres: ['edm'],
  },
];

export async function startFakeSpotify(
  credentials = { id: 'client-id', secret: 'client-secret' },
): Promise<FakeSpotify> {
  let tokenCounter = 0;
  let isNextExpired = false;
  const state = { tokenRequests: 0, apiRequests: [] as FakeSpotify['apiRequests'] };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'POST' && url.pathname === '/api/token') {
      state.tokenRequests += 1;
      const expected = `Basic ${Buffer.from(`${credentials.id}:${credentials.secret}`).toString('base64')}`;
      if (req.headers.authorization !== expected) return send(401, { error: 'invalid_client' });
      tokenCounter += 1;
      return send(200, { access_token: `token-${tokenCounter}`, token_type: 'Bearer', expires_in: 3600 });
    }
    state.apiRequests.push({
      path: `${url.pathname}${url.search}`,
      authorization: req.headers.authorization,
    });
    if (!req.headers.authorization?.startsWith('Bearer token-') || isNextExpired) {
      isNextExpired = false;
      return send(401, { error: { status: 401, message: 'The access token expired' } });
    }
    if (url.pathname === '/v1/search') {
      const query = (url.searchParams.get('q') ?? '').toLowerCase();
      const items = FAKE_ARTISTS.filter((artist) => artist.name.toLowerCase().includes(query));
      return send(200, { artists: { items } });
    }
    const match = /^\/v1\/artists\/([A-Za-z0-9]+)$/.exec(url.pathname);
    if (match) {
      const artist = FAKE_ARTISTS.find((candidate) => candidate.id === match[1]);
      return artist ? send(200, artist) : send(404, { error: { status: 404, message: 'Not found' } });
    }
    return send(404, { error: { status: 404, message: 'Not found' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get tokenRequests() {
      return state.tokenRequests;
    },
    apiRequests: state.apiRequests,
    expireNextToken() {
      isNextExpired = true;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
