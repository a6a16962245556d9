/**
 * HTTP routes of the site capability, mounted under /api (see app.ts): the public Contact Us
 * endpoint and the admin list of contact requests.
 */
import {
  contactRequestListQuerySchema,
  contactRequestSchema,
  contactRequestUpdateSchema,
} from '@tunedrop/shared/schemas/site';
import { Hono } from 'hono';
import { z } from 'zod';
import { access, requireViewer } from '../../lib/access';
import { clientAddress } from '../../lib/client-address';
import type { AppEnv } from '../../lib/context';
import { validate } from '../../lib/validate';
import { readBrand } from '../brand';
import {
  ContactRateLimitError,
  listContactRequests,
  setContactRequestHandled,
  submitContactRequest,
} from './service';

const idParamSchema = z.object({ id: z.uuid('Invalid contact request id.') });

export const siteRoutes = new Hono<AppEnv>()
  .post('/contact', access('public'), validate('json', contactRequestSchema), async (c) => {
    const { config, db, wakeMail } = c.var.deps;
    try {
      const { id } = await submitContactRequest(db, c.req.valid('json'), {
        clientAddress: clientAddress(c),
        supportEmail: (await readBrand(db)).supportEmail || config.SUPPORT_EMAIL,
        appUrl: config.appUrl,
        isRateLimited: config.RATE_LIMITS === 'on',
      });
      wakeMail();
      return c.json({ id }, 201);
    } catch (error) {
      if (error instanceof ContactRateLimitError) c.header('Retry-After', String(error.retryAfterSeconds));
      throw error;
    }
  })
  .get('/admin/messages', access('admin'), validate('query', contactRequestListQuerySchema), async (c) => {
    return c.json(await listContactRequests(c.var.deps.db, c.req.valid('query')), 200);
  })
  .patch(
    '/admin/messages/:id',
    access('admin'),
    validate('param', idParamSchema),
    validate('json', contactRequestUpdateSchema),
    async (c) => {
      const viewer = requireViewer(c);
      const view = await setContactRequestHandled(c.var.deps.db, {
        id: c.req.valid('param').id,
        isHandled: c.req.valid('json').isHandled,
        adminId: viewer.user.id,
      });
      return c.json(view, 200);
    },
  );
