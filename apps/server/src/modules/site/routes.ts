/** HTTP routes of the site capability, mounted under /api (see app.ts). */
import { Hono } from 'hono';
import type { AppEnv } from '../../lib/context';

export const siteRoutes = new Hono<AppEnv>();
