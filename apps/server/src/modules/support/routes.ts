/**
 * HTTP routes of priority support (issue 28), mounted under /api: the signed-in user's Help messages
 * (any plan state) and the admin's list, replies and the operator time zone. Moderators review releases
 * only (spec 02 §6), so the staff side is admin-only, like the Contact Us list beside it.
 */
import {
  SUPPORT_MESSAGES,
  supportListQuerySchema,
  supportMessageSchema,
  supportReplySchema,
  supportSettingsSchema,
} from '@tunedrop/shared/schemas/support';
import { Hono } from 'hono';
import { z } from 'zod';
import { access, requireViewer } from '../../lib/access';
import type { AppEnv } from '../../lib/context';
import { validate } from '../../lib/validate';
import {
  getOwnThread,
  listOwnThreads,
  listSupportMessagesForAdmin,
  readSupportSettings,
  replyToSupportMessage,
  SupportRateLimitError,
  saveSupportSettings,
  sendSupportMessage,
} from './service';

const idParamSchema = z.object({ id: z.uuid(SUPPORT_MESSAGES.notFound) });

export const supportRoutes = new Hono<AppEnv>()
  .get('/support/messages', access('user', 'personal'), async (c) => {
    const viewer = requireViewer(c);
    return c.json({ items: await listOwnThreads(c.var.deps.db, viewer.user.id) }, 200);
  })
  .post(
    '/support/messages',
    access('user', 'personal'),
    validate('json', supportMessageSchema),
    async (c) => {
      const viewer = requireViewer(c);
      const { config, db, wakeMail } = c.var.deps;
      try {
        const thread = await sendSupportMessage(db, viewer, c.req.valid('json'), {
          supportEmail: config.SUPPORT_EMAIL,
          appUrl: config.appUrl,
          isRateLimited: config.RATE_LIMITS === 'on',
        });
        wakeMail();
        return c.json(thread, 201);
      } catch (error) {
        if (error instanceof SupportRateLimitError) c.header('Retry-After', String(error.retryAfterSeconds));
        throw error;
      }
    },
  )
  .get('/support/messages/:id', access('user', 'personal'), validate('param', idParamSchema), async (c) => {
    const viewer = requireViewer(c);
    return c.json(await getOwnThread(c.var.deps.db, viewer.user.id, c.req.valid('param').id), 200);
  })
  .get('/admin/support/messages', access('admin'), validate('query', supportListQuerySchema), async (c) => {
    return c.json(await listSupportMessagesForAdmin(c.var.deps.db, c.req.valid('query')), 200);
  })
  .post(
    '/admin/support/messages/:id/replies',
    access('admin'),
    validate('param', idParamSchema),
    validate('json', supportReplySchema),
    async (c) => {
      const viewer = requireViewer(c);
      const { config, db, wakeMail } = c.var.deps;
      const thread = await replyToSupportMessage(
        db,
        { id: c.req.valid('param').id, author: viewer, body: c.req.valid('json').body },
        { appUrl: config.appUrl },
      );
      wakeMail();
      return c.json(thread, 201);
    },
  )
  .get('/admin/support/settings', access('admin'), async (c) => {
    return c.json(await readSupportSettings(c.var.deps.db), 200);
  })
  .put('/admin/support/settings', access('admin'), validate('json', supportSettingsSchema), async (c) => {
    const viewer = requireViewer(c);
    return c.json(await saveSupportSettings(c.var.deps.db, c.req.valid('json'), viewer.user.id, viewer), 200);
  });
