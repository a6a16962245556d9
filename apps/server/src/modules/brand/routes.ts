/**
 * The operator's brand and plans on /admin/settings (issue 27, record 203), mounted under /api: admins read
 * and save them, upload the logo and read the warnings; anyone reads the logo (the public pages show it).
 */
import { brandSchema, plansSchema } from '@tunedrop/shared/schemas/brand';
import { Hono } from 'hono';
import { z } from 'zod';
import { access, requireViewer } from '../../lib/access';
import type { AppEnv } from '../../lib/context';
import { validate } from '../../lib/validate';
import {
  readBrandView,
  readBrandWarnings,
  readLogo,
  readPlansView,
  removeLogo,
  saveBrand,
  saveLogo,
  savePlans,
} from './service';

const logoParam = z.object({ name: z.string().regex(/^logo-[0-9a-f]{16}\.(png|jpg)$/, 'Not found') });

export const brandRoutes = new Hono<AppEnv>()
  .get('/admin/brand', access('admin'), async (c) => c.json(await readBrandView(c.var.deps.db), 200))
  .put('/admin/brand', access('admin'), validate('json', brandSchema), async (c) => {
    const viewer = requireViewer(c);
    return c.json(await saveBrand(c.var.deps.db, c.req.valid('json'), viewer.user.id, viewer), 200);
  })
  .get('/admin/plans', access('admin'), async (c) => c.json(await readPlansView(c.var.deps.db), 200))
  .put('/admin/plans', access('admin'), validate('json', plansSchema), async (c) => {
    const viewer = requireViewer(c);
    return c.json(await savePlans(c.var.deps.db, c.req.valid('json'), viewer.user.id, viewer), 200);
  })
  .get('/admin/brand/warnings', access('admin'), async (c) =>
    c.json({ warnings: await readBrandWarnings(c.var.deps.db) }, 200),
  )
  // The image's bytes as the body (at most 1 MB, the default body limit); checked by content.
  .put('/admin/brand/logo', access('admin'), async (c) => {
    const viewer = requireViewer(c);
    const bytes = Buffer.from(await c.req.arrayBuffer());
    const { db, storage } = c.var.deps;
    return c.json(await saveLogo(db, storage, bytes, viewer.user.id, viewer), 200);
  })
  .delete('/admin/brand/logo', access('admin'), async (c) => {
    const viewer = requireViewer(c);
    return c.json(await removeLogo(c.var.deps.db, viewer), 200);
  })
  .get('/brand/logo/:name', access('public'), validate('param', logoParam), async (c) => {
    const { db, storage } = c.var.deps;
    const logo = await readLogo(db, c.req.valid('param').name);
    const file = await storage.get(logo.key);
    const chunks: Buffer[] = [];
    for await (const chunk of file.body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    // The name carries the content's hash: a new logo is a new address.
    return c.body(Buffer.concat(chunks), 200, {
      'Content-Type': logo.contentType,
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
    });
  });
