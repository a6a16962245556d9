/** What the catalogue import's job (jobs.ts) does, loaded when it first runs (record 258). */
import path from 'node:path';
import type { Deps } from '../../deps';
import { handleJob } from '../../lib/jobs';
import { catalogueImportJob } from './jobs';
import { catalogueImportRoot, failCatalogueImport, readCatalogueImport, runCatalogueImport } from './service';

export const runCatalogueImportJob = handleJob(catalogueImportJob, {
  async run(
    payload,
    {
      deps,
      retryCount,
      logger,
    }: {
      deps: Pick<Deps, 'db' | 'config' | 'storage' | 'logger'>;
      retryCount: number;
      logger: Deps['logger'];
    },
  ) {
    const report = await readCatalogueImport(deps.db, payload.importId);
    if (!report) return;
    const dir = path.join(catalogueImportRoot(deps.config), report.source);
    try {
      await runCatalogueImport({ ...deps, logger }, payload.importId, dir);
    } catch (error) {
      if (retryCount >= (catalogueImportJob.retry?.limit ?? 0)) {
        const reason = `The import stopped: ${error instanceof Error ? error.message : String(error)}`;
        await failCatalogueImport(deps.db, payload.importId, reason);
      }
      throw error;
    }
  },
});
