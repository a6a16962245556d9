/**
 * HTTP routes of YouTube Content ID (issue 28, decision 185), mounted under /api: the Pro artist's per-track
 * opt-in and channel allow-list (a subscription in force, then the Pro check in the service: 403 otherwise),
 * and the admin's list of what to apply by hand.
 */
import {
  CONTENT_ID_MESSAGES,
  contentIdAnswersSchema,
  contentIdChannelSchema,
} from '@tunedrop/shared/schemas/content-id';
import { Hono } from 'hono';
import { z } from 'zod';
import { access, requireViewer } from '../../lib/access';
import type { AppEnv } from '../../lib/context';
import { validate } from '../../lib/validate';
import {
  addChannel,
  getReleaseContentId,
  listChannels,
  listContentIdForAdmin,
  optTrackIn,
  optTrackOut,
  removeChannel,
  requireContentIdPlan,
} from './service';

const releaseParamSchema = z.object({ id: z.uuid('Release not found') });
const trackParamSchema = z.object({ trackId: z.uuid(CONTENT_ID_MESSAGES.trackNotFound) });
const channelParamSchema = z.object({ id: z.uuid(CONTENT_ID_MESSAGES.channelNotFound) });

export const contentIdRoutes = new Hono<AppEnv>()
  .get(
    '/content-id/releases/:id',
    access('subscriber', 'read'),
    validate('param', releaseParamSchema),
    async (c) => {
      const viewer = requireViewer(c);
      requireContentIdPlan(viewer);
      return c.json(
        await getReleaseContentId(c.var.deps.db, viewer.account.id, c.req.valid('param').id),
        200,
      );
    },
  )
  .put(
    '/content-id/tracks/:trackId',
    access('subscriber', 'catalog'),
    validate('param', trackParamSchema),
    validate('json', contentIdAnswersSchema),
    async (c) => {
      const viewer = requireViewer(c);
      requireContentIdPlan(viewer);
      const { trackId } = c.req.valid('param');
      return c.json(await optTrackIn(c.var.deps.db, viewer, trackId, c.req.valid('json')), 200);
    },
  )
  .delete(
    '/content-id/tracks/:trackId',
    access('subscriber', 'catalog'),
    validate('param', trackParamSchema),
    async (c) => {
      const viewer = requireViewer(c);
      requireContentIdPlan(viewer);
      return c.json(await optTrackOut(c.var.deps.db, viewer, c.req.valid('param').trackId), 200);
    },
  )
  .get('/content-id/channels', access('subscriber', 'read'), async (c) => {
    const viewer = requireViewer(c);
    requireContentIdPlan(viewer);
    return c.json({ items: await listChannels(c.var.deps.db, viewer.account.id) }, 200);
  })
  .post(
    '/content-id/channels',
    access('subscriber', 'catalog'),
    validate('json', contentIdChannelSchema),
    async (c) => {
      const viewer = requireViewer(c);
      requireContentIdPlan(viewer);
      return c.json({ items: await addChannel(c.var.deps.db, viewer, c.req.valid('json').channelId) }, 201);
    },
  )
  .delete(
    '/content-id/channels/:id',
    access('subscriber', 'catalog'),
    validate('param', channelParamSchema),
    async (c) => {
      const viewer = requireViewer(c);
      requireContentIdPlan(viewer);
      return c.json({ items: await removeChannel(c.var.deps.db, viewer, c.req.valid('param').id) }, 200);
    },
  )
  .get('/admin/content-id', access('admin'), async (c) => {
    return c.json({ items: await listContentIdForAdmin(c.var.deps.db) }, 200);
  });
