/** What the posting job (jobs.ts) does, loaded when it first runs (record 258). */
import type { Deps } from '../../deps';
import { AppError } from '../../lib/errors';
import { handleJob } from '../../lib/jobs';
import { postJob } from './jobs';
import { runPosting } from './posting';

export const postImport = handleJob(postJob, {
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
