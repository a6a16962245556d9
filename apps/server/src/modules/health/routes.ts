/** GET /api/health: 200 once the process has started and migrations have run. */
import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { access } from '../../lib/access';
import type { AppEnv } from '../../lib/context';

export const healthRoutes = new Hono<AppEnv>().get('/', access('public'), async (c) => {
  await c.var.deps.db.execute(sql`select 1`);
  return c.json({ status: 'ok' as const }, 200);
});
