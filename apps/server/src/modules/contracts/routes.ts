/**
 * /admin/contracts (issue 39, record 285), mounted under /api: admins list, read, create and edit label
 * contracts; the form reads a label's releases by the label's email.
 */
import { contractAdvanceSchema, contractInputSchema } from '@tunedrop/shared/schemas/contracts';
import { Hono } from 'hono';
import { z } from 'zod';
import { access, requireViewer } from '../../lib/access';
import type { AppEnv } from '../../lib/context';
import { validate } from '../../lib/validate';
import { readRecoupment, recordAdvance } from './advances';
import { labelReleases, listContracts, readContract, saveContract } from './service';

const idParam = z.object({ id: z.uuid() });
const emailQuery = z.object({
  email: z.string().trim().toLowerCase().max(254).email('Enter an email address.'),
});

export const contractRoutes = new Hono<AppEnv>()
  .get('/admin/contracts', access('admin'), async (c) => c.json(await listContracts(c.var.deps.db), 200))
  .get('/admin/contracts/label-releases', access('admin'), validate('query', emailQuery), async (c) =>
    c.json(await labelReleases(c.var.deps.db, c.req.valid('query').email), 200),
  )
  .get('/admin/contracts/:id', access('admin'), validate('param', idParam), async (c) =>
    c.json(await readContract(c.var.deps.db, c.req.valid('param').id), 200),
  )
  .post('/admin/contracts', access('admin'), validate('json', contractInputSchema), async (c) => {
    const viewer = requireViewer(c);
    return c.json(await saveContract(c.var.deps.db, c.req.valid('json'), viewer), 201);
  })
  .put(
    '/admin/contracts/:id',
    access('admin'),
    validate('param', idParam),
    validate('json', contractInputSchema),
    async (c) => {
      const viewer = requireViewer(c);
      return c.json(
        await saveContract(c.var.deps.db, c.req.valid('json'), viewer, c.req.valid('param').id),
        200,
      );
    },
  )
  .get('/admin/contracts/:id/advances', access('admin'), validate('param', idParam), async (c) =>
    c.json(await readRecoupment(c.var.deps.db, c.req.valid('param').id), 200),
  )
  .post(
    '/admin/contracts/:id/advances',
    access('admin'),
    validate('param', idParam),
    validate('json', contractAdvanceSchema),
    async (c) => {
      const viewer = requireViewer(c);
      return c.json(
        await recordAdvance(c.var.deps.db, c.req.valid('param').id, c.req.valid('json'), viewer),
        201,
      );
    },
  );
