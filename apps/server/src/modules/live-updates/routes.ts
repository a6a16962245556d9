/** HTTP routes of the live-updates capability (GET /api/events), mounted under /api (see app.ts). */
import { Hono } from 'hono';
import { access, requireViewer } from '../../lib/access';
import type { AppEnv } from '../../lib/context';
import { streamProfileEvents } from './profile-stream';

export const liveUpdatesRoutes = new Hono<AppEnv>().get('/events', access('user'), (c) => {
  const viewer = requireViewer(c);
  return streamProfileEvents(c, viewer.user.id, viewer.sessionId);
});
