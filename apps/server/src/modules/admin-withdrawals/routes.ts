/** HTTP routes of the admin-withdrawals capability, mounted under /api (see app.ts). */
import { Hono } from 'hono';
import type { AppEnv } from '../../lib/context';

export const adminWithdrawalsRoutes = new Hono<AppEnv>();
