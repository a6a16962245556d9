/**
 * The lapse policy on /admin/settings (record 196), mounted under /api: admins read and save it; a signed-in
 * account reads where its releases stand under it (the dashboard's lapsed banner, issue 44).
 */
import { lapsePolicySchema } from '@tunedrop/shared/schemas/lapse-policy';
import { Hono } from 'hono';
import { access, requireViewer } from '../../lib/access';
import type { AppEnv } from '../../lib/context';
import { validate } from '../../lib/validate';
import { lapseStandingOf, readLapsePolicy, saveLapsePolicy } from './service';

export const lapsePolicyRoutes = new Hono<AppEnv>()
  .get('/admin/lapse-policy', access('admin'), async (c) => c.json(await readLapsePolicy(c.var.deps.db), 200))
  .put('/admin/lapse-policy', access('admin'), validate('json', lapsePolicySchema), async (c) => {
    const viewer = requireViewer(c);
    return c.json(await saveLapsePolicy(c.var.deps.db, c.req.valid('json'), viewer.user.id, viewer), 200);
  })
  // Where the account's releases stand after a lapse (issue 44): the banner says what the mails say.
  .get('/me/lapse-standing', access('user', 'read'), async (c) => {
    return c.json(await lapseStandingOf(c.var.deps.db, requireViewer(c).account.id), 200);
  });
