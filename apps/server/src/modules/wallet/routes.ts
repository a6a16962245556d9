/** HTTP routes of the wallet capability, mounted under /api (see app.ts). */
import { Hono } from 'hono';
import type { AppEnv } from '../../lib/context';

export const walletRoutes = new Hono<AppEnv>();
