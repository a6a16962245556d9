/** HTTP routes of the releases capability, mounted under /api (see app.ts). */
import { Hono } from 'hono';
import type { AppEnv } from '../../lib/context';

export const releasesRoutes = new Hono<AppEnv>();
