/** HTTP routes of Withdrawal Management (admin only): the list with decrypted details, approve, reject. */
import {
  adminWithdrawalsQuerySchema,
  rejectWithdrawalSchema,
} from '@tunedrop/shared/schemas/admin-withdrawals';
import { WALLET_TEXTS } from '@tunedrop/shared/schemas/wallet';
import { Hono } from 'hono';
import { access, requireViewer } from '../../lib/access';
import type { AppEnv } from '../../lib/context';
import { uuidParam } from '../../lib/params';
import { validate } from '../../lib/validate';
import { approveWithdrawal, listWithdrawalsForAdmin, rejectWithdrawal } from './service';

const adminOf = (viewer: { user: { id: string; email: string } }) => ({
  id: viewer.user.id,
  email: viewer.user.email,
});

const withdrawalIdParam = (value: string | undefined) => uuidParam(value, WALLET_TEXTS.withdrawalNotFound);

export const adminWithdrawalsRoutes = new Hono<AppEnv>()
  .get('/admin/withdrawals', access('admin'), validate('query', adminWithdrawalsQuerySchema), async (c) => {
    const { db, config } = c.var.deps;
    // Decrypted payment details: never kept by a browser or proxy cache.
    c.header('Cache-Control', 'no-store');
    return c.json(await listWithdrawalsForAdmin(db, config.appSecret, c.req.valid('query')), 200);
  })
  .post('/admin/withdrawals/:id/approve', access('admin'), async (c) => {
    const admin = adminOf(requireViewer(c));
    const result = await approveWithdrawal(c.var.deps.db, admin, withdrawalIdParam(c.req.param('id')));
    c.var.deps.wakeMail();
    return c.json(result, 200);
  })
  .post(
    '/admin/withdrawals/:id/reject',
    access('admin'),
    validate('json', rejectWithdrawalSchema),
    async (c) => {
      const admin = adminOf(requireViewer(c));
      const result = await rejectWithdrawal(
        c.var.deps.db,
        admin,
        withdrawalIdParam(c.req.param('id')),
        c.req.valid('json').reason,
      );
      c.var.deps.wakeMail();
      return c.json(result, 200);
    },
  );
