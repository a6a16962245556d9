/** Royalty imports as jobs (issue 24, decision records 161 and 162). */
import type { Deps } from '../../deps';
import { AppError } from '../../lib/errors';
import { defineJob } from '../../lib/jobs';
import { recordImportLines } from '../../lib/metrics';
import { postQueue, runPosting } from './posting';
import { importQueue, runImport } from './service';
import { readLimitsOf } from './source';

type ImportDeps = Pick<Deps, 'db' | 'storage' | 'config'>;

/**
 * Reads and stages one uploaded report. One run per import at a time (stately, keyed by the import); a
 * run killed mid-way is expired and retried, and resumes after the lines already staged.
 */
export const importJob = defineJob({
  ...importQueue,
  policy: 'stately',
  retry: { limit: 5, delaySeconds: 5, backoff: true },
  // A million lines stage in about two minutes on PostgreSQL; a run past this is presumed dead.
  expireInSeconds: 600,
  async run(payload, { deps }: { deps: ImportDeps }) {
    // tunedrop_import_lines_total on /metrics: the lines this run read between two progress reports (a
    // resumed run's first report is its starting point, not lines it read).
    let reported: number | null = null;
    await runImport(deps, payload.importId, readLimitsOf(deps.config), (progress) => {
      if (reported !== null) recordImportLines(progress.linesRead - reported);
      reported = progress.linesRead;
    });
  },
});

/** Posts one claimed import in chunks, then credits the artists in one short transaction. */
export const postJob = defineJob({
  ...postQueue,
  policy: 'stately',
  retry: { limit: 5, delaySeconds: 5, backoff: true },
  expireInSeconds: 600,
  async run(payload, { deps, logger }: { deps: Pick<Deps, 'db'>; logger: Deps['logger'] }) {
    try {
      await runPosting(deps.db, payload.importId, { admin: payload.admin });
    } catch (error) {
      // A refusal (an artist would go below zero...) is recorded on the import; no retry can cure it.
      if (error instanceof AppError && error.status === 409) {
        logger.warn({ err: error, importId: payload.importId }, 'royalty posting refused');
        return;
      }
      throw error;
    }
  },
});

export const royaltiesJobs = [importJob, postJob];
