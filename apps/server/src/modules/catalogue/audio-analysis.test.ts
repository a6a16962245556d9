/**
 * The audio pre-flight analysis (issue 41, record 298) on WAVs made in the test: full-band noise passes,
 * the same noise low-passed at 16 kHz (or through an MP3 encoder, when lame is installed) is fake lossless,
 * a clipped sine and leading or trailing silence are warnings.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { audioChecks, isFakeLossless } from '@tunedrop/shared/schemas/audio-checks';
import { afterAll, describe, expect, it } from 'vitest';
import { lowPassed, makeWav, padded, pcmWav, sine, whiteNoise } from '../../test-support/media';
import { radix2Fft, readAndAnalyse } from './audio-analysis';
import { openFileSource } from './wav';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'audio-analysis-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function analyse(body: Buffer) {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.wav`);
  fs.writeFileSync(file, body);
  const source = await openFileSource(file);
  try {
    return (await readAndAnalyse(source)).analysis;
  } finally {
    await source.close();
  }
}
const cd = { sampleRate: 44_100, channels: 2, bitDepth: 16 } as const;
const codes = (analysis: Parameters<typeof audioChecks>[0]) =>
  audioChecks(analysis).map((check) => check.code);

const hasLame = (() => {
  try {
    execFileSync('lame', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('the FFT', () => {
  it('puts a sine at its bin', () => {
    const size = 1024;
    const re = Float64Array.from({ length: size }, (_, n) => Math.sin((2 * Math.PI * 37 * n) / size));
    const im = new Float64Array(size);
    radix2Fft(size)(re, im);
    const magnitudes = Array.from({ length: size / 2 }, (_, k) =>
      Math.hypot(re[k] as number, im[k] as number),
    );
    expect(magnitudes.indexOf(Math.max(...magnitudes))).toBe(37);
    expect(magnitudes[37]).toBeCloseTo(size / 2, 6);
  });
});

describe('fake lossless', () => {
  const noise = whiteNoise(4, 44_100, 2, 0.5);

  it('passes full-band noise: the cut-off is the Nyquist frequency', async () => {
    const analysis = await analyse(pcmWav(noise, cd));
    expect(analysis.cutoffHz).toBe(22_050);
    expect(codes(analysis)).toEqual([]);
  });

  it('refuses the same noise low-passed at 16 kHz, with the cut-off in its reason', async () => {
    const analysis = await analyse(pcmWav(lowPassed(noise, 2, 44_100, 16_000), cd));
    expect(analysis.cutoffHz).toBeGreaterThan(15_500);
    expect(analysis.cutoffHz).toBeLessThan(17_000);
    expect(isFakeLossless(analysis)).toBe(true);
    const [check] = audioChecks(analysis);
    expect(check).toMatchObject({ code: 'fake_lossless', severity: 'refusal' });
    expect(check?.reason).toMatch(/stops abruptly at 1[67](\.\d)? kHz/);
  });

  it('passes a 24-bit 96 kHz file low-passed at 20 kHz (a CD master at a higher rate)', async () => {
    const hiRes = whiteNoise(2, 96_000, 1, 0.5, 7);
    const analysis = await analyse(
      pcmWav(lowPassed(hiRes, 1, 96_000, 20_000), { sampleRate: 96_000, channels: 1, bitDepth: 24 }),
    );
    expect(analysis.cutoffHz).toBeGreaterThan(19_500);
    expect(isFakeLossless(analysis)).toBe(false);
  });

  it.skipIf(!hasLame)(
    'refuses noise through a 128 kbps MP3 and back, passes it through 320 kbps',
    async () => {
      const wav = path.join(dir, 'noise.wav');
      fs.writeFileSync(wav, pcmWav(noise, cd));
      const roundTrip = (kbps: string) => {
        execFileSync('lame', ['--quiet', '-b', kbps, wav, path.join(dir, `n${kbps}.mp3`)]);
        execFileSync('lame', [
          '--quiet',
          '--decode',
          path.join(dir, `n${kbps}.mp3`),
          path.join(dir, `n${kbps}.wav`),
        ]);
        return fs.readFileSync(path.join(dir, `n${kbps}.wav`));
      };
      expect(isFakeLossless(await analyse(roundTrip('128')))).toBe(true);
      expect(isFakeLossless(await analyse(roundTrip('320')))).toBe(false);
    },
  );

  it('passes the quiet 440 Hz tone every other test uploads', async () => {
    const analysis = await analyse(makeWav({ seconds: 0.5, sampleRate: 44_100, bitDepth: 16, channels: 2 }));
    expect(codes(analysis)).toEqual([]);
  });
});

describe('clipping and silence', () => {
  it('counts the runs of full-scale samples of a clipped sine as a warning', async () => {
    // A 100 Hz sine driven to twice full scale: two flat runs per cycle, in each channel.
    const analysis = await analyse(pcmWav(sine(1, 44_100, 2, 100, 2), cd));
    expect(analysis.clippedRuns).toBe(400);
    expect(audioChecks(analysis)).toEqual([
      expect.objectContaining({ code: 'clipping', severity: 'warning' }),
    ]);
    expect(audioChecks(analysis)[0]?.reason).toContain('in 400 places');
  });

  it('does not count a sine that only touches full scale', async () => {
    const analysis = await analyse(pcmWav(sine(1, 44_100, 2, 100, 1), cd));
    expect(analysis.clippedRuns).toBe(0);
  });

  it('measures 5 s of leading and 3 s of trailing silence', async () => {
    const tone = sine(2, 44_100, 2, 440, 0.5);
    const analysis = await analyse(pcmWav(padded(tone, 2, 44_100, 5, 3), cd));
    expect(analysis.leadingSilenceMs).toBeGreaterThanOrEqual(5_000);
    expect(analysis.leadingSilenceMs).toBeLessThan(5_010);
    expect(analysis.trailingSilenceMs).toBeGreaterThan(2_990);
    expect(analysis.trailingSilenceMs).toBeLessThanOrEqual(3_000);
    expect(codes(analysis)).toEqual(['leading_silence', 'trailing_silence']);
    expect(audioChecks(analysis)[0]?.reason).toBe('The track starts with 5 s of silence.');
  });

  it('lets a second of silence pass', async () => {
    const tone = sine(2, 44_100, 2, 440, 0.5);
    expect(codes(await analyse(pcmWav(padded(tone, 2, 44_100, 1, 1), cd)))).toEqual([]);
  });
});
