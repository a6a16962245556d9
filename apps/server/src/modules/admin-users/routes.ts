/** HTTP routes of the admin-users capability, mounted under /api (see app.ts). */
import { Hono } from 'hono';
import type { AppEnv } from '../../lib/context';

export const adminUsersRoutes = new Hono<AppEnv>();
