/** HTTP routes of the artist's own releases (My Songs, Edit Release, takedown requests, cover thumbnails). */
import { Readable } from 'node:stream';
import { isStaff } from '@tunedrop/shared';
import { COVER_SIZES, editReleaseSchema, mySongsQuerySchema } from '@tunedrop/shared/schemas/releases';
import { Hono } from 'hono';
import { z } from 'zod';
import { access, requireViewer } from '../../lib/access';
import type { AppEnv } from '../../lib/context';
import { validate } from '../../lib/validate';
import {
  coverThumbKey,
  deleteMyRelease,
  getReleaseForEdit,
  listMyReleases,
  releaseNotFound,
  requestTakedown,
  updateMyRelease,
} from './service';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A release id from the path; anything that is not a UUID cannot name a release, so it is a 404. */
export function releaseIdParam(value: string | undefined): string {
  if (!value || !UUID.test(value)) throw releaseNotFound();
  return value.toLowerCase();
}

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
  .get('/releases', access('subscriber'), validate('query', mySongsQuerySchema), async (c) => {
    const viewer = requireViewer(c);
    const { cursor, limit } = c.req.valid('query');
    return c.json(await listMyReleases(c.var.deps.db, viewer.user.id, { cursor, limit }), 200);
  })
  .get('/releases/:id', access('subscriber'), async (c) => {
    const viewer = requireViewer(c);
    const release = await getReleaseForEdit(c.var.deps.db, viewer.user.id, releaseIdParam(c.req.param('id')));
    return c.json({ release }, 200);
  })
  .patch('/releases/:id', access('subscriber'), validate('json', editReleaseSchema), async (c) => {
    const viewer = requireViewer(c);
    const release = await updateMyRelease(
      c.var.deps.db,
      viewer,
      releaseIdParam(c.req.param('id')),
      c.req.valid('json'),
    );
    return c.json({ release }, 200);
  })
  .delete('/releases/:id', access('subscriber'), async (c) => {
    const viewer = requireViewer(c);
    await deleteMyRelease(c.var.deps, viewer.user.id, releaseIdParam(c.req.param('id')));
    return c.json({ ok: true }, 200);
  })
  .post('/releases/:id/takedown', access('subscriber'), async (c) => {
    const viewer = requireViewer(c);
    const release = await requestTakedown(c.var.deps.db, viewer.user.id, releaseIdParam(c.req.param('id')));
    return c.json({ release }, 200);
  })
  // Thumbnails only (never the 3000 px original): the owner's lists and the staff's review cards.
  .get(
    '/releases/:id/cover/:size',
    access('user'),
    validate('param', z.object({ id: z.string(), size: z.enum(COVER_SIZES) })),
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
