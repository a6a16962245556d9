/**
 * Royalty report reader in bounded memory (issue 22 finding 6, decision record 151): peak RSS and time of
 * reading every line (no parsing, no database) of an ordinary statement, a gzip bomb (one 1.2 GB line in about
 * 1.2 MB of gzip) and a gzip file of ordinary lines that expands beyond ROYALTY_MAX_DECOMPRESSED_BYTES
 * (set to 256 MiB here). Each case runs in its own process; its peak RSS is the kernel's VmHWM, polled by
 * this process, so a case stopped at the time limit still has a figure. With --baseline the bomb is also
 * read by the reader of commit 3cb30be (before the fix), taken from git. It is not a test.
 *   node --import tsx bench/royalty-reader.ts [--lines 500000] [--baseline] [--limit-seconds 60]
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createGzip } from 'node:zlib';

const { values } = parseArgs({
  options: {
    lines: { type: 'string', default: '500000' },
    baseline: { type: 'boolean', default: false },
    'limit-seconds': { type: 'string', default: '60' },
    file: { type: 'string' },
    reader: { type: 'string' },
    'max-decompressed': { type: 'string' },
  },
});

const HEADER =
  'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)';
const line = (i: number) =>
  `2025-05-02\t2025-03\tStore${i % 25}\tArtist\tSong ${i % 1000}\tQZBEN25${String(i % 100000).padStart(5, '0')}\t\t${i % 500}\t100\tSong\tUS\t0\t0.${String(i % 1000).padStart(4, '0')}`;

type Outcome = { lines: number; seconds: number; error: string | null };

/** The child: reads every line of one file with the current reader (default limits) or the baseline one. */
async function child(): Promise<void> {
  const file = values.file as string;
  const started = performance.now();
  let lines = 0;
  let error: string | null = null;
  try {
    if (values.reader) {
      const { readLines } = (await import(values.reader)) as {
        readLines: (file: string) => AsyncIterable<unknown>;
      };
      for await (const _line of readLines(file)) lines += 1;
    } else {
      const { DEFAULT_READ_LIMITS, readLines } = await import(
        '../apps/server/src/modules/royalty-imports/source'
      );
      const limits = {
        ...DEFAULT_READ_LIMITS,
        ...(values['max-decompressed'] ? { maxDecompressedBytes: Number(values['max-decompressed']) } : {}),
      };
      for await (const _line of readLines(file, limits)) lines += 1;
    }
  } catch (caught) {
    error = caught instanceof Error ? caught.message : String(caught);
  }
  const outcome: Outcome = { lines, seconds: (performance.now() - started) / 1000, error };
  process.stdout.write(JSON.stringify(outcome));
}

function peakRssMb(pid: number): number | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /VmHWM:\s+(\d+) kB/.exec(status);
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Runs one case in a child process; its peak RSS polled every 50 ms; killed after the time limit. */
async function runCase(args: string[], limitSeconds: number) {
  const started = performance.now();
  const proc = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  proc.stdout.on('data', (data: Buffer) => {
    output += data.toString();
  });
  let peak = 0;
  const poll = setInterval(() => {
    peak = Math.max(peak, peakRssMb(proc.pid as number) ?? 0);
  }, 50);
  const timer = setTimeout(() => proc.kill('SIGKILL'), limitSeconds * 1000);
  const code = await new Promise<number | null>((resolve) => proc.on('exit', resolve));
  clearInterval(poll);
  clearTimeout(timer);
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0 || output === '') return { outcome: null, seconds, peak };
  return { outcome: JSON.parse(output) as Outcome, seconds, peak };
}

async function writeGzip(file: string, chunks: () => Generator<Buffer>) {
  await pipeline(chunks(), createGzip({ level: 9 }), fs.createWriteStream(file));
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'royalty-reader-bench-'));
  const lines = Number(values.lines);
  const limitSeconds = Number(values['limit-seconds']);
  try {
    const normal = path.join(dir, 'normal.tsv');
    const body = [HEADER, ...Array.from({ length: lines }, (_, i) => line(i))].join('\n');
    fs.writeFileSync(normal, `${body}\n`);
    const normalGz = path.join(dir, 'normal.tsv.gz');
    await writeGzip(normalGz, function* () {
      yield Buffer.from(`${body}\n`);
    });
    const bomb = path.join(dir, 'bomb.tsv.gz');
    const bombBytes = 1200 * 1024 * 1024;
    await writeGzip(bomb, function* () {
      const block = Buffer.alloc(16 * 1024 * 1024, 'a');
      for (let left = bombBytes; left > 0; left -= block.length)
        yield block.subarray(0, Math.min(left, block.length));
    });
    const wide = path.join(dir, 'wide.tsv.gz');
    const wideBytes = 1024 * 1024 * 1024;
    await writeGzip(wide, function* () {
      yield Buffer.from(`${HEADER}\n`);
      const block = Buffer.from(Array.from({ length: 100_000 }, (_, i) => `${line(i)}\n`).join(''));
      for (let written = 0; written < wideBytes; written += block.length) yield block;
    });
    const size = (file: string) => `${(fs.statSync(file).size / 1024 / 1024).toFixed(1)} MB`;

    const cases: { name: string; args: string[] }[] = [
      {
        name: `ordinary statement, ${lines.toLocaleString('en-US')} lines, plain (${size(normal)})`,
        args: ['--file', normal],
      },
      { name: `same, gzip (${size(normalGz)})`, args: ['--file', normalGz] },
      { name: `gzip bomb: one 1.2 GB line (${size(bomb)})`, args: ['--file', bomb] },
      {
        name: `gzip of 1 GiB of ordinary lines (${size(wide)}), cap 256 MiB`,
        args: ['--file', wide, '--max-decompressed', String(256 * 1024 * 1024)],
      },
    ];
    if (values.baseline) {
      const old = path.join(dir, 'source-3cb30be.ts');
      const show = spawnSync('git', ['show', '3cb30be:apps/server/src/modules/royalties/source.ts'], {
        encoding: 'utf8',
      });
      if (show.status === 0) {
        fs.writeFileSync(old, show.stdout);
        cases.push({
          name: `baseline reader (3cb30be): the same bomb`,
          args: ['--file', bomb, '--reader', old],
        });
        cases.push({
          name: `baseline reader (3cb30be): the ordinary statement, plain`,
          args: ['--file', normal, '--reader', old],
        });
      } else {
        console.info('baseline: git show 3cb30be failed; run from the repository');
      }
    }
    console.info(`Royalty report reader (limit ${limitSeconds} s per case; node ${process.version})`);
    console.info('case | outcome | time | peak RSS');
    for (const entry of cases) {
      const { outcome, seconds, peak } = await runCase(entry.args, limitSeconds);
      const result = outcome
        ? outcome.error
          ? `refused after ${outcome.lines.toLocaleString('en-US')} lines: ${outcome.error}`
          : `${outcome.lines.toLocaleString('en-US')} lines read`
        : `not finished after ${limitSeconds} s (killed)`;
      // The read's own time when it finished (process start-up excluded), else the wall time until killed.
      const time = outcome?.seconds ?? seconds;
      console.info(`${entry.name} | ${result} | ${time.toFixed(2)} s | ${peak.toFixed(0)} MB`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (values.file) await child();
else await main();
