/**
 * HTTP routes of release delivery (issue 15; the list is in packages/shared/src/schemas/delivery.ts).
 * Admin: settings, targets, deliveries, package download, retry, takedowns. Artist: release detail
 * and per-store takedown requests (owner only, checked in the service). Mounted under /api.
 */
import { PassThrough, Readable } from 'node:stream';
import {
  adminTakedownSchema,
  DELIVERY_MESSAGES,
  deliveriesQuerySchema,
  rejectStoreTakedownSchema,
  settingsInputSchema,
  storeTakedownSchema,
  targetInputSchema,
  targetPatchSchema,
  targetRemoveQuerySchema,
} from '@tunedrop/shared/schemas/delivery';
import { ZipArchive } from 'archiver';
import { and, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { deliveryAttempts } from '../../db/schema';
import { access, requireViewer } from '../../lib/access';
import { attachmentDisposition } from '../../lib/content-disposition';
import type { AppEnv } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { uuidParam } from '../../lib/params';
import { validate } from '../../lib/validate';
import { releaseIdParam } from '../catalogue';
import { releaseDetail, requestStoreTakedown } from './release-stores';
import {
  adminTakedown,
  getDelivery,
  listDeliveries,
  listUnmatchedAcks,
  retryDelivery,
  saveSettings,
  settingsView,
} from './service';
import { unconnectedStores } from './store-connections';
import { rejectStoreTakedown } from './store-takedown-reject';
import { addTestedTarget, removeTarget, testTargetConnection, updateTestedTarget } from './target-lifecycle';
import { getTargetRow, listTargets } from './targets';

const idParam = uuidParam;

export const deliveryRoutes = new Hono<AppEnv>()
  .get('/admin/settings', access('admin'), async (c) => {
    return c.json(await settingsView(c.var.deps.db, c.var.deps.config), 200);
  })
  .put('/admin/settings', access('admin'), validate('json', settingsInputSchema), async (c) => {
    const viewer = requireViewer(c);
    const { db, config } = c.var.deps;
    return c.json(await saveSettings(db, config, c.req.valid('json'), viewer.user.id, viewer), 200);
  })
  .get('/admin/delivery/targets', access('admin'), async (c) => {
    return c.json({ items: await listTargets(c.var.deps.db) }, 200);
  })
  .post('/admin/delivery/targets', access('admin'), validate('json', targetInputSchema), async (c) => {
    const { db, config } = c.var.deps;
    // Tested first, like delivery:target:add: an unreachable enabled target is refused, nothing saved.
    return c.json(await addTestedTarget(db, config, c.req.valid('json'), requireViewer(c)), 201);
  })
  .patch('/admin/delivery/targets/:id', access('admin'), validate('json', targetPatchSchema), async (c) => {
    const { db, config } = c.var.deps;
    const id = idParam(c.req.param('id'), DELIVERY_MESSAGES.targetNotFound);
    // A changed connection of an enabled target is tested first, as Add does (issue 26).
    return c.json(await updateTestedTarget(db, config, id, c.req.valid('json'), requireViewer(c)), 200);
  })
  .delete(
    '/admin/delivery/targets/:id',
    access('admin'),
    validate('query', targetRemoveQuerySchema),
    async (c) => {
      const id = idParam(c.req.param('id'), DELIVERY_MESSAGES.targetNotFound);
      const { takeDown, releases, artists } = c.req.valid('query');
      // The admin confirms who is affected (issue 44): counts that differ from the server's are refused.
      const result = await removeTarget(c.var.deps.db, id, {
        takeDownFirst: takeDown === 'all',
        actor: requireViewer(c),
        confirmed: { releases, artists },
        requireConfirmation: true,
        appUrl: c.var.deps.config.appUrl,
      });
      // 202: accepted, not done: the target stays (disabled) until its takedowns are acknowledged.
      if (!result.removed) return c.json({ ok: true as const, ...result }, 202);
      return c.json({ ok: true as const, ...result }, 200);
    },
  )
  .post('/admin/delivery/targets/:id/test', access('admin'), async (c) => {
    const { db, config } = c.var.deps;
    const row = await getTargetRow(db, idParam(c.req.param('id'), DELIVERY_MESSAGES.targetNotFound));
    return c.json(await testTargetConnection(db, config, row), 200);
  })
  // Stores no enabled target serves, with the releases waiting on them (issue 44): the admin's warning.
  .get('/admin/delivery/unconnected-stores', access('admin'), async (c) => {
    return c.json(await unconnectedStores(c.var.deps.db), 200);
  })
  .get('/admin/delivery/unmatched-acks', access('admin'), async (c) => {
    return c.json({ items: await listUnmatchedAcks(c.var.deps.db) }, 200);
  })
  .get('/admin/deliveries', access('admin'), validate('query', deliveriesQuerySchema), async (c) => {
    return c.json(await listDeliveries(c.var.deps.db, c.req.valid('query')), 200);
  })
  .get('/admin/deliveries/:id', access('admin'), async (c) => {
    return c.json(
      await getDelivery(c.var.deps.db, idParam(c.req.param('id'), DELIVERY_MESSAGES.deliveryNotFound)),
      200,
    );
  })
  .get('/admin/deliveries/:id/attempts/:attemptId/package', access('admin'), async (c) => {
    const { db, storage, logger } = c.var.deps;
    const deliveryId = idParam(c.req.param('id'), DELIVERY_MESSAGES.deliveryNotFound);
    const attemptId = idParam(c.req.param('attemptId'), DELIVERY_MESSAGES.attemptNotFound);
    const [attempt] = await db
      .select()
      .from(deliveryAttempts)
      .where(and(eq(deliveryAttempts.id, attemptId), eq(deliveryAttempts.deliveryId, deliveryId)));
    if (!attempt) throw notFound(DELIVERY_MESSAGES.attemptNotFound);
    if (attempt.messageXml === '') throw notFound(DELIVERY_MESSAGES.packageGone);
    const folder = (attempt.remotePath ?? attempt.messageId).split('/').pop() ?? attempt.messageId;
    // The files as sent: the same storage objects (streamed), under the names used on the target.
    const archive = new ZipArchive({ zlib: { level: 6 } });
    const output = new PassThrough();
    archive.on('error', (error: Error) => output.destroy(error));
    archive.pipe(output);
    const xmlName = /<ICPN>(\d+)<\/ICPN>/.exec(attempt.messageXml)?.[1] ?? 'message';
    archive.append(attempt.messageXml, { name: `${xmlName}.xml` });
    const files = attempt.action === 'new' ? attempt.files : [];
    const append = async (index: number): Promise<void> => {
      const file = files[index];
      if (!file) {
        void archive.finalize();
        return;
      }
      try {
        if (file.key) {
          const { body } = await storage.get(file.key);
          archive.append(body, { name: file.name, store: true });
          body.on('end', () => void append(index + 1));
          return;
        }
      } catch (error) {
        logger.warn({ err: error, attemptId }, 'package file missing');
        archive.append(`missing from storage: ${file.name}\n`, { name: `${file.name}.MISSING.txt` });
      }
      await append(index + 1);
    };
    void append(0);
    return c.body(Readable.toWeb(output) as ReadableStream, 200, {
      'content-type': 'application/zip',
      'content-disposition': attachmentDisposition(`${folder}.zip`),
    });
  })
  .post('/admin/deliveries/:id/retry', access('admin'), async (c) => {
    return c.json(
      await retryDelivery(c.var.deps.db, idParam(c.req.param('id'), DELIVERY_MESSAGES.deliveryNotFound)),
      200,
    );
  })
  .post('/admin/releases/:id/takedown', access('admin'), validate('json', adminTakedownSchema), async (c) => {
    const items = await adminTakedown(c.var.deps.db, releaseIdParam(c.req.param('id')), c.req.valid('json'));
    return c.json({ deliveries: items }, 200);
  })
  // The "Takedown Requests" tab approves an artist's per-store request (staff who review, issue 26).
  .post(
    '/admin/releases/:id/store-takedowns/approve',
    access('moderator'),
    validate('json', storeTakedownSchema),
    async (c) => {
      const { platformId } = c.req.valid('json');
      const items = await adminTakedown(c.var.deps.db, releaseIdParam(c.req.param('id')), { platformId });
      return c.json({ deliveries: items }, 200);
    },
  )
  // ...or rejects it with a reason for the artist: the store stays live (issue 26).
  .post(
    '/admin/releases/:id/store-takedowns/reject',
    access('moderator'),
    validate('json', rejectStoreTakedownSchema),
    async (c) => {
      const releaseId = releaseIdParam(c.req.param('id'));
      return c.json(
        await rejectStoreTakedown(c.var.deps, requireViewer(c), releaseId, c.req.valid('json')),
        200,
      );
    },
  )
  .get('/releases/:id/detail', access('user', 'read'), async (c) => {
    const viewer = requireViewer(c);
    return c.json(
      await releaseDetail(c.var.deps.db, viewer.account.id, releaseIdParam(c.req.param('id'))),
      200,
    );
  })
  .post(
    '/releases/:id/store-takedowns',
    access('user', 'catalog'),
    validate('json', storeTakedownSchema),
    async (c) => {
      const viewer = requireViewer(c);
      const { platformId } = c.req.valid('json');
      return c.json(
        await requestStoreTakedown(
          c.var.deps.db,
          viewer.account.id,
          releaseIdParam(c.req.param('id')),
          platformId,
        ),
        201,
      );
    },
  );
