/**
 * Upload throughput: a 1 GiB WAV through tus (tus-js-client, as the browser sends it: one streamed
 * PATCH; and in chunks for comparison) to the running server on loopback, against the floor
 * cost of an HTTP upload here (a bare Node `http` server that only pipes the body to a file) and a
 * plain `cp` on the same disk. Prints the three throughputs, the ratio tus / bare pipe, and the
 * server's peak RSS growth while it received the file. It is not a test.
 *   node --import tsx bench/upload.ts [--size-mib 1024] [--chunk-mib 32] [--rounds 3] [--s3]
 * Targets: tus at least 70% of the bare pipe; RSS growth under 100 MB.
 * With --s3 the server stores uploads straight in a bucket (the tests' S3 server, s3rver on the same
 * disk, decision 157), on PostgreSQL when DATABASE_URL is set (advisory-lock locker, decision 158).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import * as tus from 'tus-js-client';
import { type S3TestServer, startS3TestServer } from '../apps/server/src/test-support/s3-server';

const { values } = parseArgs({
  options: {
    'size-mib': { type: 'string', default: '1024' },
    'chunk-mib': { type: 'string', default: '32' },
    rounds: { type: 'string', default: '3' },
    s3: { type: 'boolean', default: false },
  },
});
const IS_S3 = values.s3 === true;
const SIZE = Number(values['size-mib']) * 1024 * 1024;
const CHUNK = Number(values['chunk-mib']) * 1024 * 1024;
const MiB = 1024 * 1024;
const ROUNDS = Number(values.rounds);

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-bench-upload-'));
const dataDir = path.join(work, 'data');
const source = path.join(work, 'bench.wav');

/** A valid 16-bit stereo 44.1 kHz WAV of exactly SIZE bytes, written in 8 MiB blocks. */
async function writeWav(file: string, size: number) {
  const dataSize = size - 44;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + dataSize, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(2, 22);
  header.writeUInt32LE(44_100, 24);
  header.writeUInt32LE(44_100 * 4, 28);
  header.writeUInt16LE(4, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataSize, 40);
  const block = Buffer.alloc(8 * MiB);
  for (let index = 0; index < block.length; index += 2)
    block.writeInt16LE(((index * 37) % 20_000) - 10_000, index);
  const handle = await fsp.open(file, 'w');
  await handle.write(header);
  for (let written = 0; written < dataSize; written += block.length) {
    await handle.write(block, 0, Math.min(block.length, dataSize - written));
  }
  await handle.close();
}

function rssBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /VmRSS:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) * 1024 : 0;
}

/** Samples a process's RSS every 20 ms until stopped; returns the peak. */
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

const mbps = (bytes: number, ms: number) => bytes / MiB / (ms / 1000);

