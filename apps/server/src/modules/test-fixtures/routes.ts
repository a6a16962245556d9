/**
 * Test-only seeding for the Playwright journeys (the server's PGlite cannot be opened by a second
 * process). Mounted only when E2E_FIXTURES_TOKEN is set outside production, and every call must carry
 * that token. Each answer includes a session cookie so a journey can start signed in.
 */
import { PLATFORM_IDS, type PlatformId, RELEASE_STATUSES } from '@tunedrop/shared';
import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { z } from 'zod';
import { balanceUpdatesLog, releases } from '../../db/schema';
import { access, globalMiddleware } from '../../lib/access';
import type { AppEnv } from '../../lib/context';
import { forbidden, notFound } from '../../lib/errors';
import { validate } from '../../lib/validate';
import { createTestRelease, createTestUser, signInCookie } from '../../test-support/fixtures';
import { createStuckImport } from '../../test-support/royalty-jobs';
import { cliAuditActor } from '../audit';
import { runDeliveryOnce } from '../delivery';
import { applyLapsePolicy } from '../lapse-policy';
import { recordSendError, sendPayoutRun, startPayoutRun, withholdingFor } from '../payouts';
import { signTaxForm } from '../tax';

const stuckImportSchema = z.object({ fileName: z.string().min(1), content: z.string().min(1) });

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
  artistProfileId: z.uuid().optional(),
  title: z.string().optional(),
  status: z.enum(RELEASE_STATUSES).optional(),
  trackCount: z.number().int().min(1).max(20).optional(),
  takedownRequested: z.boolean().optional(),
  rejectionReason: z.string().nullable().optional(),
  releaseDate: z.iso.date().optional(),
  originalReleaseDate: z.iso.date().nullable().optional(),
  distributionStores: z
    .array(z.enum(PLATFORM_IDS as [PlatformId, ...PlatformId[]]))
    .min(1)
    .optional(),
  /** One ISRC (or null) per track, in order (royalty import journeys match report lines by ISRC). */
  isrcs: z.array(z.string().nullable()).max(20).optional(),
  upc: z
    .string()
    .regex(/^[0-9]{12,13}$/)
    .optional(),
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
    // A seeded balance has its line in the ledger, dated long before any statement month, as if carried over:
    // the finance overview and audit:balances reconcile the journeys' shared database (record 189); its
    // journal transaction is createTestUser's.
    if (options.balanceCents) {
      await deps.db.insert(balanceUpdatesLog).values({
        userId: user.userId,
        userEmail: user.email,
        oldBalanceCents: 0,
        newBalanceCents: options.balanceCents,
        earningsDeltaCents: options.totalEarningsCents ?? options.balanceCents,
        updateType: 'cli',
        notes: 'Opening balance (journey fixture)',
        createdAt: new Date('2000-01-01T00:00:00Z'),
      });
    }
    const cookie = isSignedIn === false ? null : await signInCookie(deps, user.email, user.password);
    return c.json({ ...user, cookie }, 201);
  })
  .post('/releases', access('public'), validate('json', releaseSchema), async (c) => {
    const { userId, ...options } = c.req.valid('json');
    const release = await createTestRelease(c.var.deps, userId, options);
    return c.json(release, 201);
  })
  // Time passing for the delivery journeys: the release date moves, the next worker pass sees the new day.
  .post(
    '/releases/:id/release-date',
    access('public'),
    validate('json', z.object({ releaseDate: z.iso.date() })),
    async (c) => {
      const updated = await c.var.deps.db
        .update(releases)
        .set({ releaseDate: c.req.valid('json').releaseDate })
        .where(eq(releases.id, c.req.param('id')))
        .returning({ id: releases.id });
      if (updated.length === 0) throw notFound('Release not found.');
      return c.json({ ok: true as const }, 200);
    },
  )
  // One delivery worker pass now (jobs, acknowledgements, live/taken-down promotion) instead of waiting
  // for the background worker's acknowledgement interval, as a store's poll window would be shortened.
  .post('/delivery/run', access('public'), async (c) => {
    const result = await runDeliveryOnce(c.var.deps);
    return c.json(result, 200);
  })
  // A royalty import whose job was lost (record 220): it waits staging with no run until an admin retries it.
  .post('/royalty-imports/stuck', access('public'), validate('json', stuckImportSchema), async (c) => {
    return c.json(await createStuckImport(c.var.deps, c.req.valid('json')), 200);
  })
  // The lapse policy's daily run now (its job runs at 06:00 UTC), so a journey sees its mail.
  .post('/lapse-policy/run', access('public'), async (c) => {
    const { db, config } = c.var.deps;
    return c.json(await applyLapsePolicy(db, config.appUrl), 200);
  })
  // A signed tax form for a seeded account (issue 38), as the interview signs it: payouts journeys start from it.
  .post(
    '/tax-form',
    access('public'),
    validate(
      'json',
      z.object({ userId: z.string().min(1), form: z.unknown(), signedAt: z.iso.datetime().optional() }),
    ),
    async (c) => {
      const { db, config } = c.var.deps;
      const { userId, form, signedAt } = c.req.valid('json');
      const row = await signTaxForm(
        db,
        config.appSecret,
        form as Parameters<typeof signTaxForm>[2],
        {
          userId,
          signedAt: signedAt ? new Date(signedAt) : new Date(),
          address: null,
          userAgent: 'e2e fixture',
        },
        cliAuditActor(),
      );
      return c.json({ id: row.id, sha256: row.sha256 }, 200);
    },
  )
  // A payout run of one seeded account now (issue 38), as the monthly run would pay it: journeys running
  // beside it keep their balances, which a run of every account would sweep.
  .post(
    '/payouts/run',
    access('public'),
    validate('json', z.object({ userId: z.string().min(1) })),
    async (c) => {
      const started = await startPayoutRun(c.var.deps.db, {
        trigger: 'manual',
        actor: cliAuditActor(),
        withholding: withholdingFor,
        accountIds: [c.req.valid('json').userId],
      });
      return c.json({ runId: started.runId, totals: started.preview.totals }, 200);
    },
  )
  // A payout run of one seeded account killed half-way (issue 38): planned without its job, sent here and
  // stopped after the provider answered, before its answer was recorded, as a crash there would leave it.
  // The error is kept on the run as the job keeps it; the admin resumes it.
  .post(
    '/payouts/run-killed',
    access('public'),
    validate('json', z.object({ userId: z.string().min(1) })),
    async (c) => {
      const { db, config } = c.var.deps;
      const started = await startPayoutRun(db, {
        trigger: 'manual',
        actor: cliAuditActor(),
        withholding: withholdingFor,
        accountIds: [c.req.valid('json').userId],
        shouldQueueSend: false,
      });
      const killed = new Error('the server stopped after the provider answered (journey fixture)');
      try {
        await sendPayoutRun(db, config.appSecret, started.runId, {
          afterProviderCall: () => {
            throw killed;
          },
        });
      } catch (error) {
        if (error !== killed) throw error;
        await recordSendError(db, started.runId, error);
      }
      return c.json({ runId: started.runId }, 200);
    },
  );
