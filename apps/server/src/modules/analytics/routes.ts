/** HTTP routes of the analytics capability, mounted under /api (see app.ts). */
import { Hono } from 'hono';
import type { AppEnv } from '../../lib/context';

export const analyticsRoutes = new Hono<AppEnv>();
