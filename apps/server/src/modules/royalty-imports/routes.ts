/**
 * Royalty import routes (issue 16; the list is in packages/shared/src/schemas/royalties.ts): the upload,
 * deleting an unposted import, including lines another report posted, the unmatched codes and their
 * mappings, and the CSV presets. The upload streams the request body to a temporary file (never into
 * memory; straight into the bucket on S3, record 310) and answers 202 with the import's id: the import
 * job reads and stages it (records 161, 162).
 * The body is bounded by ROYALTY_LIMITS.maxUploadBytes, and only after access('admin') let the caller in:
 * lib/body-limit.ts lists it as a route that counts its own body and refuses a larger declared length
 * (record 145).
 */
import { rm } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import {
  codeMappingSchema,
  csvPresetSchema,
  includeOverlapSchema,
  ROYALTY_LIMITS,
  royaltyImportQuerySchema,
} from '@tunedrop/shared/schemas/royalties';
import { Hono } from 'hono';
import { z } from 'zod';
import type { Storage } from '../../infra/storage/storage';
import { access, requireViewer } from '../../lib/access';
import { jsonBodyLimit } from '../../lib/body-limit';
import type { AppEnv } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { validate } from '../../lib/validate';
import { assignCode, deletePreset, listPresets, listUnmatched, savePreset } from './mappings';
import { includeOverlap } from './overlap';
import { discardReport, type ReceivedReport, receiveReport } from './receive';
import { deleteImport, queueImport } from './service';
import { readLimitsOf } from './source';

const idParam = z.object({ id: z.uuid('Not found') });

/**
 * Receives a request body as a report, hashing it and counting its lines on the way (record 251): into a
 * file storage takes by a rename (local), or straight into the bucket (S3, record 310). Refuses more than
 * maxBytes with 413 and an empty body with 422, leaving nothing behind.
 */
async function receiveBody(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  deps: { storage: Storage; config: Parameters<typeof readLimitsOf>[0] },
): Promise<ReceivedReport> {
  if (!body) throw new AppError('empty_file', 'Send the report file as the request body.', 422);
  let received = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      if (received > maxBytes) {
        callback(new AppError('payload_too_large', 'The file is larger than 4 GB.', 413));
        return;
      }
      callback(null, chunk);
    },
  });
  const source = Readable.fromWeb(body as WebReadableStream<Uint8Array>);
  const report = await receiveReport(deps.storage, source, readLimitsOf(deps.config), counter);
  if (received === 0) {
    await discardReport(deps.storage, report);
    throw new AppError('empty_file', 'The file is empty.', 422);
  }
  return report;
}

export const royaltyImportsRoutes = new Hono<AppEnv>()
  .post(
    '/admin/royalties/imports',
    access('admin'),
    validate('query', royaltyImportQuerySchema),
    async (c) => {
      const viewer = requireViewer(c);
      const query = c.req.valid('query');
      const report = await receiveBody(c.req.raw.body, ROYALTY_LIMITS.maxUploadBytes, c.var.deps);
      try {
        // The file is in storage (or moves there) and a job reads it (decision 161): the answer does not
        // wait for it. A refused report leaves no object behind (queueImport removes it).
        const accepted = await queueImport(c.var.deps, {
          ...('stored' in report ? { stored: report.stored } : { filePath: report.filePath }),
          fileName: query.filename ?? 'upload',
          format: query.format,
          rate: query.rate,
          currency: query.currency,
          presetId: query.preset,
          adminId: viewer.user.id,
          actor: viewer,
          limits: readLimitsOf(c.var.deps.config),
          measures: report.measures,
        });
        return c.json(accepted, 202);
      } finally {
        if ('filePath' in report) await rm(report.filePath, { force: true });
      }
    },
  )
  .delete('/admin/royalties/imports/:id', access('admin'), validate('param', idParam), async (c) => {
    await deleteImport(c.var.deps.db, c.req.valid('param').id, requireViewer(c));
    return c.json({ deleted: true }, 200);
  })
  .post(
    '/admin/royalties/imports/:id/include-overlap',
    access('admin'),
    validate('param', idParam),
    validate('json', includeOverlapSchema),
    async (c) => {
      const viewer = requireViewer(c);
      return c.json(await includeOverlap(c.var.deps.db, viewer, c.req.valid('param').id), 200);
    },
  )
  .get('/admin/royalties/unmatched', access('admin'), async (c) => {
    return c.json(await listUnmatched(c.var.deps.db), 200);
  })
  .post(
    '/admin/royalties/code-mappings',
    access('admin'),
    jsonBodyLimit(),
    validate('json', codeMappingSchema),
    async (c) => {
      const viewer = requireViewer(c);
      return c.json(await assignCode(c.var.deps.db, viewer.user.id, c.req.valid('json'), viewer), 200);
    },
  )
  .get('/admin/royalties/presets', access('admin'), async (c) => {
    return c.json({ items: await listPresets(c.var.deps.db) }, 200);
  })
  .post(
    '/admin/royalties/presets',
    access('admin'),
    jsonBodyLimit(),
    validate('json', csvPresetSchema),
    async (c) => {
      return c.json(await savePreset(c.var.deps.db, null, c.req.valid('json')), 201);
    },
  )
  .put(
    '/admin/royalties/presets/:id',
    access('admin'),
    jsonBodyLimit(),
    validate('param', idParam),
    validate('json', csvPresetSchema),
    async (c) => {
      return c.json(await savePreset(c.var.deps.db, c.req.valid('param').id, c.req.valid('json')), 200);
    },
  )
  .delete('/admin/royalties/presets/:id', access('admin'), validate('param', idParam), async (c) => {
    await deletePreset(c.var.deps.db, c.req.valid('param').id);
    return c.json({ deleted: true }, 200);
  });
