/** HTTP routes of the admin-releases capability, mounted under /api (see app.ts). */
import { Hono } from 'hono';
import type { AppEnv } from '../../lib/context';

export const adminReleasesRoutes = new Hono<AppEnv>();
