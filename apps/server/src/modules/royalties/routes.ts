/**
 * Royalty import routes (issue 16; the list is in packages/shared/src/schemas/royalties.ts).
 * The upload streams the request body to a temporary file (never into memory), moves it into storage
 * and answers 202 with the import's id: a job reads, stages and (on request) posts it (records 161,
 * 162). The body is bounded by
 * ROYALTY_LIMITS.maxUploadBytes, and only after access('admin') let the caller in: lib/body-limit.ts
 * lists it as a route that counts its own body and refuses a larger declared length (record 145).
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { ARTIST_PROFILE_MESSAGES, artistProfileFilterSchema } from '@tunedrop/shared/schemas/artist-profiles';
import {
  codeMappingSchema,
  csvPresetSchema,
  includeOverlapSchema,
  ROYALTY_LIMITS,
  royaltyImportQuerySchema,
  statementPeriodSchema,
} from '@tunedrop/shared/schemas/royalties';
import { statementIssuerSchema } from '@tunedrop/shared/schemas/royalty-statements';
import {
  suspenseAssignSchema,
  suspenseQuerySchema,
  suspenseReleaseSchema,
} from '@tunedrop/shared/schemas/royalty-suspense';
import { safeText } from '@tunedrop/shared/text';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import { access, requireViewer } from '../../lib/access';
import { attachmentDisposition } from '../../lib/content-disposition';
import type { AppEnv } from '../../lib/context';
import { AppError, notFound } from '../../lib/errors';
import { validate } from '../../lib/validate';
import { accountIdOf, findOwnArtistProfile } from '../artist-profiles';
import { getImportSummary, listImports } from './import-views';
import { getLedger, getStatementPeriods } from './ledger';
import { assignCode, deletePreset, listPresets, listUnmatched, savePreset } from './mappings';
import { includeOverlap } from './overlap';
import { requestPosting } from './posting';
import { deleteImport, queueImport } from './service';
import { readLimitsOf } from './source';
import { statementCsv, statementPdf, statementSummaryOf } from './statement-files';
import { readStatementIssuer, saveStatementIssuer } from './statement-issuer';
import { assignSuspense, listSuspense, releaseSuspense } from './suspense';

const idParam = z.object({ id: z.uuid('Not found') });
const cursorQuery = z.object({ cursor: safeText().max(500).optional() });

/** Streams a request body to a new temporary file; refuses more than maxBytes with 413. */
async function bodyToTempFile(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<string> {
  if (!body) throw new AppError('empty_file', 'Send the report file as the request body.', 422);
  const dir = path.join(os.tmpdir(), 'tunedrop-royalty-uploads');
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `${randomUUID()}.upload`);
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
  try {
    await pipeline(Readable.fromWeb(body as WebReadableStream<Uint8Array>), counter, createWriteStream(file));
  } catch (error) {
    await rm(file, { force: true });
    throw error;
  }
  if (received === 0) {
    await rm(file, { force: true });
    throw new AppError('empty_file', 'The file is empty.', 422);
  }
  return file;
}

/** The prefix is exempt from the global body limit (for the upload); the JSON routes keep a small one. */
const jsonLimit = bodyLimit({
  maxSize: 64 * 1024,
  onError: (c) =>
    c.json(
      { error: { code: 'payload_too_large', message: 'This request is too large (at most 64 KB).' } },
      413,
    ),
}) as MiddlewareHandler<AppEnv>;

const adminOf = (viewer: { user: { id: string; email: string } }) => ({
  id: viewer.user.id,
  email: viewer.user.email,
});

/** `?artistProfileId=` on a statement (record 201): one of the account's profiles (404 otherwise), or none. */
async function statementProfile(c: Context<AppEnv>, accountId: string) {
  const parsed = artistProfileFilterSchema.safeParse({
    artistProfileId: c.req.query('artistProfileId') || undefined,
  });
  if (!parsed.success) throw notFound(ARTIST_PROFILE_MESSAGES.notFound);
  const id = parsed.data.artistProfileId;
  if (!id) return null;
  const profile = await findOwnArtistProfile(c.var.deps.db, accountId, id);
  return { id: profile.id, name: profile.name };
}

