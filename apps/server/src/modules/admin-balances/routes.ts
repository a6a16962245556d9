/** HTTP routes of the admin-balances capability, mounted under /api (see app.ts). */
import { Hono } from 'hono';
import type { AppEnv } from '../../lib/context';

export const adminBalancesRoutes = new Hono<AppEnv>();