async function waitHealthy(base: string) {
  const started = Date.now();
  for (;;) {
    if (Date.now() - started > 120_000) throw new Error('the server was not healthy after 120 s');
    const ok = await fetch(`${base}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function runCli(args: string[], env: NodeJS.ProcessEnv) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'apps/server/src/cli.ts', ...args], {
    env,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`cli ${args[0]} failed: ${result.stderr || result.stdout}`);
}

async function tusUpload(
  base: string,
  cookie: string,
  chunkSize: number,
  file = source,
  size = SIZE,
): Promise<number> {
  const started = performance.now();
  let url: string | null = null;
  await new Promise<void>((resolve, reject) => {
    const upload = new tus.Upload(fs.createReadStream(file), {
      endpoint: `${base}/api/uploads`,
      chunkSize,
      uploadSize: size,
      retryDelays: [],
      headers: { cookie, origin: base },
      metadata: { filename: 'bench.wav', filetype: 'audio/wav', kind: 'audio' },
      storeFingerprintForResuming: false,
      onSuccess: () => {
        url = upload.url;
        resolve();
      },
      onError: reject,
    });
    upload.start();
  });
  const ms = performance.now() - started;
  // Remove it again so the staging area does not fill up with gigabytes between rounds.
  if (url) {
    await fetch(new URL(url, base), {
      method: 'DELETE',
      headers: { cookie, origin: base, 'tus-resumable': '1.0.0' },
    });
  }
  return ms;
}

/** The floor: a separate Node process whose `http` server only pipes each request body to a file. */
const BARE_SERVER = `
const fs = require('node:fs');
const http = require('node:http');
const { pipeline } = require('node:stream/promises');
const server = http.createServer((req, res) => {
  pipeline(req, fs.createWriteStream(process.argv[1])).then(
    () => res.writeHead(204).end(),
    () => res.writeHead(500).end(),
  );
});
server.listen(0, '127.0.0.1', () => process.send(server.address().port));
`;

async function barePipe(): Promise<number> {
  const target = path.join(work, 'bare-pipe.bin');
  const server = spawn(process.execPath, ['-e', BARE_SERVER, target], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve) =>
    server.once('message', (message) => resolve(Number(message))),
  );
  const started = performance.now();
  try {
    await new Promise<void>((resolve, reject) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'PATCH',
          path: '/',
          headers: { 'content-length': SIZE, 'content-type': 'application/offset+octet-stream' },
        },
        (response) => {
          response.resume();
          response.on('end', () =>
            response.statusCode === 204 ? resolve() : reject(new Error('bare pipe failed')),
          );
        },
      );
      request.on('error', reject);
      fs.createReadStream(source).pipe(request);
    });
    return performance.now() - started;
  } finally {
    server.kill();
    await fsp.rm(target, { force: true });
  }
}

function copy(): number {
  const target = path.join(work, 'copy.bin');
  const started = performance.now();
  const result = spawnSync('cp', [source, target]);
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error('cp failed');
  fs.rmSync(target, { force: true });
  return ms;
}

let child: ChildProcess | null = null;
let s3: S3TestServer | null = null;
try {
  console.info(`writing a ${SIZE / MiB} MiB WAV in ${work} …`);
  await writeWav(source, SIZE);

  const port = String(30000 + Math.floor(Math.random() * 20000));
  const base = `http://127.0.0.1:${port}`;
  // The embedded database in the bench's own data directory, whatever DATABASE_URL says (with --s3,
  // DATABASE_URL is kept so the PostgreSQL locker is measured too).
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: port,
    APP_URL: base,
    LOG_LEVEL: 'warn',
    RATE_LIMITS: 'off',
  };
  if (IS_S3) {
    s3 = await startS3TestServer({ directory: path.join(work, 's3') });
    Object.assign(env, s3.env);
  } else {
    delete env.DATABASE_URL;
  }
  runCli(
    [
      'user:create',
      '--email',
      'bench@example.com',
      '--password',
      'Bench-Passw0rd!',
      '--name',
      'Bench',
      '--artist',
      'Bench',
      '--verified',
      '--active',
    ],
    env,
  );
  child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], { env, stdio: 'ignore' });
  await waitHealthy(base);
  const signIn = await fetch(`${base}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email: 'bench@example.com', password: 'Bench-Passw0rd!' }),
  });
  if (!signIn.ok) throw new Error(`sign-in failed: ${signIn.status} ${await signIn.text()}`);
  const cookie = signIn.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');

  // A small warm-up so the measured uploads do not pay for lazy module loading.
  const small = path.join(work, 'warm-up.wav');
  await writeWav(small, 4 * MiB);
  await tusUpload(base, cookie, CHUNK, small, 4 * MiB);

  // This machine may be shared: run the contenders interleaved, several rounds, and keep each one's
  // best time (the least disturbed run); the RSS growth is the worst seen over all tus uploads.
  const pid = child.pid as number;
  const baseline = rssBytes(pid);
  const stop = sampleRss(pid);
  const times = { tus: [] as number[], chunked: [] as number[], bare: [] as number[], cp: [] as number[] };
  for (let round = 0; round < ROUNDS; round += 1) {
    times.tus.push(await tusUpload(base, cookie, Number.POSITIVE_INFINITY));
    times.chunked.push(await tusUpload(base, cookie, CHUNK));
    times.bare.push(await barePipe());
    times.cp.push(copy());
    console.info(
      `round ${round + 1}: tus ${mbps(SIZE, times.tus[round] as number).toFixed(0)}, tus in ${CHUNK / MiB} MiB chunks ${mbps(SIZE, times.chunked[round] as number).toFixed(0)}, bare pipe ${mbps(SIZE, times.bare[round] as number).toFixed(0)}, cp ${mbps(SIZE, times.cp[round] as number).toFixed(0)} MiB/s`,
    );
  }
  const serverPeak = stop();
  const best = (list: number[]) => Math.min(...list);
  const tusMs = best(times.tus);
  const chunkedMs = best(times.chunked);
  const bareMs = best(times.bare);
  const cpMs = best(times.cp);

  const tusRate = mbps(SIZE, tusMs);
  const chunkedRate = mbps(SIZE, chunkedMs);
  const bareRate = mbps(SIZE, bareMs);
  const cpRate = mbps(SIZE, cpMs);
  const growth = (serverPeak - baseline) / MiB;
  console.info('');
  console.info(
    `file: ${SIZE / MiB} MiB WAV, loopback, ${os.cpus().length} cores, load average ${os.loadavg()[0]?.toFixed(1)}; best of ${ROUNDS} rounds; uploads ${IS_S3 ? `into the bucket (s3rver), ${env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}` : 'staged on local disk'}`,
  );
  const line = (label: string, rate: number, ms: number) =>
    console.info(`${label.padEnd(52)} ${rate.toFixed(0).padStart(5)} MiB/s (${(ms / 1000).toFixed(2)} s)`);
  line('tus, one streamed PATCH (as the browser sends)', tusRate, tusMs);
  line(`tus in ${CHUNK / MiB} MiB chunks (behind body-limited proxies)`, chunkedRate, chunkedMs);
  line('bare Node http pipe to a file', bareRate, bareMs);
  line('cp on the same disk', cpRate, cpMs);
  console.info(
    `${'ratio tus / bare pipe'.padEnd(52)} ${((tusRate / bareRate) * 100).toFixed(0).padStart(5)}% (target ≥ 70%)`,
  );
  console.info(
    `${'ratio tus in chunks / bare pipe'.padEnd(52)} ${((chunkedRate / bareRate) * 100).toFixed(0).padStart(5)}%`,
  );
  console.info(
    `${'server peak RSS growth during the uploads'.padEnd(52)} ${growth.toFixed(1).padStart(5)} MB (target < 100 MB; baseline ${(baseline / MiB).toFixed(0)} MB)`,
  );
} finally {
  if (child) {
    child.kill('SIGTERM');
    await new Promise((resolve) => child?.once('exit', resolve));
  }
  await s3?.close();
  fs.rmSync(work, { recursive: true, force: true });
}
