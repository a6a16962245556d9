/** HTTP routes of the builder capability, mounted under /api (see app.ts). */
import { Hono } from 'hono';
import type { AppEnv } from '../../lib/context';

export const builderRoutes = new Hono<AppEnv>();
