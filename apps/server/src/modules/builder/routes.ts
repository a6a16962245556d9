/**
 * HTTP routes of the release builder, mounted under /api (see app.ts): tus uploads at /api/uploads,
 * the draft, upload status, artist search and the submission under /api/builder.
 */

import { Readable } from 'node:stream';
import {
  builderDraftSchema,
  builderSubmissionSchema,
  spotifyArtistSchema,
  spotifySearchSchema,
} from '@tunedrop/shared/schemas/builder';
import { Hono } from 'hono';
import { z } from 'zod';
import { access, assertNotBanned, requireViewer } from '../../lib/access';
import type { AppEnv } from '../../lib/context';
import { AppError, notFound } from '../../lib/errors';
import { validate } from '../../lib/validate';
import {
  deleteDraft,
  fetchSpotifyArtist,
  loadDraft,
  saveDraft,
  searchSpotifyArtists,
  submitRelease,
  uploadInfos,
} from './service';
import {
  discardUpload,
  findUploads,
  requestIds,
  requestViewers,
  touchOwnUpload,
  tusServerFor,
  UPLOAD_ID_PATTERN,
} from './uploads';

const TUS_VERSION = '1.0.0';

const tusError = (status: number, code: string, message: string) =>
  new Response(JSON.stringify({ error: { code, message } }), {
    status,
    headers: {
      'Tus-Resumable': TUS_VERSION,
      'Content-Type': 'application/json',
      'Cache-Control': 'no-store',
    },
  });

const uploadIdParam = z.object({ id: z.string().regex(UPLOAD_ID_PATTERN, 'Not an upload id') });

export const builderRoutes = new Hono<AppEnv>()
  // tus: creation (POST /api/uploads) and each upload's HEAD, PATCH and DELETE.
  .all('/uploads/:id?', access('subscriber', 'catalog'), async (c) => {
    const viewer = requireViewer(c);
    assertNotBanned(viewer);
    const deps = c.var.deps;
    const method = c.req.method;
    const id = c.req.param('id');
    if (method === 'GET') {
      return tusError(405, 'method_not_allowed', 'Uploaded files are not served from here.');
    }
    if (id === undefined) {
      if (method !== 'POST' && method !== 'OPTIONS') return tusError(404, 'not_found', 'Upload not found');
    } else {
      if (!UPLOAD_ID_PATTERN.test(id)) return tusError(404, 'not_found', 'Upload not found');
      const row = await touchOwnUpload(deps.db, id, viewer.account.id);
      // Someone else's upload looks exactly like one that does not exist.
      if (!row) return tusError(404, 'not_found', 'Upload not found');
      if (row.status === 'consumed') return tusError(410, 'gone', 'This file already belongs to a release.');
      if (method === 'DELETE' && row.status !== 'uploading') {
        await discardUpload(deps, row);
        return new Response(null, { status: 204, headers: { 'Tus-Resumable': TUS_VERSION } });
      }
      // A refused file cannot be resumed; the client starts over with a new upload.
      if (row.status === 'rejected') return tusError(404, 'not_found', row.error ?? 'Upload not found');
      if (row.status === 'checked') {
        if (method === 'HEAD') {
          return new Response(null, {
            status: 200,
            headers: {
              'Tus-Resumable': TUS_VERSION,
              'Upload-Offset': String(row.sizeBytes),
              'Upload-Length': String(row.sizeBytes),
              'Cache-Control': 'no-store',
            },
          });
        }
        return tusError(409, 'upload_complete', 'This upload is already complete.');
      }
    }
    requestViewers.set(c.req.raw, viewer);
    requestIds.set(c.req.raw, c.get('requestId'));
    const response = await tusServerFor(deps).handleWeb(c.req.raw);
    if (method === 'DELETE' && id && response.status === 204) {
      const row = await touchOwnUpload(deps.db, id, viewer.account.id);
      if (row) await discardUpload(deps, row);
    }
    return response;
  })
  .get(
    '/builder/uploads/:id',
    access('subscriber', 'catalog'),
    validate('param', uploadIdParam),
    async (c) => {
      const viewer = requireViewer(c);
      const { id } = c.req.valid('param');
      const info = (await uploadInfos(c.var.deps, viewer.account.id, [id]))[id];
      if (!info || info.status === 'missing') throw notFound('Upload not found');
      return c.json(info, 200);
    },
  )
  // The draft's cover preview after a reload: the owner's checked cover, as its list thumbnail.
  .get(
    '/builder/uploads/:id/thumbnail',
    access('subscriber', 'catalog'),
    validate('param', uploadIdParam),
    async (c) => {
      const viewer = requireViewer(c);
      const { id } = c.req.valid('param');
      const [row] = await findUploads(c.var.deps.db, viewer.account.id, [id]);
      const key = row?.kind === 'cover' ? (row.thumbMediumKey ?? row.thumbSmallKey) : null;
      if (!key) throw notFound('Upload not found');
      const file = await c.var.deps.storage.get(key);
      return new Response(Readable.toWeb(file.body) as ReadableStream, {
        status: 200,
        headers: {
          'Content-Type': 'image/jpeg',
          'Content-Length': String(file.sizeBytes),
          'Cache-Control': 'private, max-age=3600',
        },
      });
    },
  )
  .get('/builder/draft', access('subscriber', 'catalog'), async (c) => {
    const viewer = requireViewer(c);
    return c.json(await loadDraft(c.var.deps, viewer.account.id), 200);
  })
  .put('/builder/draft', access('subscriber', 'catalog'), validate('json', builderDraftSchema), async (c) => {
    const viewer = requireViewer(c);
    assertNotBanned(viewer);
    const isSaved = await saveDraft(c.var.deps.db, viewer.account.id, c.req.valid('json'));
    if (!isSaved) throw new AppError('draft_submitted', 'This release was already submitted.', 409);
    return c.json({ ok: true }, 200);
  })
  .delete('/builder/draft', access('subscriber', 'catalog'), async (c) => {
    const viewer = requireViewer(c);
    await deleteDraft(c.var.deps.db, viewer.account.id);
    return c.json({ ok: true }, 200);
  })
  .post(
    '/builder/releases',
    access('subscriber', 'catalog'),
    validate('json', builderSubmissionSchema),
    async (c) => {
      const viewer = requireViewer(c);
      assertNotBanned(viewer);
      const result = await submitRelease(c.var.deps, viewer, c.req.valid('json'));
      return c.json({ release: result.release, isRepeat: result.isRepeat }, result.isRepeat ? 200 : 201);
    },
  )
  .post(
    '/builder/search-spotify-artists',
    access('subscriber', 'catalog'),
    validate('json', spotifySearchSchema),
    async (c) => {
      const { query } = c.req.valid('json');
      return c.json({ artists: await searchSpotifyArtists(c.var.deps.config, query) }, 200);
    },
  )
  .post(
    '/builder/fetch-spotify-artist',
    access('subscriber', 'catalog'),
    validate('json', spotifyArtistSchema),
    async (c) => {
      const { artistUrl } = c.req.valid('json');
      const artist = await fetchSpotifyArtist(c.var.deps.config, artistUrl);
      return c.json({ name: artist.name, artist }, 200);
    },
  );
