/**
 * HTTP routes of the wallet (spec 02 §2, §7): the summary, payment settings, withdrawal requests.
 * Any signed-in account reaches its own money, subscribed or not (decision 120). Admins set the payee
 * minimum (record 175).
 */

import { payoutDetailsConfirmSchema } from '@tunedrop/shared/schemas/payout-details';
import {
  payeeSettingsSchema,
  paymentSettingsInputSchema,
  WALLET_TEXTS,
  withdrawalRequestInputSchema,
} from '@tunedrop/shared/schemas/wallet';
import { Hono } from 'hono';
import { access, requireViewer } from '../../lib/access';
import type { AppEnv } from '../../lib/context';
import { uuidParam } from '../../lib/params';
import { validate } from '../../lib/validate';
import { readPayeeSettings, savePayeeSettings } from './payees';
import { confirmPayoutDetails, resendConfirmation } from './payout-details-confirm';
import { cancelWithdrawal, getWalletSummary, requestWithdrawal, savePaymentSettings } from './service';

export const walletRoutes = new Hono<AppEnv>()
  .get('/wallet', access('user', 'read'), async (c) => {
    const viewer = requireViewer(c);
    const { db, config } = c.var.deps;
    return c.json(await getWalletSummary(db, config.appSecret, viewer.account.id), 200);
  })
  .put(
    '/wallet/payment-settings',
    access('user', 'finance'),
    validate('json', paymentSettingsInputSchema),
    async (c) => {
      const viewer = requireViewer(c);
      const { db, config } = c.var.deps;
      const saved = await savePaymentSettings(db, config.appSecret, viewer.account.id, c.req.valid('json'), {
        viewer,
        holdHours: config.PAYOUT_HOLD_HOURS,
        appUrl: config.appUrl,
      });
      c.var.deps.wakeMail();
      return c.json(saved, 200);
    },
  )
  // A change of payout details waits for the owner's confirmation by email (record 314).
  .post('/wallet/payment-settings/resend', access('user', 'finance'), async (c) => {
    const viewer = requireViewer(c);
    const { db, config } = c.var.deps;
    const pending = await resendConfirmation(db, config.appSecret, viewer, {
      holdHours: config.PAYOUT_HOLD_HOURS,
      appUrl: config.appUrl,
    });
    c.var.deps.wakeMail();
    return c.json({ pendingConfirmation: pending }, 200);
  })
  // Any signed-in person may try a link; only the account's owner gets past it (checked in the service).
  .post(
    '/wallet/payment-settings/confirm',
    access('user', 'read'),
    validate('json', payoutDetailsConfirmSchema),
    async (c) => {
      const viewer = requireViewer(c);
      const { db, config } = c.var.deps;
      const confirmed = await confirmPayoutDetails(
        db,
        config.appSecret,
        c.req.valid('json').token,
        viewer,
        config.PAYOUT_HOLD_HOURS,
      );
      return c.json(confirmed, 200);
    },
  )
  .post(
    '/wallet/withdrawals',
    access('user', 'finance'),
    validate('json', withdrawalRequestInputSchema),
    async (c) => {
      const viewer = requireViewer(c);
      const { db, config } = c.var.deps;
      const request = await requestWithdrawal(db, viewer.account.id, c.req.valid('json').amount, {
        viewer,
        holdHours: config.PAYOUT_HOLD_HOURS,
        appUrl: config.appUrl,
        appSecret: config.appSecret,
      });
      c.var.deps.wakeMail();
      return c.json(request, 201);
    },
  )
  .post('/wallet/withdrawals/:id/cancel', access('user', 'finance'), async (c) => {
    const viewer = requireViewer(c);
    const request = await cancelWithdrawal(
      c.var.deps.db,
      viewer.account.id,
      uuidParam(c.req.param('id'), WALLET_TEXTS.withdrawalNotFound),
    );
    return c.json(request, 200);
  })
  // The payee minimum (record 175): an operator setting with Basic's $50 as its default.
  .get('/admin/wallet/payee-settings', access('admin'), async (c) => {
    return c.json(await readPayeeSettings(c.var.deps.db), 200);
  })
  .put('/admin/wallet/payee-settings', access('admin'), validate('json', payeeSettingsSchema), async (c) => {
    const viewer = requireViewer(c);
    return c.json(await savePayeeSettings(c.var.deps.db, c.req.valid('json'), viewer.user.id, viewer), 200);
  });
