/** HTTP routes of the billing capability, mounted under /api (see app.ts). */
import { Hono } from 'hono';
import type { AppEnv } from '../../lib/context';

export const billingRoutes = new Hono<AppEnv>();
