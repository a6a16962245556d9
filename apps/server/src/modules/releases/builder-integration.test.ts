/** A release made by the real builder (tus uploads, submission) through My Songs, review export and delete. */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releases, tracks, uploads } from '../../db/schema';
import { basicSubmission, uploadReleaseFiles } from '../../test-support/builder-fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem();
});
afterAll(async () => system?.close());

describe('a builder-submitted release', () => {
  it('shows its thumbnail in My Songs, exports with its cover, and deletes every stored file', async () => {
    const artist = await system.signedInUser({ artistName: 'Builder Artist' });
    const moderator = await system.signedInUser({ roles: ['moderator'] });
    const files = await uploadReleaseFiles(system, artist.cookie, 2);
    const submitted = await system.request('/api/builder/releases', {
      method: 'POST',
      cookie: artist.cookie,
      json: basicSubmission(files, { artistName: 'Builder Artist' }),
    });
    expect(submitted.status, await submitted.clone().text()).toBeLessThan(300);

    const list = await readJson(await system.request('/api/releases', { cookie: artist.cookie }));
    expect(list.items).toHaveLength(1);
    const [item] = list.items;
    expect(item).toMatchObject({
      title: 'Night Drive',
      trackCount: 2,
      status: 'pending',
      primaryArtists: ['Builder Artist'],
    });
    expect(item.coverUrl).toMatch(new RegExp(`^/api/releases/${item.id}/cover/small\\?v=[0-9a-f]{12}$`));
    const thumb = await system.request(item.coverUrl, { cookie: artist.cookie });
    expect(thumb.status).toBe(200);
    const thumbBytes = Buffer.from(await thumb.arrayBuffer());
    const sharp = (await import('sharp')).default;
    const meta = await sharp(thumbBytes).metadata();
    expect(meta.width).toBeLessThanOrEqual(600);

    const [row] = await system.db.select().from(releases).where(eq(releases.id, item.id));
    const trackRows = await system.db.select().from(tracks).where(eq(tracks.releaseId, item.id));
    const keys = [
      row?.coverArtKey,
      row?.coverThumbSmallKey,
      row?.coverThumbMediumKey,
      ...trackRows.map((t) => t.fileKey),
    ];
    for (const key of keys) expect(await system.storage.exists(key as string)).toBe(true);

    const manifest = await readJson(
      await system.request(`/api/admin/releases/${item.id}/export/manifest`, { cookie: moderator.cookie }),
    );
    const trackNames = [...trackRows].sort((a, b) => a.position - b.position).map((t) => t.originalFileName);
    expect(manifest.entries.map((entry: { name: string }) => entry.name)).toEqual([
      'cover.png',
      ...trackNames,
      'metadata.json',
      'ern.xml',
    ]);

    const deleted = await system.request(`/api/releases/${item.id}`, {
      method: 'DELETE',
      cookie: artist.cookie,
    });
    expect(deleted.status).toBe(200);
    for (const key of keys) expect(await system.storage.exists(key as string)).toBe(false);
    expect(await system.db.select().from(uploads).where(eq(uploads.releaseId, item.id))).toHaveLength(0);
  }, 120_000);
});
