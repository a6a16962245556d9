/** HTTP routes of Balance Management (admin only): search, single edit, bulk CSV verify and apply. */
import {
  applyRowsSchema,
  BALANCE_TEXTS,
  balanceSearchQuerySchema,
  manualBalanceSchema,
  verifyRowsSchema,
} from '@tunedrop/shared/schemas/admin-balances';
import { Hono } from 'hono';
import { access, requireViewer } from '../../lib/access';
import type { AppEnv } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { validate } from '../../lib/validate';
import { applyBalanceRows, searchBalanceUsers, updateBalanceManually, verifyBalanceRows } from './service';

const adminOf = (viewer: { user: { id: string; email: string } }) => ({
  id: viewer.user.id,
  email: viewer.user.email,
});

export const adminBalancesRoutes = new Hono<AppEnv>()
  .get('/admin/balances/users', access('admin'), validate('query', balanceSearchQuerySchema), async (c) => {
    return c.json({ users: await searchBalanceUsers(c.var.deps.db, c.req.valid('query').q) }, 200);
  })
  .put('/admin/balances/users/:id', access('admin'), validate('json', manualBalanceSchema), async (c) => {
    const admin = adminOf(requireViewer(c));
    const user = await updateBalanceManually(c.var.deps.db, admin, c.req.param('id'), c.req.valid('json'));
    return c.json(user, 200);
  })
  .post('/admin/balances/verify', access('admin'), validate('json', verifyRowsSchema), async (c) => {
    try {
      return c.json({ rows: await verifyBalanceRows(c.var.deps.db, c.req.valid('json')) }, 200);
    } catch (error) {
      if (error instanceof AppError) throw error;
      // The spec shows 'Database error: ...' on each row; the page marks every row with this message.
      c.var.deps.logger.error({ err: error }, 'bulk balance verification failed');
      const detail = error instanceof Error ? error.message : String(error);
      throw new AppError('database_error', BALANCE_TEXTS.databaseError(detail), 500);
    }
  })
  .post('/admin/balances/apply', access('admin'), validate('json', applyRowsSchema), async (c) => {
    const admin = adminOf(requireViewer(c));
    const rows = await applyBalanceRows(c.var.deps.db, admin, c.req.valid('json'));
    return c.json({ rows, applied: rows.filter((row) => row.status === 'applied').length }, 200);
  });
