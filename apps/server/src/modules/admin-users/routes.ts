/** HTTP routes of User Management (admin only; moderators are refused). */
import { adminUsersQuerySchema, banSchema } from '@tunedrop/shared/schemas/admin-users';
import { Hono } from 'hono';
import { access, requireViewer } from '../../lib/access';
import type { AppEnv } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { validate } from '../../lib/validate';
import { banUser, listUsers, setRole, unbanUser } from './service';

const adminOf = (viewer: { user: { id: string; email: string } }) => ({
  id: viewer.user.id,
  email: viewer.user.email,
});

export const adminUsersRoutes = new Hono<AppEnv>()
  .get('/admin/users', access('admin'), validate('query', adminUsersQuerySchema), async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(await listUsers(c.var.deps.db, c.req.valid('query')), 200);
  })
  .put('/admin/users/:id/roles/:role', access('admin'), async (c) => {
    const admin = adminOf(requireViewer(c));
    return c.json(await setRole(c.var.deps.db, admin, c.req.param('id'), c.req.param('role'), true), 200);
  })
  .delete('/admin/users/:id/roles/:role', access('admin'), async (c) => {
    const admin = adminOf(requireViewer(c));
    return c.json(await setRole(c.var.deps.db, admin, c.req.param('id'), c.req.param('role'), false), 200);
  })
  .post('/admin/users/:id/ban', access('admin'), async (c) => {
    // The spec's 'Ban reason required' has its own code, so the page can show its title.
    const body = (await c.req.json().catch(() => ({}))) as unknown;
    const parsed = banSchema.safeParse(body);
    if (!parsed.success) {
      throw new AppError('ban_reason_required', parsed.error.issues[0]?.message ?? 'Invalid request', 422);
    }
    const admin = adminOf(requireViewer(c));
    return c.json(await banUser(c.var.deps.db, admin, c.req.param('id'), parsed.data.reason), 200);
  })
  .post('/admin/users/:id/unban', access('admin'), async (c) => {
    const admin = adminOf(requireViewer(c));
    return c.json(await unbanUser(c.var.deps.db, admin, c.req.param('id')), 200);
  });
