/** HTTP routes of the account's webhook endpoints and their delivery log (issue 40, record 291). */
import { createWebhookEndpointSchema, WEBHOOK_TEXTS } from '@tunedrop/shared/schemas/webhooks';
import { Hono } from 'hono';
import { access, requireViewer } from '../../lib/access';
import type { AppEnv } from '../../lib/context';
import { uuidParam } from '../../lib/params';
import { validate } from '../../lib/validate';
import { assertManagesKeys } from '../api-keys';
import {
  createEndpoint,
  listDeliveries,
  listEndpoints,
  redeliver,
  removeEndpoint,
  rotateSecret,
  sendTestEvent,
} from './service';

const endpointId = (value: string | undefined) => uuidParam(value, WEBHOOK_TEXTS.notFound);

// 'personal' lets every member through access(); like API keys, only the owner or a team admin manage them.
export const webhooksRoutes = new Hono<AppEnv>()
  .get('/webhooks/endpoints', access('user', 'personal'), async (c) => {
    const viewer = requireViewer(c);
    assertManagesKeys(viewer);
    return c.json({ endpoints: await listEndpoints(c.var.deps.db, viewer.account.id) }, 200);
  })
  .post(
    '/webhooks/endpoints',
    access('user', 'personal'),
    validate('json', createWebhookEndpointSchema),
    async (c) => {
      const viewer = requireViewer(c);
      assertManagesKeys(viewer);
      const created = await createEndpoint(c.var.deps, viewer, c.req.valid('json'));
      return c.json({ ...created, endpoints: await listEndpoints(c.var.deps.db, viewer.account.id) }, 201);
    },
  )
  .delete('/webhooks/endpoints/:id', access('user', 'personal'), async (c) => {
    const viewer = requireViewer(c);
    assertManagesKeys(viewer);
    await removeEndpoint(c.var.deps.db, viewer.account.id, endpointId(c.req.param('id')));
    return c.json({ endpoints: await listEndpoints(c.var.deps.db, viewer.account.id) }, 200);
  })
  .post('/webhooks/endpoints/:id/rotate', access('user', 'personal'), async (c) => {
    const viewer = requireViewer(c);
    assertManagesKeys(viewer);
    const rotated = await rotateSecret(c.var.deps.db, viewer.account.id, endpointId(c.req.param('id')));
    return c.json({ ...rotated, endpoints: await listEndpoints(c.var.deps.db, viewer.account.id) }, 200);
  })
  .post('/webhooks/endpoints/:id/test', access('user', 'personal'), async (c) => {
    const viewer = requireViewer(c);
    assertManagesKeys(viewer);
    const id = endpointId(c.req.param('id'));
    await sendTestEvent(c.var.deps.db, viewer.account.id, id);
    return c.json({ deliveries: await listDeliveries(c.var.deps.db, viewer.account.id, id) }, 200);
  })
  .get('/webhooks/endpoints/:id/deliveries', access('user', 'personal'), async (c) => {
    const viewer = requireViewer(c);
    assertManagesKeys(viewer);
    const id = endpointId(c.req.param('id'));
    return c.json({ deliveries: await listDeliveries(c.var.deps.db, viewer.account.id, id) }, 200);
  })
  .post('/webhooks/deliveries/:id/redeliver', access('user', 'personal'), async (c) => {
    const viewer = requireViewer(c);
    assertManagesKeys(viewer);
    const id = uuidParam(c.req.param('id'), WEBHOOK_TEXTS.deliveryNotFound);
    const endpoint = await redeliver(c.var.deps.db, viewer.account.id, id);
    return c.json({ deliveries: await listDeliveries(c.var.deps.db, viewer.account.id, endpoint) }, 200);
  });
