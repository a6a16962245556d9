/**
 * The ERN reading worker's entry (record 232): parses one message off the thread that runs jobs and
 * answers requests, and posts back the release it describes or the reason it is refused.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { type ErnWorkerInput, readErnInThisThread } from './ern-parse';

if (!parentPort) throw new Error('ern-read-worker.ts runs as a worker thread');
parentPort.postMessage(await readErnInThisThread(workerData as ErnWorkerInput));
