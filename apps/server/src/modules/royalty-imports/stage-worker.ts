/**
 * The staging worker's entry (record 207): the parse side of staging (runStageJob in staging.ts) off the
 * thread that serves requests. It touches no database; the thread that started it writes the batches.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runStageJob, type StageWorkerInput } from './stage-job';

if (!parentPort) throw new Error('stage-worker.ts runs as a worker thread');
await runStageJob(workerData as StageWorkerInput, parentPort);
