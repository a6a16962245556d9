/**
 * Test-only seeding for the Playwright journeys (the server's PGlite cannot be opened by a second
 * process). Mounted only when E2E_FIXTURES_TOKEN is set outside production, and every call must carry
 * that token. Each answer includes a session cookie so a journey can start signed in.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { access, globalMiddleware } from '../../lib/access';
import type { AppEnv } from '../../lib/context';
import { forbidden } from '../../lib/errors';
import { validate } from '../../lib/validate';
import { createTestRelease, createTestUser, signInCookie } from '../../test-support/fixtures';

const userSchema = z.object({
  email: z.string().optional(),
  password: z.string().optional(),
  fullName: z.string().optional(),
  artistName: z.string().optional(),
  plan: z.enum(['basic', 'pro']).optional(),
  roles: z.array(z.enum(['admin', 'moderator', 'free_access'])).optional(),
  subscription: z.enum(['active', 'canceled', 'past_due', 'inactive']).optional(),
  subscriptionEnd: z.string().nullable().optional(),
  isEmailVerified: z.boolean().optional(),
  banReason: z.string().optional(),
  balanceCents: z.number().int().nonnegative().optional(),
  totalEarningsCents: z.number().int().nonnegative().optional(),
  isSignedIn: z.boolean().optional(),
});

const releaseSchema = z.object({
  userId: z.string(),
  title: z.string().optional(),
  status: z.string().optional(),
  trackCount: z.number().int().min(1).max(20).optional(),
  takedownRequested: z.boolean().optional(),
  rejectionReason: z.string().nullable().optional(),
});

export const testFixturesRoutes = new Hono<AppEnv>()
  .use(
    '*',
    globalMiddleware(async (c, next) => {
      const token = c.var.deps.config.E2E_FIXTURES_TOKEN;
      if (!token || c.req.header('x-fixtures-token') !== token) throw forbidden();
      await next();
    }),
  )
  .post('/users', access('public'), validate('json', userSchema), async (c) => {
    const { isSignedIn, subscriptionEnd, ...options } = c.req.valid('json');
    const deps = c.var.deps;
    const user = await createTestUser(deps, {
      ...options,
      ...(subscriptionEnd !== undefined
        ? { subscriptionEnd: subscriptionEnd ? new Date(subscriptionEnd) : null }
        : {}),
    });
    const cookie = isSignedIn === false ? null : await signInCookie(deps, user.email, user.password);
    return c.json({ ...user, cookie }, 201);
  })
  .post('/releases', access('public'), validate('json', releaseSchema), async (c) => {
    const { userId, ...options } = c.req.valid('json');
    const release = await createTestRelease(c.var.deps, userId, options);
    return c.json(release, 201);
  });
