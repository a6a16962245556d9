/**
 * The audio pre-flight analysis (issue 41, record 298) on a 10-minute 44.1 kHz 16-bit stereo WAV (about
 * 106 MB of noise, written to a temp dir in blocks), against a plain read of the same file in the same
 * blocks (the floor: the analysis reads every byte once). Prints the median of several runs of each, the
 * longest time the event loop was held between two reads (what other requests wait), and the process's
 * peak RSS. No database. It is not a test.
 *   node --import tsx bench/audio-analysis.ts [--minutes 10] [--rounds 5]
 * Last run (2 shared cores, 2026-11-29): see bench/results/2026-11-29-audio-analysis.md.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { readAndAnalyse } from '../apps/server/src/modules/catalogue/audio-analysis';
import { openFileSource } from '../apps/server/src/modules/catalogue/wav';

const { values } = parseArgs({
  options: { minutes: { type: 'string', default: '10' }, rounds: { type: 'string', default: '5' } },
});
const minutes = Number(values.minutes);
const rounds = Number(values.rounds);
const sampleRate = 44_100;
const channels = 2;
const frames = Math.round(minutes * 60 * sampleRate);
const dataBytes = frames * channels * 2;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-audio-'));
const file = path.join(dir, 'ten-minutes.wav');

function writeWav() {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * channels * 2, 28);
  header.writeUInt16LE(channels * 2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataBytes, 40);
  const fd = fs.openSync(file, 'w');
  fs.writeSync(fd, header);
  const block = new Int16Array(1 << 20);
  let state = 1;
  for (let written = 0; written < dataBytes; written += block.byteLength) {
    for (let i = 0; i < block.length; i += 1) {
      state = (state * 1_103_515_245 + 12_345) >>> 0;
      block[i] = ((state >>> 16) - 32_768) >> 2;
    }
    const bytes = Buffer.from(block.buffer, 0, Math.min(block.byteLength, dataBytes - written));
    fs.writeSync(fd, bytes);
  }
  fs.closeSync(fd);
}

async function plainRead() {
  const source = await openFileSource(file);
  try {
    const block = 32_768 * 16 * channels * 2; // the analysis reads 2 MiB at a time too
    for (let position = 44; position < source.size; position += block) await source.read(position, block);
  } finally {
    await source.close();
  }
}

async function analysis() {
  const source = await openFileSource(file);
  try {
    return (await readAndAnalyse(source)).analysis;
  } finally {
    await source.close();
  }
}

async function timed(run: () => Promise<unknown>) {
  const times: number[] = [];
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  for (let round = 0; round < rounds; round += 1) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  delay.disable();
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)] as number, maxHoldMs: delay.max / 1e6 };
}

writeWav();
console.info(`${minutes} min, 44.1 kHz 16-bit stereo: ${(fs.statSync(file).size / 1e6).toFixed(1)} MB`);
await plainRead(); // warm the page cache for both, and the analysis code
await analysis();
const baseline = await timed(plainRead);
const analysed = await timed(analysis);
console.info(`plain read (baseline): ${baseline.median.toFixed(0)} ms median of ${rounds}`);
console.info(
  `analysis:              ${analysed.median.toFixed(0)} ms median of ${rounds} (${(analysed.median / baseline.median).toFixed(1)}x the read)`,
);
console.info(
  `event loop held at most ${analysed.maxHoldMs.toFixed(1)} ms at a time (plain read: ${baseline.maxHoldMs.toFixed(1)} ms)`,
);
console.info(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB; result`, await analysis());
fs.rmSync(dir, { recursive: true, force: true });
