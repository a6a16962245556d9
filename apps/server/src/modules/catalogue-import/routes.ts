/**
 * The admin page "Catalogue import" (record 200), mounted under /api: admins list the folders waiting in
 * DATA_DIR/catalogue-import and the earlier imports, start the import of one folder for an owner (a job,
 * record 232: the answer is the queued import, whose report and progress the page then reads), and read
 * or download a report. The folder is a name the server listed, never a path the browser chose, and no
 * answer carries a server path.
 */
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import {
  CATALOGUE_IMPORT_MESSAGES,
  type CatalogueImportOverview,
  catalogueImportRequestSchema,
} from '@tunedrop/shared/schemas/catalogue-import';
import { Hono } from 'hono';
import { access, requireViewer } from '../../lib/access';
import { attachmentDisposition } from '../../lib/content-disposition';
import type { AppEnv } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { enqueue } from '../../lib/jobs';
import { validate } from '../../lib/validate';
import { catalogueImportJob } from './jobs';
import { formatCatalogueReport } from './report-text';
import {
  catalogueImportRoot,
  createCatalogueImport,
  describeFolder,
  listCatalogueImports,
  readCatalogueImport,
} from './service';

export { catalogueImportRoot } from './service';

async function listFolders(root: string): Promise<CatalogueImportOverview['folders']> {
  await mkdir(root, { recursive: true });
  const entries = (await readdir(root, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .sort((a, b) => a.name.localeCompare(b.name));
  return Promise.all(
    entries.map(async (entry) => ({
      name: entry.name,
      ...(await describeFolder(path.join(root, entry.name))),
    })),
  );
}

const notFound = () => new AppError('not_found', 'No such import', 404);

export const catalogueImportRoutes = new Hono<AppEnv>()
  .get('/admin/catalogue-imports', access('admin'), async (c) => {
    const root = catalogueImportRoot(c.var.deps.config);
    const overview: CatalogueImportOverview = {
      folders: await listFolders(root),
      imports: await listCatalogueImports(c.var.deps.db),
    };
    return c.json(overview, 200);
  })
  .post(
    '/admin/catalogue-imports',
    access('admin'),
    validate('json', catalogueImportRequestSchema),
    async (c) => {
      const viewer = requireViewer(c);
      const body = c.req.valid('json');
      const root = catalogueImportRoot(c.var.deps.config);
      const folders = await listFolders(root);
      if (!folders.some((folder) => folder.name === body.folder))
        throw new AppError('folder_invalid', CATALOGUE_IMPORT_MESSAGES.folderInvalid, 422, {
          folder: CATALOGUE_IMPORT_MESSAGES.folderInvalid,
        });
      const report = await c.var.deps.db.transaction(async (tx) => {
        const created = await createCatalogueImport(tx, {
          sourceLabel: body.folder,
          ownerEmail: body.ownerEmail,
          skipReview: body.skipReview,
          artistProfile: body.artistProfile || null,
          actor: { userId: viewer.user.id, label: viewer.user.email },
        });
        await enqueue(tx, catalogueImportJob, { importId: created.id }, { singletonKey: created.id });
        return created;
      });
      return c.json(report, 202);
    },
  )
  .get('/admin/catalogue-imports/:id', access('admin'), async (c) => {
    const report = await readCatalogueImport(c.var.deps.db, c.req.param('id'));
    if (!report) throw notFound();
    return c.json(report, 200);
  })
  .get('/admin/catalogue-imports/:id/report.txt', access('admin'), async (c) => {
    const report = await readCatalogueImport(c.var.deps.db, c.req.param('id'));
    if (!report) throw notFound();
    c.header('Content-Type', 'text/plain; charset=utf-8');
    c.header('Content-Disposition', attachmentDisposition(`catalogue-import-${report.id}.txt`));
    return c.body(`${formatCatalogueReport(report)}\n`, 200);
  });