export const royaltiesRoutes = new Hono<AppEnv>()
  .post(
    '/admin/royalties/imports',
    access('admin'),
    validate('query', royaltyImportQuerySchema),
    async (c) => {
      const viewer = requireViewer(c);
      const query = c.req.valid('query');
      const file = await bodyToTempFile(c.req.raw.body, ROYALTY_LIMITS.maxUploadBytes);
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
        });
        return c.json(accepted, 202);
      } finally {
        await rm(file, { force: true });
      }
    },
  )
  .get('/admin/royalties/imports', access('admin'), validate('query', cursorQuery), async (c) => {
    return c.json(await listImports(c.var.deps.db, c.req.valid('query').cursor), 200);
  })
  .get('/admin/royalties/imports/:id', access('admin'), validate('param', idParam), async (c) => {
    return c.json(await getImportSummary(c.var.deps.db, c.req.valid('param').id), 200);
  })
  .delete('/admin/royalties/imports/:id', access('admin'), validate('param', idParam), async (c) => {
    await deleteImport(c.var.deps.db, c.req.valid('param').id, requireViewer(c));
    return c.json({ deleted: true }, 200);
  })
  .post('/admin/royalties/imports/:id/post', access('admin'), validate('param', idParam), async (c) => {
    const admin = adminOf(requireViewer(c));
    return c.json(await requestPosting(c.var.deps.db, c.req.valid('param').id, admin), 202);
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
    jsonLimit,
    validate('json', codeMappingSchema),
    async (c) => {
      const viewer = requireViewer(c);
      return c.json(await assignCode(c.var.deps.db, viewer.user.id, c.req.valid('json'), viewer), 200);
    },
  )
  .get('/admin/royalties/suspense', access('admin'), validate('query', suspenseQuerySchema), async (c) => {
    return c.json(await listSuspense(c.var.deps.db, c.req.valid('query')), 200);
  })
  .post(
    '/admin/royalties/suspense/assign',
    access('admin'),
    jsonLimit,
    validate('json', suspenseAssignSchema),
    async (c) => {
      return c.json(await assignSuspense(c.var.deps.db, requireViewer(c), c.req.valid('json')), 200);
    },
  )
  .post(
    '/admin/royalties/suspense/release',
    access('admin'),
    jsonLimit,
    validate('json', suspenseReleaseSchema),
    async (c) => {
      return c.json(await releaseSuspense(c.var.deps.db, requireViewer(c), c.req.valid('json')), 200);
    },
  )
  .get('/admin/royalties/presets', access('admin'), async (c) => {
    return c.json({ items: await listPresets(c.var.deps.db) }, 200);
  })
  .post(
    '/admin/royalties/presets',
    access('admin'),
    jsonLimit,
    validate('json', csvPresetSchema),
    async (c) => {
      return c.json(await savePreset(c.var.deps.db, null, c.req.valid('json')), 201);
    },
  )
  .put(
    '/admin/royalties/presets/:id',
    access('admin'),
    jsonLimit,
    validate('param', idParam),
    validate('json', csvPresetSchema),
    async (c) => {
      return c.json(await savePreset(c.var.deps.db, c.req.valid('param').id, c.req.valid('json')), 200);
    },
  )
  .delete('/admin/royalties/presets/:id', access('admin'), validate('param', idParam), async (c) => {
    await deletePreset(c.var.deps.db, c.req.valid('param').id);
    return c.json({ deleted: true }, 200);
  })
  .get('/royalties/ledger', access('user', 'read'), validate('query', cursorQuery), async (c) => {
    const viewer = requireViewer(c);
    return c.json(await getLedger(c.var.deps.db, viewer.account.id, c.req.valid('query').cursor), 200);
  })
  .get('/royalties/statements', access('user', 'read'), async (c) => {
    const viewer = requireViewer(c);
    return c.json(await getStatementPeriods(c.var.deps.db, viewer.account.id), 200);
  })
  // A statement on screen (record 190): the same figures as its CSV and PDF.
  .get(
    '/royalties/statements/:period/summary',
    access('user', 'read'),
    validate('query', artistProfileFilterSchema),
    async (c) => {
      const viewer = requireViewer(c);
      const period = statementPeriodSchema.safeParse(c.req.param('period'));
      if (!period.success) throw notFound('Statement not found');
      const accountId = accountIdOf(viewer);
      const artistProfile = await statementProfile(c, accountId);
      const statement = await statementSummaryOf(
        c.var.deps.db,
        accountId,
        period.data,
        artistProfile,
        c.var.deps.config.STATEMENT_THREADS,
      );
      if (statement === null) throw notFound('There is no statement for this month.');
      return c.json(statement, 200);
    },
  )
  // Who issues the statements (record 190): the operator's legal name and address.
  .get('/admin/royalties/statement-issuer', access('admin'), async (c) => {
    return c.json(await readStatementIssuer(c.var.deps.db), 200);
  })
  .put(
    '/admin/royalties/statement-issuer',
    access('admin'),
    jsonLimit,
    validate('json', statementIssuerSchema),
    async (c) => {
      const viewer = requireViewer(c);
      return c.json(
        await saveStatementIssuer(c.var.deps.db, c.req.valid('json'), viewer.user.id, viewer),
        200,
      );
    },
  )
  .get('/royalties/statements/:file', access('user', 'read'), async (c) => {
    const viewer = requireViewer(c);
    const match = /^(.+)\.(csv|pdf)$/.exec(c.req.param('file'));
    const period = match ? statementPeriodSchema.safeParse(match[1]) : null;
    if (!match || !period?.success) throw notFound('Statement not found');
    const accountId = accountIdOf(viewer);
    const artistProfile = await statementProfile(c, accountId);
    if (match[2] === 'pdf') {
      const threads = c.var.deps.config.STATEMENT_THREADS;
      const pdf = await statementPdf(c.var.deps.db, accountId, period.data, artistProfile, threads);
      if (pdf === null) throw notFound('There is no statement for this month.');
      c.header('Content-Type', 'application/pdf');
      c.header('Content-Disposition', attachmentDisposition(`tunedrop-statement-${period.data}.pdf`));
      return c.body(pdf, 200);
    }
    const threads = c.var.deps.config.STATEMENT_THREADS;
    const csv = await statementCsv(c.var.deps.db, accountId, period.data, artistProfile, threads);
    if (csv === null) throw notFound('There is no statement for this month.');
    c.header('Content-Type', 'text/csv; charset=utf-8');
    c.header('Content-Disposition', attachmentDisposition(`tunedrop-statement-${period.data}.csv`));
    return c.body(csv, 200);
  });
