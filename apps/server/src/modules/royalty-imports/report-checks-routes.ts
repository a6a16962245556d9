/**
 * Routes of a staged report's checks (issue 25, record 187; the list is in
 * packages/shared/src/schemas/royalty-checks.ts): the currency a file declares before it is uploaded, the
 * exchange rate set on a staged report, and its sanity warnings, accepted or resolved.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  acceptWarningSchema,
  inspectQuerySchema,
  reportRateSchema,
  reportWarningsQuerySchema,
} from '@tunedrop/shared/schemas/royalty-checks';
import { Hono } from 'hono';
import { z } from 'zod';
import { access, requireViewer } from '../../lib/access';
import type { AppEnv } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { validate } from '../../lib/validate';
import { detectCurrency, presetLayout } from './report-currency';
import { setImportRate } from './report-rate';
import { acceptWarning, resolveWarning } from './report-warnings';
import { listWarnings } from './report-warnings-list';
import { readLimitsOf } from './source';

const idParam = z.object({ id: z.uuid('Not found') });
const warningParam = z.object({ id: z.uuid('Not found'), warningId: z.uuid('Not found') });
/** The form sends the file's first bytes (256 KB): enough for a DSR's HEAD and summaries or a CSV header. */
const MAX_HEAD_BYTES = 1024 * 1024;

export const royaltyChecksRoutes = new Hono<AppEnv>()
  .post(
    '/admin/royalties/imports/inspect',
    access('admin'),
    validate('query', inspectQuerySchema),
    async (c) => {
      const query = c.req.valid('query');
      const head = Buffer.from(await c.req.arrayBuffer());
      if (head.length === 0) throw new AppError('empty_file', 'The file is empty.', 422);
      if (head.length > MAX_HEAD_BYTES) {
        throw new AppError('payload_too_large', 'Send at most the first 1 MB of the file.', 413);
      }
      const dir = path.join(os.tmpdir(), 'tunedrop-royalty-inspect');
      await mkdir(dir, { recursive: true });
      const file = path.join(dir, `${randomUUID()}.head`);
      try {
        await writeFile(file, head);
        const preset = await presetLayout(c.var.deps.db, query.preset);
        const found = await detectCurrency(file, {
          format: query.format,
          preset,
          limits: readLimitsOf(c.var.deps.config),
        });
        return c.json(found, 200);
      } finally {
        await rm(file, { force: true });
      }
    },
  )
  .put(
    '/admin/royalties/imports/:id/rate',
    access('admin'),
    validate('param', idParam),
    validate('json', reportRateSchema),
    async (c) => {
      const viewer = requireViewer(c);
      const summary = await setImportRate(
        c.var.deps.db,
        c.req.valid('param').id,
        c.req.valid('json').rate,
        viewer,
      );
      return c.json(summary, 200);
    },
  )
  .get(
    '/admin/royalties/imports/:id/warnings',
    access('admin'),
    validate('param', idParam),
    validate('query', reportWarningsQuerySchema),
    async (c) => {
      return c.json(await listWarnings(c.var.deps.db, c.req.valid('param').id, c.req.valid('query')), 200);
    },
  )
  .post(
    '/admin/royalties/imports/:id/warnings/:warningId/accept',
    access('admin'),
    validate('param', warningParam),
    validate('json', acceptWarningSchema),
    async (c) => {
      const viewer = requireViewer(c);
      const { id, warningId } = c.req.valid('param');
      await acceptWarning(c.var.deps.db, id, warningId, c.req.valid('json'), viewer);
      return c.json(await listWarnings(c.var.deps.db, id), 200);
    },
  )
  .post(
    '/admin/royalties/imports/:id/warnings/:warningId/resolve',
    access('admin'),
    validate('param', warningParam),
    async (c) => {
      const viewer = requireViewer(c);
      const { id, warningId } = c.req.valid('param');
      await resolveWarning(c.var.deps.db, id, warningId, viewer);
      return c.json(await listWarnings(c.var.deps.db, id), 200);
    },
  );
