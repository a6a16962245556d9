/**
 * HTTP routes of Content ID claims (issue 28, decision 193), mounted under /api: the Pro artist's claims and
 * their release (a subscription in force, then the Pro check; ownership in the service), the admin's queue
 * of claims to release in YouTube's CMS, and a track's YouTube asset id.
 */

import { CONTENT_ID_MESSAGES } from '@tunedrop/shared/schemas/content-id';
import {
  CLAIM_MESSAGES,
  claimsQuerySchema,
  contentIdAssetSchema,
} from '@tunedrop/shared/schemas/content-id-claims';
import { Hono } from 'hono';
import { z } from 'zod';
import { access, requireViewer } from '../../lib/access';
import type { AppEnv } from '../../lib/context';
import { validate } from '../../lib/validate';
import {
  listClaims,
  listClaimsToRelease,
  markClaimReleased,
  releaseClaim,
  setTrackAssetId,
} from './claims-service';
import { requireContentIdPlan } from './service';

const claimParamSchema = z.object({ id: z.uuid(CLAIM_MESSAGES.claimNotFound) });
const trackParamSchema = z.object({ trackId: z.uuid(CONTENT_ID_MESSAGES.trackNotFound) });

export const contentIdClaimsRoutes = new Hono<AppEnv>()
  .get(
    '/content-id/claims',
    access('subscriber', 'read'),
    validate('query', claimsQuerySchema),
    async (c) => {
      const viewer = requireViewer(c);
      requireContentIdPlan(viewer);
      return c.json(await listClaims(c.var.deps.db, viewer.account.id, c.req.valid('query')), 200);
    },
  )
  .post(
    '/content-id/claims/:id/release',
    access('subscriber', 'catalog'),
    validate('param', claimParamSchema),
    async (c) => {
      const viewer = requireViewer(c);
      requireContentIdPlan(viewer);
      return c.json(await releaseClaim(c.var.deps.db, viewer, c.req.valid('param').id), 200);
    },
  )
  .get('/admin/content-id/claims', access('admin'), validate('query', claimsQuerySchema), async (c) => {
    return c.json(await listClaimsToRelease(c.var.deps.db, c.req.valid('query')), 200);
  })
  .post(
    '/admin/content-id/claims/:id/done',
    access('admin'),
    validate('param', claimParamSchema),
    async (c) => {
      const admin = requireViewer(c);
      return c.json(await markClaimReleased(c.var.deps.db, admin, c.req.valid('param').id), 200);
    },
  )
  .put(
    '/admin/content-id/tracks/:trackId/asset',
    access('admin'),
    validate('param', trackParamSchema),
    validate('json', contentIdAssetSchema),
    async (c) => {
      const admin = requireViewer(c);
      const { trackId } = c.req.valid('param');
      return c.json(await setTrackAssetId(c.var.deps.db, admin, trackId, c.req.valid('json').assetId), 200);
    },
  );
