/**
 * Statements off the request's event loop (issue 29, record 208): a piscina pool of worker threads composes
 * and renders them (statement-worker.ts) while the request's thread only runs the queries, so a 10,000-line
 * PDF no longer holds up every other request. STATEMENT_THREADS=0 renders on the event loop as before (for
 * comparison, and for a process that must not start threads). Idle threads exit; the pool starts on the
 * first statement.
 */
import { createRequire } from 'node:module';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import type { Piscina } from 'piscina';
import { AppError } from '../../lib/errors';
import type { StatementJob, StatementOutput } from './statement-worker';

/** A statement still not built after this long fails the request instead of holding it open. */
const STATEMENT_TIMEOUT_MS = 60_000;
/** Statements waiting for a thread beyond this are refused at once (503) rather than queued without end. */
const MAX_QUEUED = 200;

/** One thread fewer than the cores (at least one): the event loop keeps a core for everything else. */
export const defaultStatementThreads = () => Math.max(1, os.availableParallelism() - 1);

let pool: { threads: number; piscina: Promise<Piscina> } | null = null;

/**
 * The worker's entry: dist/statement-worker.js beside the bundle that runs (build.mjs), or, from the sources
 * (vitest, tsx), statement-worker.ts loaded through tsx's loader.
 */
function workerEntry(): { filename: string; execArgv: string[] } {
  const here = import.meta.url;
  if (!/\.ts($|\?)/.test(here)) {
    return { filename: new URL('./statement-worker.js', here).href, execArgv: [] };
  }
  const tsx = pathToFileURL(createRequire(here).resolve('tsx')).href;
  return { filename: new URL('./statement-worker.ts', here).href, execArgv: ['--import', tsx] };
}

function poolOf(threads: number): Promise<Piscina> {
  if (pool?.threads !== threads) {
    const previous = pool?.piscina;
    pool = {
      threads,
      piscina: import('piscina').then(({ Piscina }) => {
        const entry = workerEntry();
        return new Piscina({
          filename: entry.filename,
          execArgv: entry.execArgv,
          minThreads: 0,
          maxThreads: threads,
          idleTimeout: 30_000,
          maxQueue: MAX_QUEUED,
        });
      }),
    };
    void previous?.then((old) => old.close()).catch(() => undefined);
  }
  return pool.piscina;
}

/**
 * Runs one statement job in a worker thread (or, with `threads` 0, here). A failure in the worker, a thread
 * that dies or a job past STATEMENT_TIMEOUT_MS rejects with an error naming the statement; never hangs.
 */
export async function runStatementJob<Job extends StatementJob>(
  job: Job,
  threads: number = defaultStatementThreads(),
): Promise<StatementOutput<Job>> {
  if (threads === 0) {
    const { default: render } = await import('./statement-worker');
    return (await render(job)) as StatementOutput<Job>;
  }
  const piscina = await poolOf(threads);
  if (piscina.queueSize >= MAX_QUEUED) {
    throw new AppError(
      'statement_busy',
      'Too many statements are being prepared right now. Please try again in a minute.',
      503,
    );
  }
  try {
    return (await piscina.run(job, {
      signal: AbortSignal.timeout(STATEMENT_TIMEOUT_MS),
    })) as StatementOutput<Job>;
  } catch (error) {
    const reason = error instanceof Error ? error : new Error(String(error));
    if (reason.name === 'AbortError' || reason.name === 'TimeoutError') {
      throw new AppError(
        'statement_timeout',
        'The statement took too long to prepare. Please try again later.',
        503,
      );
    }
    throw new Error(
      `The ${job.kind} statement of ${job.data.period} failed in its worker thread: ${reason.message}`,
      {
        cause: reason,
      },
    );
  }
}

/** Stops the pool's threads (tests; a process otherwise lets idle threads exit on their own). */
export async function closeStatementThreads(): Promise<void> {
  const current = pool;
  pool = null;
  await (await current?.piscina)?.close({ force: true });
}
