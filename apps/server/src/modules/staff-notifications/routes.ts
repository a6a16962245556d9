/**
 * A staff user's notification choices (record 179), mounted under /api: moderators and admins read and
 * save their own; the kinds listed and accepted are those their roles receive.
 */
import { staffNotificationPreferencesSchema } from '@tunedrop/shared/schemas/staff-notifications';
import { Hono } from 'hono';
import { access, requireViewer } from '../../lib/access';
import type { AppEnv } from '../../lib/context';
import { validate } from '../../lib/validate';
import { readPreferences, savePreferences } from './service';

export const staffNotificationsRoutes = new Hono<AppEnv>()
  .get('/staff-notifications/preferences', access('moderator'), async (c) => {
    const viewer = requireViewer(c);
    return c.json(await readPreferences(c.var.deps.db, viewer.user.id, viewer.roles), 200);
  })
  .put(
    '/staff-notifications/preferences',
    access('moderator'),
    validate('json', staffNotificationPreferencesSchema),
    async (c) => {
      const viewer = requireViewer(c);
      const saved = await savePreferences(c.var.deps.db, viewer.user.id, viewer.roles, c.req.valid('json'));
      return c.json(saved, 200);
    },
  );
