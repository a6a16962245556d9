/**
 * Royalty import routes (issue 16; the list is in packages/shared/src/schemas/royalties.ts): the upload,
 * deleting an unposted import, including lines another report posted, the unmatched codes and their
 * mappings, and the CSV presets. The upload streams the request body to a temporary file (never into
 * memory) and answers 202 with the import's id: the import job reads and stages it (records 161, 162).
 * The body is bounded by ROYALTY_LIMITS.maxUploadBytes, and only after access('admin') let the caller in:
 * lib/body-limit.ts lists it as a route that counts its own body and refuses a larger declared length
 * (record 145).
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
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
import { type ReportMeasures, writeMeasured } from './measure';
import { includeOverlap } from './overlap';
import { deleteImport, queueImport } from './service';
import { readLimitsOf } from './source';

const idParam = z.object({ id: z.uuid('Not found') });

/**
 * Streams a request body to a new temporary file, hashing it and counting its lines on the way (record
 * 251); refuses more than maxBytes with 413. The file is made where storage can take it by a rename.
 */
async function bodyToTempFile(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  deps: { storage: Storage; config: Parameters<typeof readLimitsOf>[0] },
): Promise<{ file: string; measures: ReportMeasures }> {
  if (!body) throw new AppError('empty_file', 'Send the report file as the request body.', 422);
  let file: string;
  if (deps.storage.scratchFile) file = await deps.storage.scratchFile();
  else {
    const dir = path.join(os.tmpdir(), 'tunedrop-royalty-uploads');
    await mkdir(dir, { recursive: true });
    file = path.join(dir, `${randomUUID()}.upload`);
  }
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
  const measures = await writeMeasured(source, file, readLimitsOf(deps.config), counter);
  if (received === 0) {
    await rm(file, { force: true });
    throw new AppError('empty_file', 'The file is empty.', 422);
  }
  return { file, measures };
}

export const royaltyImportsRoutes = new Hono<AppEnv>()
  .post(
    '/admin/royalties/imports',
    access('admin'),
    validate('query', royaltyImportQuerySchema),
    async (c) => {
      const viewer = requireViewer(c);
      const query = c.req.valid('query');
      const { file, measures } = await bodyToTempFile(
        c.req.raw.body,
        ROYALTY_LIMITS.maxUploadBytes,
        c.var.deps,
      );
      try {
        // The file moves into storage and a job reads it (decision 161): the answer does not wait for it.
        const accepted = await queueImport(c.var.deps, {
          filePath: file,
          fileName: query.filename ?? 'upload',
          format: query.format,
          rate: query.rate,
          currency: query.currency,
          presetId: query.preset,
          adminId: viewer.user.id,
          actor: viewer,
          limits: readLimitsOf(c.var.deps.config),
          measures,
        });
        return c.json(accepted, 202);
      } finally {
        await rm(file, { force: true });
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
