/** HTTP routes of the live-updates capability (GET /api/events), mounted under /api (see app.ts). */
import { Hono } from 'hono';
import { access, requireViewer } from '../../lib/access';
import type { AppEnv } from '../../lib/context';
import { streamProfileEvents } from './profile-stream';

export const liveUpdatesRoutes = new Hono<AppEnv>().get('/events', access('user', 'read'), (c) => {
  const viewer = requireViewer(c);
  // The acting account's balance and plan changes (record 202).
  return streamProfileEvents(c, viewer.account.id, viewer.sessionId);
});
