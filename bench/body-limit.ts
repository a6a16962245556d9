/**
 * Oversized request bodies: N anonymous 100 MB JSON bodies at once to POST /api/contact, half with a
 * Content-Length and half chunked, against the real server (a child process on PGlite). Prints how
 * long each took to be answered, the server's peak RSS growth and how long /api/health took while
 * they arrived, with the 1 MB limit (the default) and, as the baseline in the same run, the same
 * server with BODY_LIMIT_BYTES set to 1 GiB (what the server did before there was a limit). It is
 * not a test.
 *   node --import tsx bench/body-limit.ts [--bodies 4] [--size-mib 100]
 * Targets: every oversized body answered 413 in under a second; RSS growth under 50 MB.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    bodies: { type: 'string', default: '4' },
    'size-mib': { type: 'string', default: '100' },
  },
});
const MiB = 1024 * 1024;
const BODIES = Number(values.bodies);
const SIZE = Number(values['size-mib']) * MiB;

function rssBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /VmRSS:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) * 1024 : 0;
}

function sampleRss(pid: number) {
  let peak = rssBytes(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssBytes(pid));
  }, 20);
  return () => {
    clearInterval(timer);
    return Math.max(peak, rssBytes(pid));
  };
}

async function waitHealthy(base: string) {
  const started = Date.now();
  for (;;) {
    if (Date.now() - started > 120_000) throw new Error('the server was not healthy after 120 s');
    const ok = await fetch(`${base}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Sends up to SIZE bytes, stopping as soon as the server answers; resolves with status and time. */
function postBody(port: number, origin: string, isChunked: boolean): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const chunk = Buffer.alloc(MiB, 'a');
  return new Promise((resolve) => {
    let written = 0;
    let isAnswered = false;
    const request = http.request({
      host: '127.0.0.1',
      port,
      path: '/api/contact',
      method: 'POST',
      agent: false,
      headers: {
        'content-type': 'application/json',
        origin,
        ...(isChunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(SIZE) }),
      },
    });
    const finish = (status: number) => {
      if (isAnswered) return;
      isAnswered = true;
      resolve({ status, ms: performance.now() - started });
      request.destroy();
    };
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => finish(response.statusCode ?? 0));
    });
    request.on('error', () => finish(0));
    const write = () => {
      while (!isAnswered && written < SIZE) {
        const part = written === 0 ? Buffer.from(`{"name":"${'a'.repeat(MiB - 9)}`) : chunk;
        written += part.length;
        if (!request.write(part)) {
          request.once('drain', write);
          return;
        }
      }
      if (!isAnswered) request.end();
    };
    write();
  });
}

async function healthMs(base: string): Promise<number> {
  const started = performance.now();
  await fetch(`${base}/api/health`);
  return performance.now() - started;
}

async function run(label: string, bodyLimit: number) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-bench-body-'));
  const port = 30000 + Math.floor(Math.random() * 20000);
  const base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: path.join(work, 'data'),
    PORT: String(port),
    APP_URL: base,
    LOG_LEVEL: 'warn',
    RATE_LIMITS: 'off',
    BODY_LIMIT_BYTES: String(bodyLimit),
  };
  delete env.DATABASE_URL;
  let child: ChildProcess | null = null;
  try {
    child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], { env, stdio: 'ignore' });
    await waitHealthy(base);
    await healthMs(base);
    const pid = child.pid as number;
    const baseline = rssBytes(pid);
    const stop = sampleRss(pid);
    const started = performance.now();
    const flood = Promise.all(
      Array.from({ length: BODIES }, (_, index) => postBody(port, base, index % 2 === 1)),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const health = await healthMs(base);
    const answers = await flood;
    const totalMs = performance.now() - started;
    const peak = stop();
    const statuses = [...new Set(answers.map((answer) => answer.status))].join(', ');
    const slowest = Math.max(...answers.map((answer) => answer.ms));
    console.info(
      `${label.padEnd(34)} statuses ${statuses.padEnd(8)} slowest answer ${(slowest / 1000).toFixed(2).padStart(6)} s, all ${(totalMs / 1000).toFixed(2).padStart(6)} s, /api/health during ${health.toFixed(0).padStart(5)} ms, server RSS growth ${((peak - baseline) / MiB).toFixed(0).padStart(5)} MB`,
    );
  } finally {
    if (child) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child?.once('exit', resolve));
    }
    fs.rmSync(work, { recursive: true, force: true });
  }
}

console.info(
  `${BODIES} bodies of ${SIZE / MiB} MiB at once (half Content-Length, half chunked) to POST /api/contact; ${os.cpus().length} cores, load average ${os.loadavg()[0]?.toFixed(1)}`,
);
await run('BODY_LIMIT_BYTES=1 MiB (default)', MiB);
await run('baseline: BODY_LIMIT_BYTES=1 GiB', 1024 * MiB);
