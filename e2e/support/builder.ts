/** Real media files for the release builder journeys, written into a temp directory by the test. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import sharp from 'sharp';
import { lowPassed, padded, pcmWav, sine, whiteNoise } from '../../apps/server/src/test-support/media';

const mono = { sampleRate: 44_100, channels: 1, bitDepth: 16 } as const;

/** A PCM WAV with a quiet tone: `seconds` long at 44.1 kHz stereo, 16 or 24 bit. */
export function wavBytes(seconds: number, bitDepth: 16 | 24 = 16, sampleRate = 44_100, channels = 2): Buffer {
  const bytesPerSample = bitDepth / 8;
  const frames = Math.round(seconds * sampleRate);
  const dataSize = frames * channels * bytesPerSample;
  const buffer = Buffer.alloc(44 + dataSize);
  buffer.write('RIFF', 0, 'ascii');
  buffer.writeUInt32LE(36 + dataSize, 4);
  buffer.write('WAVE', 8, 'ascii');
  buffer.write('fmt ', 12, 'ascii');
  buffer.writeUInt32LE(16, 16);
  buffer.writeUInt16LE(1, 20);
  buffer.writeUInt16LE(channels, 22);
  buffer.writeUInt32LE(sampleRate, 24);
  buffer.writeUInt32LE(sampleRate * channels * bytesPerSample, 28);
  buffer.writeUInt16LE(channels * bytesPerSample, 32);
  buffer.writeUInt16LE(bitDepth, 34);
  buffer.write('data', 36, 'ascii');
  buffer.writeUInt32LE(dataSize, 40);
  const max = 2 ** (bitDepth - 1) - 1;
  let offset = 44;
  for (let frame = 0; frame < frames; frame += 1) {
    const value = Math.round(Math.sin((2 * Math.PI * 440 * frame) / sampleRate) * max * 0.1);
    for (let channel = 0; channel < channels; channel += 1) {
      buffer.writeIntLE(value, offset, bytesPerSample);
      offset += bytesPerSample;
    }
  }
  return buffer;
}

export type MediaDir = {
  dir: string;
  file: (name: string, body: Buffer | string) => string;
  cover: (name?: string, size?: number, format?: 'png' | 'jpeg') => Promise<string>;
  wav: (name: string, seconds?: number, bitDepth?: 16 | 24) => string;
  /** Noise low-passed at 16 kHz, as a 128 kbps MP3 leaves it: refused as fake lossless (record 298). */
  lossyWav: (name: string) => string;
  /** A sine driven past full scale after 5 s of silence: passes with two warnings (record 298). */
  clippedWav: (name: string) => string;
  remove: () => void;
};

export function mediaDir(): MediaDir {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-builder-e2e-'));
  const file = (name: string, body: Buffer | string) => {
    const target = path.join(dir, name);
    fs.writeFileSync(target, body);
    return target;
  };
  return {
    dir,
    file,
    async cover(name = 'cover.png', size = 3000, format = 'png') {
      const image = sharp({
        create: { width: size, height: size, channels: 3, background: { r: 40, g: 20, b: 90 } },
      });
      return file(name, await (format === 'png' ? image.png() : image.jpeg({ quality: 80 })).toBuffer());
    },
    wav: (name, seconds = 1, bitDepth = 16) => file(name, wavBytes(seconds, bitDepth)),
    lossyWav: (name) => file(name, pcmWav(lowPassed(whiteNoise(2, 44_100, 1, 0.5), 1, 44_100, 16_000), mono)),
    clippedWav: (name) => file(name, pcmWav(padded(sine(2, 44_100, 1, 100, 2), 1, 44_100, 5), mono)),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** The file input inside the upload box labelled `label` ('Cover Art' or 'Audio File (WAV)'). */
export function fileInput(page: Page, label: string): Locator {
  return page
    .locator('div', { has: page.getByText(label, { exact: true }) })
    .locator('input[type=file]')
    .first();
}

/**
 * Answers the current track's "AI use" question (issue 41, record 295): the label of the choice, and for
 * "AI-assisted" what AI helped with.
 */
export async function answerAiUse(
  page: Page,
  choice: 'No AI used' | 'AI-assisted' | 'Fully AI-generated' = 'No AI used',
  areas: string[] = [],
): Promise<void> {
  const question = page.getByRole('group', { name: 'AI use' });
  await question.getByRole('radio', { name: new RegExp(`^${choice}`) }).check();
  for (const area of areas) await question.getByRole('checkbox', { name: area }).check();
}
