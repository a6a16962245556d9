/**
 * The admin's imports list and each import's runs (import and posting, record 220), posting a staged
 * import, and the suspense account (issue 16; the list is in packages/shared/src/schemas/royalties.ts and
 * royalty-suspense.ts). The upload and the other import routes are royalty-imports'.
 */
import {
  suspenseAssignSchema,
  suspenseQuerySchema,
  suspenseReleaseSchema,
} from '@tunedrop/shared/schemas/royalty-suspense';
import { safeText } from '@tunedrop/shared/text';
import { Hono } from 'hono';
import { z } from 'zod';
import { access, requireViewer } from '../../lib/access';
import { jsonBodyLimit } from '../../lib/body-limit';
import type { AppEnv } from '../../lib/context';
import { validate } from '../../lib/validate';
import { getImportSummary, listImports } from '../royalty-imports';
import { retryImport, withRetries } from './import-retry';
import { requestPosting } from './posting';
import { assignSuspense, listSuspense, releaseSuspense } from './suspense';

const idParam = z.object({ id: z.uuid('Not found') });
const cursorQuery = z.object({ cursor: safeText().max(500).optional() });

const adminOf = (viewer: { user: { id: string; email: string } }) => ({
  id: viewer.user.id,
  email: viewer.user.email,
});

export const royaltiesRoutes = new Hono<AppEnv>()
  .get('/admin/royalties/imports', access('admin'), validate('query', cursorQuery), async (c) => {
    const list = await listImports(c.var.deps.db, c.req.valid('query').cursor);
    return c.json({ ...list, items: await withRetries(c.var.deps.db, list.items) }, 200);
  })
  .get('/admin/royalties/imports/:id', access('admin'), validate('param', idParam), async (c) => {
    const summary = await getImportSummary(c.var.deps.db, c.req.valid('param').id);
    const [withRetry] = await withRetries(c.var.deps.db, [summary]);
    return c.json(withRetry ?? summary, 200);
  })
  .post('/admin/royalties/imports/:id/retry', access('admin'), validate('param', idParam), async (c) => {
    const { id } = c.req.valid('param');
    await retryImport(c.var.deps.db, id, adminOf(requireViewer(c)));
    const [summary] = await withRetries(c.var.deps.db, [await getImportSummary(c.var.deps.db, id)]);
    return c.json(summary, 202);
  })
  .post('/admin/royalties/imports/:id/post', access('admin'), validate('param', idParam), async (c) => {
    const admin = adminOf(requireViewer(c));
    return c.json(await requestPosting(c.var.deps.db, c.req.valid('param').id, admin), 202);
  })
  .get('/admin/royalties/suspense', access('admin'), validate('query', suspenseQuerySchema), async (c) => {
    return c.json(await listSuspense(c.var.deps.db, c.req.valid('query')), 200);
  })
  .post(
    '/admin/royalties/suspense/assign',
    access('admin'),
    jsonBodyLimit(),
    validate('json', suspenseAssignSchema),
    async (c) => {
      return c.json(await assignSuspense(c.var.deps.db, requireViewer(c), c.req.valid('json')), 200);
    },
  )
  .post(
    '/admin/royalties/suspense/release',
    access('admin'),
    jsonBodyLimit(),
    validate('json', suspenseReleaseSchema),
    async (c) => {
      return c.json(await releaseSuspense(c.var.deps.db, requireViewer(c), c.req.valid('json')), 200);
    },
  );
