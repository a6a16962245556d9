/** HTTP routes of post-release edits (record 197): the owner proposes, staff approve or reject. */
import { isStaff } from '@tunedrop/shared';
import { rejectReleaseUpdateSchema, releaseUpdateSchema } from '@tunedrop/shared/schemas/release-updates';
import { Hono } from 'hono';
import { z } from 'zod';
import { access, requireViewer } from '../../lib/access';
import type { AppEnv } from '../../lib/context';
import { fileResponse } from '../../lib/file-response';
import { uuidParam } from '../../lib/params';
import { validate } from '../../lib/validate';
import { releaseIdParam } from '../catalogue';
import { approveUpdate, proposeUpdate, rejectUpdate } from './service';
import { latestUpdate, updateFileKey, updatesInReview } from './views';

/** Cover thumbnails are JPEG; an original may be PNG (the builder accepts both). */
const imageContentType = (key: string) => (key.toLowerCase().endsWith('.png') ? 'image/png' : 'image/jpeg');

const updateIdParam = (value: string | undefined) => uuidParam(value, 'Update not found.');

export const releaseUpdatesRoutes = new Hono<AppEnv>()
  .post(
    '/releases/:id/update',
    access('subscriber', 'catalog'),
    validate('json', releaseUpdateSchema),
    async (c) => {
      const viewer = requireViewer(c);
      const update = await proposeUpdate(
        c.var.deps,
        viewer,
        releaseIdParam(c.req.param('id')),
        c.req.valid('json'),
      );
      return c.json({ update }, 201);
    },
  )
  .get('/releases/:id/update', access('user', 'read'), async (c) => {
    const viewer = requireViewer(c);
    const update = await latestUpdate(c.var.deps.db, viewer.account.id, releaseIdParam(c.req.param('id')));
    return c.json({ update }, 200);
  })
  .get(
    '/release-updates/:id/cover/:which',
    access('user', 'read'),
    validate('param', z.object({ id: z.string(), which: z.enum(['before', 'after']) })),
    async (c) => {
      const viewer = requireViewer(c);
      const { id, which } = c.req.valid('param');
      const key = await updateFileKey(c.var.deps.db, viewer, isStaff(viewer.roles), updateIdParam(id), {
        kind: 'cover',
        which,
      });
      return fileResponse(c.var.deps.storage, key, { contentType: imageContentType(key) });
    },
  )
  .get('/release-updates/:id/tracks/:trackId/audio', access('user', 'read'), async (c) => {
    const viewer = requireViewer(c);
    const key = await updateFileKey(
      c.var.deps.db,
      viewer,
      isStaff(viewer.roles),
      updateIdParam(c.req.param('id')),
      { kind: 'audio', trackId: uuidParam(c.req.param('trackId'), 'Track not found.') },
    );
    return fileResponse(c.var.deps.storage, key, {
      contentType: 'audio/wav',
      rangeHeader: c.req.header('range'),
    });
  })
  .get(
    '/admin/release-updates',
    access('moderator'),
    validate('query', z.object({ releaseId: z.uuid().optional() })),
    async (c) => {
      return c.json({ items: await updatesInReview(c.var.deps.db, c.req.valid('query').releaseId) }, 200);
    },
  )
  .post('/admin/release-updates/:id/approve', access('moderator'), async (c) => {
    const viewer = requireViewer(c);
    const update = await approveUpdate(c.var.deps, viewer, updateIdParam(c.req.param('id')));
    return c.json({ update }, 200);
  })
  .post(
    '/admin/release-updates/:id/reject',
    access('moderator'),
    validate('json', rejectReleaseUpdateSchema),
    async (c) => {
      const viewer = requireViewer(c);
      const update = await rejectUpdate(
        c.var.deps,
        viewer,
        updateIdParam(c.req.param('id')),
        c.req.valid('json').reason,
      );
      return c.json({ update }, 200);
    },
  );
