/**
 * HTTP routes of release review (moderator or admin), the audit log (admin only), staff file access
 * (signed URLs, the review player) and the export ZIP. Mounted under /api (see app.ts).
 */
import { Readable } from 'node:stream';
import {
  adminReleasesQuerySchema,
  banUploaderSchema,
  bulkReviewSchema,
  type ExportManifest,
  rejectReleaseSchema,
  signedUrlQuerySchema,
} from '@tunedrop/shared/schemas/admin-releases';
import { safeText } from '@tunedrop/shared/text';
import { Hono } from 'hono';
import { z } from 'zod';
import { access, requireViewer } from '../../lib/access';
import { attachmentDisposition } from '../../lib/content-disposition';
import type { AppEnv } from '../../lib/context';
import { uuidParam } from '../../lib/params';
import { validate } from '../../lib/validate';
import { releaseForDelivery, releaseIdParam } from '../catalogue';
import { exportManifest, streamExportZip } from '../ddex';
import { writeAudit } from './audit';
import { bulkReview } from './bulk-review';
import { fileResponse, releaseFileByPath, signFileUrl, verifyFileSignature } from './files';
import { listReviewReleases } from './review-list';
import { type Decision, decideRelease, deleteReleasePermanently, setUploaderBan, trackFile } from './service';

const decisionRoute = (decision: Decision) => async (c: import('hono').Context<AppEnv>) => {
  const viewer = requireViewer(c);
  const result = await decideRelease(c.var.deps, viewer, releaseIdParam(c.req.param('id')), decision);
  return c.json({ release: result }, 200);
};

const trackIdParam = (value: string | undefined) => uuidParam(value, 'Track not found.');

const signedFileQuerySchema = z.object({
  bucket: z.enum(['audio-files', 'cover-art']),
  path: safeText().min(1).max(1000),
  expires: safeText().max(20),
  signature: safeText().max(200),
});

export const adminReleasesRoutes = new Hono<AppEnv>()
  .get('/admin/releases', access('moderator'), validate('query', adminReleasesQuerySchema), async (c) => {
    return c.json(await listReviewReleases(c.var.deps.db, c.req.valid('query')), 200);
  })
  // Bulk approve / reject (issue 26): the single decision per release, each reported done or refused.
  .post('/admin/releases/bulk-review', access('moderator'), validate('json', bulkReviewSchema), async (c) => {
    const viewer = requireViewer(c);
    return c.json(await bulkReview(c.var.deps, viewer, c.req.valid('json')), 200);
  })
  .post('/admin/releases/:id/approve', access('moderator'), decisionRoute('approve'))
  .post(
    '/admin/releases/:id/reject',
    access('moderator'),
    validate('json', rejectReleaseSchema),
    async (c) => {
      const viewer = requireViewer(c);
      const { reason } = c.req.valid('json');
      const result = await decideRelease(
        c.var.deps,
        viewer,
        releaseIdParam(c.req.param('id')),
        'reject',
        reason,
      );
      return c.json({ release: result }, 200);
    },
  )
  .post('/admin/releases/:id/unapprove', access('moderator'), decisionRoute('unapprove'))
  .post('/admin/releases/:id/unreject', access('moderator'), decisionRoute('unreject'))
  .post('/admin/releases/:id/takedown/approve', access('moderator'), decisionRoute('takedown_approve'))
  .post('/admin/releases/:id/takedown/reject', access('moderator'), decisionRoute('takedown_reject'))
  .delete('/admin/releases/:id', access('moderator'), async (c) => {
    const viewer = requireViewer(c);
    await deleteReleasePermanently(c.var.deps, viewer, releaseIdParam(c.req.param('id')));
    return c.json({ ok: true }, 200);
  })
  .post(
    '/admin/releases/:id/uploader/ban',
    access('moderator'),
    validate('json', banUploaderSchema),
    async (c) => {
      const viewer = requireViewer(c);
      const result = await setUploaderBan(
        c.var.deps.db,
        viewer,
        releaseIdParam(c.req.param('id')),
        c.req.valid('json'),
      );
      return c.json({ uploader: result }, 200);
    },
  )
  .post('/admin/releases/:id/uploader/unban', access('moderator'), async (c) => {
    const viewer = requireViewer(c);
    const result = await setUploaderBan(c.var.deps.db, viewer, releaseIdParam(c.req.param('id')), null);
    return c.json({ uploader: result }, 200);
  })
  // The review player: the WAV streamed with Range support, staff session only.
  .get('/admin/releases/:id/tracks/:trackId/audio', access('moderator'), async (c) => {
    const track = await trackFile(
      c.var.deps.db,
      releaseIdParam(c.req.param('id')),
      trackIdParam(c.req.param('trackId')),
    );
    return fileResponse(c.var.deps.storage, track.key, {
      contentType: 'audio/wav',
      rangeHeader: c.req.header('range'),
    });
  })
  // Checks the export can be built (every file present) before the browser starts the download.
  .get('/admin/releases/:id/export/manifest', access('moderator'), async (c) => {
    const releaseId = releaseIdParam(c.req.param('id'));
    const data = await releaseForDelivery(c.var.deps.db, releaseId);
    const manifest: ExportManifest = {
      ...(await exportManifest(c.var.deps.storage, data)),
      downloadUrl: `/api/admin/releases/${releaseId}/export`,
    };
    return c.json(manifest, 200);
  })
  .get('/admin/releases/:id/export', access('moderator'), async (c) => {
    const viewer = requireViewer(c);
    const releaseId = releaseIdParam(c.req.param('id'));
    const { deps } = c.var;
    const data = await releaseForDelivery(deps.db, releaseId);
    const manifest = await exportManifest(deps.storage, data);
    await writeAudit(deps.db, viewer, {
      action: 'release.export',
      releaseId,
      subjectUserId: data.release.userId,
      after: { fileName: manifest.fileName, entries: manifest.entries.map((entry) => entry.name) },
    });
    const zip = streamExportZip(deps, data);
    return new Response(Readable.toWeb(zip) as ReadableStream, {
      status: 200,
      headers: {
        'Content-Type': 'application/zip',
        'Content-Disposition': attachmentDisposition(manifest.fileName),
        'Cache-Control': 'private, no-store',
      },
    });
  })
  // Spec 02 §7: a short-lived signed URL for one stored file that belongs to a release.
  .get('/admin-audio-signed-url', access('moderator'), validate('query', signedUrlQuerySchema), async (c) => {
    const { bucket, path } = c.req.valid('query');
    const file = await releaseFileByPath(c.var.deps.db, bucket, path);
    return c.json(signFileUrl(c.var.deps.config, bucket, file.key), 200);
  })
  // Whoever holds a valid, unexpired signature may fetch that one file (no session needed).
  .get('/admin/signed-files', access('public'), validate('query', signedFileQuerySchema), async (c) => {
    const query = c.req.valid('query');
    verifyFileSignature(c.var.deps.config.appSecret, query);
    const file = await releaseFileByPath(c.var.deps.db, query.bucket, query.path);
    return fileResponse(c.var.deps.storage, file.key, {
      contentType: file.contentType,
      rangeHeader: c.req.header('range'),
      downloadName: file.downloadName,
    });
  });
