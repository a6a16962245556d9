/**
 * HTTP routes of payouts (issue 38): the admin's provider settings, test connection, schedule, preview,
 * runs, payout file, bank confirmation and marking by hand; the account's own Payouts page.
 */
import {
  markItemSchema,
  PAYOUT_PROVIDERS,
  PAYOUT_TEXTS,
  payoutSettingsSchema,
  providerSettingsInputSchema,
} from '@tunedrop/shared/schemas/payouts';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import { access, requireViewer } from '../../lib/access';
import { attachmentDisposition } from '../../lib/content-disposition';
import type { AppEnv } from '../../lib/context';
import { AppError, notFound } from '../../lib/errors';
import { uuidParam } from '../../lib/params';
import { validate } from '../../lib/validate';
import { payoutsPage } from './account';
import { pollPaypalRun, receivePaypalWebhook } from './provider-events';
import { applyConfirmation, markPayoutItem } from './reconcile';
import { resumePayoutRun, retryPayoutItem } from './retry';
import { previewPayoutRun, startPayoutRun } from './run-plan';
import {
  listProviderSettings,
  readPayoutSettings,
  savePayoutSettings,
  saveProviderSettings,
  testProviderConnection,
} from './settings';
import {
  receiveStripeWebhook,
  stripeOnboarding,
  stripeOnboardingLink,
  useStripeForPayouts,
} from './stripe-connect';
import { getPayoutRun, listPayoutRuns, payoutFile } from './views';
import { pollWiseRun, receiveWiseWebhook } from './wise-events';

/** A provider's webhook body: read whole for its signature, so bounded first. */
const webhookBodyLimit = bodyLimit({
  maxSize: 256 * 1024,
  onError: () => {
    throw new AppError('payload_too_large', 'The webhook body is too large.', 413);
  },
});

import { withholdingFor } from './withholding';

const runId = (value: string | undefined) => uuidParam(value, PAYOUT_TEXTS.runNotFound);
const providerParam = (value: string | undefined) => {
  const found = PAYOUT_PROVIDERS.find((id) => id === value);
  if (!found) throw notFound('Unknown payout provider');
  return found;
};

