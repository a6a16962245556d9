/** HTTP routes of the artist's own releases (My Songs, Edit Release, takedown requests, cover thumbnails). */
import { Readable } from 'node:stream';
import { isStaff } from '@tunedrop/shared';
import {
  addTrackSchema,
  COVER_SIZES,
  editReleaseSchema,
  editTracksSchema,
  mySongsQuerySchema,
  replaceFileSchema,
} from '@tunedrop/shared/schemas/releases';
import { safeText } from '@tunedrop/shared/text';
import { Hono } from 'hono';
import { z } from 'zod';
import { access, assertNotBanned, requireViewer } from '../../lib/access';
import type { AppEnv } from '../../lib/context';
import { fileResponse } from '../../lib/file-response';
import { uuidParam } from '../../lib/params';
import { validate } from '../../lib/validate';
import { accountIdOf, resolveProfileFilter } from '../artist-profiles';
import { releaseIdParam } from '../catalogue';
import { getReleaseForEdit, resubmitMyRelease, updateMyRelease, updateMyTracks } from './edit';
import { replaceCover, replaceTrackAudio } from './files';
import { coverThumbKey, deleteMyRelease, listMyReleases, ownTrackFileKey, requestTakedown } from './service';
import { addTrack, removeTrack } from './track-changes';

const IMAGE_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
};

export const imageContentType = (key: string) =>
  IMAGE_TYPES[key.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';

export const releasesRoutes = new Hono<AppEnv>()
  .get('/releases', access('user', 'read'), validate('query', mySongsQuerySchema), async (c) => {
    const viewer = requireViewer(c);
    const query = c.req.valid('query');
    const accountId = accountIdOf(viewer);
    // One artist profile's releases (record 201): the profile must be the account's (404 otherwise).
    const artistProfileId = await resolveProfileFilter(c.var.deps.db, accountId, query.artistProfileId);
    return c.json(await listMyReleases(c.var.deps.db, accountId, { ...query, artistProfileId }), 200);
  })
  .get('/releases/:id', access('user', 'read'), async (c) => {
    const viewer = requireViewer(c);
    const release = await getReleaseForEdit(
      c.var.deps.db,
      viewer.account.id,
      releaseIdParam(c.req.param('id')),
    );
    return c.json({ release }, 200);
  })
  .patch('/releases/:id', access('subscriber', 'catalog'), validate('json', editReleaseSchema), async (c) => {
    const viewer = requireViewer(c);
    const release = await updateMyRelease(
      c.var.deps.db,
      viewer,
      releaseIdParam(c.req.param('id')),
      c.req.valid('json'),
    );
    return c.json({ release }, 200);
  })
  .delete('/releases/:id', access('subscriber', 'catalog'), async (c) => {
    const viewer = requireViewer(c);
    await deleteMyRelease(c.var.deps, viewer.account.id, releaseIdParam(c.req.param('id')));
    return c.json({ ok: true }, 200);
  })
  // Tracks' titles, explicit flags, credits and order (issue 18); same rule as the release edit.
  .put(
    '/releases/:id/tracks',
    access('subscriber', 'catalog'),
    validate('json', editTracksSchema),
    async (c) => {
      const viewer = requireViewer(c);
      const releaseId = releaseIdParam(c.req.param('id'));
      await updateMyTracks(c.var.deps.db, viewer, releaseId, c.req.valid('json'));
      return c.json({ ok: true }, 200);
    },
  )
  // Replacing files (issue 18, record 121): a checked tus upload becomes the cover or a track's WAV.
  .put(
    '/releases/:id/cover',
    access('subscriber', 'catalog'),
    validate('json', replaceFileSchema),
    async (c) => {
      const viewer = requireViewer(c);
      const releaseId = releaseIdParam(c.req.param('id'));
      const cover = await replaceCover(c.var.deps, viewer, releaseId, c.req.valid('json').uploadId);
      return c.json({ cover }, 200);
    },
  )
  .put(
    '/releases/:id/tracks/:trackId/audio',
    access('subscriber', 'catalog'),
    validate('json', replaceFileSchema),
    async (c) => {
      const viewer = requireViewer(c);
      const audio = await replaceTrackAudio(
        c.var.deps,
        viewer,
        releaseIdParam(c.req.param('id')),
        uuidParam(c.req.param('trackId'), 'Track not found.'),
        c.req.valid('json').uploadId,
      );
      return c.json({ audio }, 200);
    },
  )
  // Adding and removing tracks (issue 18, record 121): 1 to 20 tracks, the builder's rules and checks.
  .post(
    '/releases/:id/tracks',
    access('subscriber', 'catalog'),
    validate('json', addTrackSchema),
    async (c) => {
      const viewer = requireViewer(c);
      const releaseId = releaseIdParam(c.req.param('id'));
      const track = await addTrack(c.var.deps, viewer, releaseId, c.req.valid('json'));
      return c.json({ track }, 201);
    },
  )
  .delete('/releases/:id/tracks/:trackId', access('subscriber', 'catalog'), async (c) => {
    const viewer = requireViewer(c);
    await removeTrack(
      c.var.deps,
      viewer,
      releaseIdParam(c.req.param('id')),
      uuidParam(c.req.param('trackId'), 'Track not found.'),
    );
    return c.json({ ok: true }, 200);
  })
  // Fix and resubmit (issue 18): rejected → pending; needs the subscription like any new submission.
  .post('/releases/:id/resubmit', access('subscriber', 'catalog'), async (c) => {
    const viewer = requireViewer(c);
    assertNotBanned(viewer);
    const release = await resubmitMyRelease(c.var.deps.db, viewer, releaseIdParam(c.req.param('id')));
    return c.json({ release }, 200);
  })
  // The owner's player on the release page: their own WAV with Range support (decision 063, 121).
  .get('/releases/:id/tracks/:trackId/audio', access('user', 'read'), async (c) => {
    const viewer = requireViewer(c);
    const key = await ownTrackFileKey(
      c.var.deps.db,
      viewer.account.id,
      releaseIdParam(c.req.param('id')),
      uuidParam(c.req.param('trackId'), 'Track not found.'),
    );
    return fileResponse(c.var.deps.storage, key, {
      contentType: 'audio/wav',
      rangeHeader: c.req.header('range'),
    });
  })
  .post('/releases/:id/takedown', access('user', 'catalog'), async (c) => {
    const viewer = requireViewer(c);
    const release = await requestTakedown(
      c.var.deps.db,
      viewer.account.id,
      releaseIdParam(c.req.param('id')),
    );
    return c.json({ release }, 200);
  })
  // Thumbnails only (never the 3000 px original): the owner's lists and the staff's review cards.
  .get(
    '/releases/:id/cover/:size',
    access('user', 'read'),
    validate('param', z.object({ id: safeText(), size: z.enum(COVER_SIZES) })),
    async (c) => {
      const viewer = requireViewer(c);
      const { id, size } = c.req.valid('param');
      const key = await coverThumbKey(c.var.deps.db, viewer, releaseIdParam(id), size, isStaff(viewer.roles));
      const file = await c.var.deps.storage.get(key);
      return c.body(Readable.toWeb(file.body) as ReadableStream, 200, {
        'Content-Type': imageContentType(key),
        'Content-Length': String(file.sizeBytes),
        'Cache-Control': 'private, max-age=86400',
      });
    },
  );
