/** HTTP routes of the audit log (admins only): a page of entries, and the filtered log as a streamed CSV. */
import { auditFilterSchema, auditQuerySchema } from '@tunedrop/shared/schemas/audit';
import { Hono } from 'hono';
import { stream } from 'hono/streaming';
import { access } from '../../lib/access';
import { attachmentDisposition } from '../../lib/content-disposition';
import type { AppEnv } from '../../lib/context';
import { validate } from '../../lib/validate';
import { auditCsvChunks, listAudit } from './service';

export const auditRoutes = new Hono<AppEnv>()
  .get('/admin/audit', access('admin'), validate('query', auditQuerySchema), async (c) => {
    return c.json(await listAudit(c.var.deps.db, c.req.valid('query')), 200);
  })
  .get('/admin/audit.csv', access('admin'), validate('query', auditFilterSchema), async (c) => {
    const filters = c.req.valid('query');
    const day = new Date().toISOString().slice(0, 10);
    c.header('Content-Type', 'text/csv; charset=utf-8');
    c.header('Content-Disposition', attachmentDisposition(`audit-log-${day}.csv`));
    c.header('Cache-Control', 'no-store');
    const db = c.var.deps.db;
    return stream(c, async (out) => {
      for await (const chunk of auditCsvChunks(db, filters)) await out.write(chunk);
    });
  });
