/**
 * Reading one ERN message of an import with limits (issue 43 finding 12, record 232): its size is checked
 * before a byte is read, a message above ERN_WORKER_MIN_BYTES is parsed in a worker thread (with a memory
 * cap and a time limit) so a large one never blocks the event loop, and whatever goes wrong refuses this
 * message only, with the reason, while the others go on.
 */
import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ErnReadError, readErnMessage } from './ern-reader';
import type { SourceRelease } from './source';

export const ERN_READ_LIMITS = {
  /** Larger messages are refused unread: a release's ERN is a few hundred kilobytes at most. */
  messageBytes: 10 * 1024 * 1024,
  /** From this size on the parse runs in a worker thread (a 256 KB message parses in about 10 ms). */
  workerMinBytes: 256 * 1024,
  /** A worker still parsing after this long is stopped and the message refused. */
  workerMs: 30_000,
  /** The worker's heap: a parse that needs more is stopped and the message refused. */
  workerHeapMb: 256,
} as const;

export type ErnWorkerInput = { file: string; name: string; now: string };
export type ErnReadResult = { ok: true; release: SourceRelease } | { ok: false; reason: string };

/** The parse itself (in a worker, or inline for small messages): never throws. */
export async function readErnInThisThread(input: ErnWorkerInput): Promise<ErnReadResult> {
  try {
    const xml = await readFile(input.file, 'utf8');
    return { ok: true, release: readErnMessage(xml, input.name, new Date(input.now)) };
  } catch (error) {
    if (error instanceof ErnReadError) return { ok: false, reason: error.message };
    return { ok: false, reason: `The message could not be read: ${describe(error)}` };
  }
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

function startWorker(input: ErnWorkerInput, heapMb: number): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 32 };
  if (!import.meta.url.endsWith('.ts')) {
    // The bundle: build.mjs writes the worker's entry next to dist/main.js.
    return new Worker(new URL('./ern-read-worker.js', import.meta.url), {
      workerData: input,
      resourceLimits,
    });
  }
  // Under tsx and Vitest: the TypeScript source through tsx's API (a worker has not the parent's hooks).
  const source = new URL('./ern-read-worker.ts', import.meta.url).href;
  const tsxPackage = createRequire(import.meta.url).resolve('tsx/package.json');
  const api = pathToFileURL(path.join(path.dirname(tsxPackage), 'dist/esm/api/index.mjs')).href;
  const boot = `import(${JSON.stringify(api)}).then((tsx) => tsx.tsImport(${JSON.stringify(source)}, ${JSON.stringify(source)}))`;
  return new Worker(boot, { eval: true, workerData: input, resourceLimits });
}

function readInWorker(input: ErnWorkerInput, limits: { ms: number; heapMb: number }): Promise<ErnReadResult> {
  return new Promise((resolve) => {
    const worker = startWorker(input, limits.heapMb);
    let isSettled = false;
    const settle = (result: ErnReadResult) => {
      if (isSettled) return;
      isSettled = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve(result);
    };
    const timer = setTimeout(
      () => settle({ ok: false, reason: `Reading the message took longer than ${limits.ms / 1000} s.` }),
      limits.ms,
    );
    worker.once('message', (result: ErnReadResult) => settle(result));
    worker.once('error', (error) =>
      settle({
        ok: false,
        reason:
          (error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? `Reading the message needs more than ${limits.heapMb} MB of memory.`
            : `The message could not be read: ${describe(error)}`,
      }),
    );
    worker.once('exit', () => settle({ ok: false, reason: 'The message could not be read.' }));
  });
}

/** One message of an import: its release, or the reason it is refused. Never throws. */
export async function readErnFile(
  file: string,
  name: string,
  now: Date,
  limits: Partial<typeof ERN_READ_LIMITS> = {},
): Promise<ErnReadResult> {
  const { messageBytes, workerMinBytes, workerMs, workerHeapMb } = { ...ERN_READ_LIMITS, ...limits };
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) return { ok: false, reason: 'The message could not be read.' };
  if (info.size > messageBytes)
    return { ok: false, reason: `The message is larger than ${messageBytes / 1024 ** 2} MB.` };
  const input = { file, name, now: now.toISOString() };
  if (info.size < workerMinBytes) return readErnInThisThread(input);
  return readInWorker(input, { ms: workerMs, heapMb: workerHeapMb });
}
