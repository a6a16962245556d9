/** What the import job (jobs.ts) does, loaded when it first runs (record 258). */
import type { Deps } from '../../deps';
import { handleJob } from '../../lib/jobs';
import { recordImportLines } from '../../lib/metrics';
import { importJob } from './jobs';
import { runImport } from './service';
import { readLimitsOf } from './source';

type ImportDeps = Pick<Deps, 'db' | 'storage' | 'config'>;

export const stageImport = handleJob(importJob, {
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
