/** HTTP routes of the account's API keys (issue 40, record 290): list, make (shown once), revoke. */
import { API_KEY_TEXTS, createApiKeySchema } from '@tunedrop/shared/schemas/api-keys';
import { Hono } from 'hono';
import { access, requireViewer } from '../../lib/access';
import type { AppEnv } from '../../lib/context';
import { uuidParam } from '../../lib/params';
import { validate } from '../../lib/validate';
import { assertManagesKeys, createApiKey, listApiKeys, revokeApiKey } from './service';

// 'personal' lets every member through access(); the service admits the owner and team admins (record 290).
export const apiKeysRoutes = new Hono<AppEnv>()
  .get('/api-keys', access('user', 'personal'), async (c) => {
    const viewer = requireViewer(c);
    assertManagesKeys(viewer);
    return c.json({ keys: await listApiKeys(c.var.deps.db, viewer.account.id) }, 200);
  })
  .post('/api-keys', access('user', 'personal'), validate('json', createApiKeySchema), async (c) => {
    const viewer = requireViewer(c);
    assertManagesKeys(viewer);
    const { key, created } = await createApiKey(c.var.deps.db, viewer, c.req.valid('json'));
    return c.json({ key, created, keys: await listApiKeys(c.var.deps.db, viewer.account.id) }, 201);
  })
  .delete('/api-keys/:id', access('user', 'personal'), async (c) => {
    const viewer = requireViewer(c);
    assertManagesKeys(viewer);
    await revokeApiKey(
      c.var.deps.db,
      viewer.account.id,
      uuidParam(c.req.param('id'), API_KEY_TEXTS.notFound),
    );
    return c.json({ keys: await listApiKeys(c.var.deps.db, viewer.account.id) }, 200);
  });
