/**
 * Staff file access (record 063): signed, short-lived URLs for a release's files, and the review
 * player's ranged audio stream.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tracks } from '../../db/schema';
import { createTestRelease, createTestUser } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { signFileUrl } from './files';

type Signed = Awaited<ReturnType<TestSystem['signedInUser']>>;
let system: TestSystem;
let moderator: Signed;
let artist: Signed;
let releaseId: string;
let trackKeys: string[];

beforeAll(async () => {
  system = await createTestSystem();
  moderator = await system.signedInUser({ roles: ['moderator'] });
  artist = await system.signedInUser();
  const uploader = await createTestUser(system, { email: 'files-owner@example.com', artistName: 'Nova' });
  const created = await createTestRelease(system, uploader.userId, { status: 'approved', trackCount: 3 });
  releaseId = created.releaseId;
  const rows = await system.db
    .select()
    .from(tracks)
    .where(eq(tracks.releaseId, releaseId))
    .orderBy(tracks.position);
  trackKeys = rows.map((row) => row.fileKey);
});
afterAll(async () => system?.close());

async function storedBytes(key: string): Promise<Buffer> {
  const file = await system.storage.get(key);
  const chunks: Buffer[] = [];
  for await (const chunk of file.body) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

describe('admin-audio-signed-url and file streaming', () => {
  it('signs a URL only for staff and only for a path that belongs to a release', async () => {
    const key = trackKeys[2] ?? '';
    const query = `bucket=audio-files&path=${encodeURIComponent(key)}`;
    expect(
      (await system.request(`/api/admin-audio-signed-url?${query}`, { cookie: artist.cookie })).status,
    ).toBe(403);
    expect((await system.request(`/api/admin-audio-signed-url?${query}`)).status).toBe(401);
    const stranger = await system.request(
      `/api/admin-audio-signed-url?bucket=audio-files&path=${encodeURIComponent('someone/else.wav')}`,
      { cookie: moderator.cookie },
    );
    expect(stranger.status).toBe(404);
    const wrongBucket = await system.request(
      `/api/admin-audio-signed-url?bucket=cover-art&path=${encodeURIComponent(key)}`,
      {
        cookie: moderator.cookie,
      },
    );
    expect(wrongBucket.status).toBe(404);

    const { signedUrl, expiresAt } = await readJson(
      await system.request(`/api/admin-audio-signed-url?${query}`, { cookie: moderator.cookie }),
    );
    expect(signedUrl).toMatch(/^http:\/\/localhost:3000\/api\/admin\/signed-files\?/);
    expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(300_000);
    const relative = signedUrl.replace('http://localhost:3000', '');
    const download = await system.request(relative);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toContain('filename="track-3.wav"');
    expect(Buffer.from(await download.arrayBuffer()).equals(await storedBytes(key))).toBe(true);

    const tampered = relative.replace(/signature=[^&]+/, 'signature=AAAA');
    expect((await system.request(tampered)).status).toBe(403);
    const otherPath = relative.replace(encodeURIComponent(key), encodeURIComponent(trackKeys[1] ?? ''));
    expect((await system.request(otherPath)).status).toBe(403);
    const expired = signFileUrl(system.config, 'audio-files', key, Date.now() - 600_000).signedUrl;
    const expiredResponse = await system.request(expired.replace('http://localhost:3000', ''));
    expect(expiredResponse.status).toBe(403);
    expect((await readJson(expiredResponse)).error.code).toBe('link_expired');
  });

  it('refuses a correctly signed link whose expiry is more than 5 minutes away', async () => {
    const key = trackKeys[2] ?? '';
    // Signed with the server's own secret (as a leaked or default secret would allow), expiring in 2100.
    const farFuture = signFileUrl(system.config, 'audio-files', key, Date.parse('2100-01-01T00:00:00Z'));
    const response = await system.request(farFuture.signedUrl.replace('http://localhost:3000', ''));
    expect(response.status).toBe(403);
    expect((await readJson(response)).error.code).toBe('invalid_signature');
    const justInside = signFileUrl(system.config, 'audio-files', key, Date.now() - 1000).signedUrl;
    expect((await system.request(justInside.replace('http://localhost:3000', ''))).status).toBe(200);
  });

  it('refuses a link signed with the public development secret (issue 22, finding 1)', async () => {
    const key = trackKeys[2] ?? '';
    // The secret earlier versions signed with whenever APP_SECRET was unset, as this test system runs.
    const publicSecret = 'tunedrop-development-secret-change-me-in-production';
    expect(system.config.appSecret).not.toBe(publicSecret);
    const forged = signFileUrl({ appUrl: system.config.appUrl, appSecret: publicSecret }, 'audio-files', key);
    const response = await system.request(forged.signedUrl.replace('http://localhost:3000', ''));
    expect(response.status).toBe(403);
    expect((await readJson(response)).error).toMatchObject({
      code: 'invalid_signature',
      message: 'This download link is not valid.',
    });
  });

  it('serves a hostile original file name as a sanitised filename and an RFC 5987 filename*', async () => {
    const key = trackKeys[0] ?? '';
    await system.db
      .update(tracks)
      .set({ originalFileName: '../../etc/<script>x\r\n".wav' })
      .where(eq(tracks.fileKey, key));
    const { signedUrl } = await readJson(
      await system.request(`/api/admin-audio-signed-url?bucket=audio-files&path=${encodeURIComponent(key)}`, {
        cookie: moderator.cookie,
      }),
    );
    const download = await system.request(signedUrl.replace('http://localhost:3000', ''));
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename="_script_x_.wav"; filename*=UTF-8''%3Cscript%3Ex%22.wav`,
    );
  });

  it('streams the review player with HTTP Range and refuses artists', async () => {
    const [track] = await system.db
      .select()
      .from(tracks)
      .where(eq(tracks.fileKey, trackKeys[2] ?? ''));
    const url = `/api/admin/releases/${releaseId}/tracks/${track?.id}/audio`;
    const bytes = await storedBytes(trackKeys[2] ?? '');
    const whole = await system.request(url, { cookie: moderator.cookie });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);

    const partial = await system.request(url, {
      cookie: moderator.cookie,
      headers: { range: 'bytes=100-199' },
    });
    expect(partial.status).toBe(206);
    expect(partial.headers.get('content-range')).toBe(`bytes 100-199/${bytes.length}`);
    expect(Buffer.from(await partial.arrayBuffer()).equals(bytes.subarray(100, 200))).toBe(true);

    const tail = await system.request(url, { cookie: moderator.cookie, headers: { range: 'bytes=-10' } });
    expect(Buffer.from(await tail.arrayBuffer()).equals(bytes.subarray(bytes.length - 10))).toBe(true);
    const open = await system.request(url, {
      cookie: moderator.cookie,
      headers: { range: `bytes=${bytes.length - 5}-` },
    });
    expect(Buffer.from(await open.arrayBuffer()).equals(bytes.subarray(bytes.length - 5))).toBe(true);

    const beyond = await system.request(url, {
      cookie: moderator.cookie,
      headers: { range: `bytes=${bytes.length}-` },
    });
    expect(beyond.status).toBe(416);
    expect((await system.request(url, { cookie: artist.cookie })).status).toBe(403);
    const otherRelease = await createTestRelease(system, artist.userId);
    const mismatched = await system.request(
      `/api/admin/releases/${otherRelease.releaseId}/tracks/${track?.id}/audio`,
      {
        cookie: moderator.cookie,
      },
    );
    expect(mismatched.status).toBe(404);
  });
});
