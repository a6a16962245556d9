/** HTTP routes of the billing capability, mounted under /api (see app.ts). */
import { createCheckoutSchema, sandboxPortalActionSchema } from '@tunedrop/shared/schemas/billing';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { access, requireViewer } from '../../lib/access';
import type { AppEnv } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { validate } from '../../lib/validate';
import {
  cancelSandboxCheckout,
  getSandboxCheckout,
  paySandboxCheckout,
  sandboxPortalAction,
  sandboxPortalState,
} from './sandbox-service';
import { checkSubscription, createCheckout, handleStripeWebhook, openCustomerPortal } from './service';

const WEBHOOK_MAX_BYTES = 512 * 1024;

export const billingRoutes = new Hono<AppEnv>()
  .post('/billing/create-checkout', access('user'), validate('json', createCheckoutSchema), async (c) => {
    const result = await createCheckout(c.var.deps, requireViewer(c), c.req.valid('json'));
    return c.json(result, 200);
  })
  .post('/billing/check-subscription', access('user'), async (c) => {
    return c.json(await checkSubscription(c.var.deps, requireViewer(c)), 200);
  })
  .post('/billing/customer-portal', access('user'), async (c) => {
    return c.json(await openCustomerPortal(c.var.deps, requireViewer(c)), 200);
  })
  .post(
    '/payments/webhook',
    access('public'),
    bodyLimit({
      maxSize: WEBHOOK_MAX_BYTES,
      onError: () => {
        throw new AppError('payload_too_large', 'The webhook body is too large.', 413);
      },
    }),
    async (c) => {
      // The signature covers the exact bytes, so the body is read as text, never re-serialised.
      const outcome = await handleStripeWebhook(
        c.var.deps,
        await c.req.text(),
        c.req.header('stripe-signature'),
      );
      return c.json({ received: true, outcome }, 200);
    },
  )
  .get('/billing/sandbox/checkouts/:id', access('user'), async (c) => {
    return c.json(await getSandboxCheckout(c.var.deps, requireViewer(c), c.req.param('id')), 200);
  })
  .post('/billing/sandbox/checkouts/:id/pay', access('user'), async (c) => {
    return c.json(await paySandboxCheckout(c.var.deps, requireViewer(c), c.req.param('id')), 200);
  })
  .post('/billing/sandbox/checkouts/:id/cancel', access('user'), async (c) => {
    return c.json(await cancelSandboxCheckout(c.var.deps, requireViewer(c), c.req.param('id')), 200);
  })
  .get('/billing/sandbox/portal', access('user'), async (c) => {
    return c.json(await sandboxPortalState(c.var.deps, requireViewer(c)), 200);
  })
  .post('/billing/sandbox/portal', access('user'), validate('json', sandboxPortalActionSchema), async (c) => {
    return c.json(await sandboxPortalAction(c.var.deps, requireViewer(c), c.req.valid('json')), 200);
  });