export const payoutsRoutes = new Hono<AppEnv>()
  .get('/payouts', access('user', 'read'), async (c) => {
    const viewer = requireViewer(c);
    return c.json(await payoutsPage(c.var.deps.db, viewer.account.id), 200);
  })
  .get('/payouts/stripe', access('user', 'read'), async (c) => {
    const viewer = requireViewer(c);
    const { db, config } = c.var.deps;
    return c.json(await stripeOnboarding(db, config.appSecret, viewer.account.id), 200);
  })
  .post('/payouts/stripe/onboarding', access('user', 'finance'), async (c) => {
    const viewer = requireViewer(c);
    const { db, config } = c.var.deps;
    c.header('Cache-Control', 'no-store');
    return c.json(await stripeOnboardingLink(db, config.appSecret, viewer.account.id, config.appUrl), 200);
  })
  .post('/payouts/stripe/use', access('user', 'finance'), async (c) => {
    const viewer = requireViewer(c);
    const { db, config } = c.var.deps;
    const saved = await useStripeForPayouts(db, config.appSecret, viewer.account.id, {
      viewer,
      holdHours: config.PAYOUT_HOLD_HOURS,
      appUrl: config.appUrl,
    });
    c.var.deps.wakeMail();
    return c.json(saved, 200);
  })
  .post('/payouts/webhooks/stripe', access('public'), webhookBodyLimit, async (c) => {
    const { db, config } = c.var.deps;
    const result = await receiveStripeWebhook(
      db,
      config.appSecret,
      c.req.header('stripe-signature'),
      await c.req.text(),
    );
    c.var.deps.wakeMail();
    return c.json({ received: true, ...result }, 200);
  })
  .get('/admin/payouts/settings', access('admin'), async (c) => {
    const { db, config } = c.var.deps;
    c.header('Cache-Control', 'no-store');
    return c.json(
      { providers: await listProviderSettings(db, config.appSecret), schedule: await readPayoutSettings(db) },
      200,
    );
  })
  .put(
    '/admin/payouts/providers',
    access('admin'),
    validate('json', providerSettingsInputSchema),
    async (c) => {
      const { db, config } = c.var.deps;
      return c.json(
        await saveProviderSettings(db, config.appSecret, c.req.valid('json'), requireViewer(c)),
        200,
      );
    },
  )
  .post('/admin/payouts/providers/:provider/test', access('admin'), async (c) => {
    const { db, config } = c.var.deps;
    return c.json(
      await testProviderConnection(db, config.appSecret, providerParam(c.req.param('provider'))),
      200,
    );
  })
  .put('/admin/payouts/schedule', access('admin'), validate('json', payoutSettingsSchema), async (c) => {
    return c.json(await savePayoutSettings(c.var.deps.db, c.req.valid('json'), requireViewer(c)), 200);
  })
  .get('/admin/payouts/preview', access('admin'), async (c) => {
    const viewer = requireViewer(c);
    c.header('Cache-Control', 'no-store');
    return c.json(
      await previewPayoutRun(c.var.deps.db, {
        trigger: 'manual',
        actor: viewer,
        withholding: withholdingFor,
      }),
      200,
    );
  })
  .get('/admin/payouts/runs', access('admin'), async (c) => {
    return c.json({ runs: await listPayoutRuns(c.var.deps.db) }, 200);
  })
  .post('/admin/payouts/runs', access('admin'), async (c) => {
    const viewer = requireViewer(c);
    const started = await startPayoutRun(c.var.deps.db, {
      trigger: 'manual',
      actor: viewer,
      withholding: withholdingFor,
    });
    return c.json(await getPayoutRun(c.var.deps.db, started.runId), 201);
  })
  .get('/admin/payouts/runs/:id', access('admin'), async (c) => {
    return c.json(await getPayoutRun(c.var.deps.db, runId(c.req.param('id'))), 200);
  })
  .get('/admin/payouts/runs/:id/file', access('admin'), async (c) => {
    const id = runId(c.req.param('id'));
    const file = await payoutFile(c.var.deps.db, id);
    c.header('Cache-Control', 'no-store');
    c.header('Content-Type', 'text/csv; charset=utf-8');
    c.header('Content-Disposition', attachmentDisposition(`payouts-${id}.csv`));
    return c.body(file, 200);
  })
  .post(
    '/admin/payouts/runs/:id/confirmation',
    access('admin'),
    validate('json', z.object({ csv: z.string().min(1).max(60_000) })),
    async (c) => {
      const result = await applyConfirmation(
        c.var.deps.db,
        requireViewer(c),
        runId(c.req.param('id')),
        c.req.valid('json').csv,
      );
      c.var.deps.wakeMail();
      return c.json(result, 200);
    },
  )
  .post('/payouts/webhooks/paypal', access('public'), webhookBodyLimit, async (c) => {
    const { db, config } = c.var.deps;
    const result = await receivePaypalWebhook(
      db,
      config.appSecret,
      (name) => c.req.header(name),
      await c.req.text(),
    );
    c.var.deps.wakeMail();
    return c.json({ received: true, ...result }, 200);
  })
  .post('/payouts/webhooks/wise', access('public'), webhookBodyLimit, async (c) => {
    const { db, config } = c.var.deps;
    const result = await receiveWiseWebhook(
      db,
      config.appSecret,
      (name) => c.req.header(name),
      await c.req.text(),
    );
    c.var.deps.wakeMail();
    return c.json({ status: 'ok', ...result }, 200);
  })
  .post('/admin/payouts/runs/:id/poll', access('admin'), async (c) => {
    const { db, config } = c.var.deps;
    const id = runId(c.req.param('id'));
    const applied =
      (await pollPaypalRun(db, config.appSecret, id)) + (await pollWiseRun(db, config.appSecret, id));
    c.var.deps.wakeMail();
    return c.json({ applied }, 200);
  })
  .post('/admin/payouts/runs/:id/resume', access('admin'), async (c) => {
    return c.json(await resumePayoutRun(c.var.deps.db, runId(c.req.param('id'))), 200);
  })
  .post('/admin/payouts/items/:id/retry', access('admin'), async (c) => {
    const { db } = c.var.deps;
    const started = await retryPayoutItem(
      db,
      requireViewer(c),
      uuidParam(c.req.param('id'), PAYOUT_TEXTS.itemNotFound),
      withholdingFor,
    );
    return c.json(await getPayoutRun(db, started.runId), 201);
  })
  .post('/admin/payouts/items/:id/mark', access('admin'), validate('json', markItemSchema), async (c) => {
    const body = c.req.valid('json');
    const result = await markPayoutItem(
      c.var.deps.db,
      requireViewer(c),
      uuidParam(c.req.param('id'), PAYOUT_TEXTS.itemNotFound),
      body.outcome,
      body.reason,
    );
    c.var.deps.wakeMail();
    return c.json(result, 200);
  });
