/** HTTP routes of the wallet (spec 02 §2, §7): the summary, payment settings, withdrawal requests. */
import { paymentSettingsInputSchema, withdrawalRequestInputSchema } from '@tunedrop/shared/schemas/wallet';
import { Hono } from 'hono';
import { access, requireViewer } from '../../lib/access';
import type { AppEnv } from '../../lib/context';
import { validate } from '../../lib/validate';
import { cancelWithdrawal, getWalletSummary, requestWithdrawal, savePaymentSettings } from './service';

export const walletRoutes = new Hono<AppEnv>()
  .get('/wallet', access('subscriber'), async (c) => {
    const viewer = requireViewer(c);
    const { db, config } = c.var.deps;
    return c.json(await getWalletSummary(db, config.appSecret, viewer.user.id), 200);
  })
  .put(
    '/wallet/payment-settings',
    access('subscriber'),
    validate('json', paymentSettingsInputSchema),
    async (c) => {
      const viewer = requireViewer(c);
      const { db, config } = c.var.deps;
      const paymentDetails = await savePaymentSettings(
        db,
        config.appSecret,
        viewer.user.id,
        c.req.valid('json'),
      );
      return c.json({ paymentDetails }, 200);
    },
  )
  .post(
    '/wallet/withdrawals',
    access('subscriber'),
    validate('json', withdrawalRequestInputSchema),
    async (c) => {
      const viewer = requireViewer(c);
      const request = await requestWithdrawal(c.var.deps.db, viewer.user.id, c.req.valid('json').amount);
      return c.json(request, 201);
    },
  )
  .post('/wallet/withdrawals/:id/cancel', access('subscriber'), async (c) => {
    const viewer = requireViewer(c);
    const request = await cancelWithdrawal(c.var.deps.db, viewer.user.id, c.req.param('id'));
    return c.json(request, 200);
  });
