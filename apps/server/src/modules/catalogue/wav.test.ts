import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chunk, makeExtensibleWav, riff } from '../../test-support/builder-fixtures';
import { makeWav } from '../../test-support/media';
import { readWavHeader, WAV_MESSAGES } from './wav';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wav-test-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let counter = 0;
function write(body: Buffer | string): string {
  counter += 1;
  const file = path.join(dir, `file-${counter}.wav`);
  fs.writeFileSync(file, body);
  return file;
}

const fmtChunk = (fields: {
  format?: number;
  channels?: number;
  rate?: number;
  bits?: number;
  align?: number;
  byteRate?: number;
}) => {
  const channels = fields.channels ?? 2;
  const bits = fields.bits ?? 16;
  const rate = fields.rate ?? 44_100;
  const align = fields.align ?? channels * (bits / 8);
  const body = Buffer.alloc(16);
  body.writeUInt16LE(fields.format ?? 1, 0);
  body.writeUInt16LE(channels, 2);
  body.writeUInt32LE(rate, 4);
  body.writeUInt32LE(fields.byteRate ?? rate * align, 8);
  body.writeUInt16LE(align, 12);
  body.writeUInt16LE(bits, 14);
  return chunk('fmt ', body);
};

describe('readWavHeader', () => {
  it('reads a 16-bit stereo 44.1 kHz file: format, rate, depth, channels, duration', async () => {
    const info = await readWavHeader(
      write(makeWav({ seconds: 1.5, sampleRate: 44_100, bitDepth: 16, channels: 2 })),
    );
    expect(info).toEqual({
      format: 'pcm',
      sampleRate: 44_100,
      bitDepth: 16,
      channels: 2,
      dataBytes: 66_150 * 4,
      dataOffset: 44,
      durationMs: 1500,
    });
  });

  it('reads a 24-bit mono 96 kHz file', async () => {
    const info = await readWavHeader(
      write(makeWav({ seconds: 0.25, sampleRate: 96_000, bitDepth: 24, channels: 1 })),
    );
    expect(info).toMatchObject({ sampleRate: 96_000, bitDepth: 24, channels: 1, durationMs: 250 });
  });

  it('accepts WAVE_FORMAT_EXTENSIBLE with the PCM sub-format', async () => {
    const info = await readWavHeader(
      write(makeExtensibleWav({ seconds: 0.1, sampleRate: 48_000, bitDepth: 24, channels: 2 })),
    );
    expect(info).toMatchObject({
      format: 'extensible-pcm',
      sampleRate: 48_000,
      bitDepth: 24,
      durationMs: 100,
    });
  });

  it('skips other chunks, including odd-sized ones with their pad byte, and finds fmt after data', async () => {
    const data = makeWav({ seconds: 0.1, sampleRate: 44_100, bitDepth: 16, channels: 1 }).subarray(44);
    const file = riff([
      chunk('LIST', Buffer.from('INFOabc')),
      chunk('data', data),
      fmtChunk({ channels: 1 }),
    ]);
    expect(await readWavHeader(write(file))).toMatchObject({ channels: 1, durationMs: 100 });
  });

  it('refuses an 8-bit WAV', async () => {
    const file = write(makeWav({ seconds: 0.1, sampleRate: 44_100, bitDepth: 8, channels: 2 }));
    await expect(readWavHeader(file)).rejects.toThrow(WAV_MESSAGES.bitDepth(8));
  });

  it('refuses a 32-bit WAV', async () => {
    const file = write(makeWav({ seconds: 0.1, sampleRate: 44_100, bitDepth: 32, channels: 2 }));
    await expect(readWavHeader(file)).rejects.toThrow(
      'WAV files must be 16 or 24 bit (this file is 32 bit).',
    );
  });

  it('refuses a text file named .wav', async () => {
    await expect(readWavHeader(write('just some text, not audio at all'))).rejects.toThrow(
      WAV_MESSAGES.notWav,
    );
  });

  it('refuses a file shorter than a RIFF header', async () => {
    await expect(readWavHeader(write('RIFF'))).rejects.toThrow(WAV_MESSAGES.notWav);
  });

  it('refuses IEEE float (format 3) and extensible float', async () => {
    const float = riff([fmtChunk({ format: 3, bits: 32 }), chunk('data', Buffer.alloc(800))]);
    await expect(readWavHeader(write(float))).rejects.toThrow(
      'Only uncompressed PCM WAV files are accepted (this file uses format 0x0003).',
    );
    const extensibleFloat = makeExtensibleWav({
      seconds: 0.1,
      sampleRate: 48_000,
      bitDepth: 32,
      channels: 2,
      subFormat: 3,
    });
    await expect(readWavHeader(write(extensibleFloat))).rejects.toThrow(WAV_MESSAGES.notPcm(3));
  });

  it('refuses sample rates below 44.1 kHz and above 96 kHz', async () => {
    await expect(
      readWavHeader(write(makeWav({ seconds: 0.1, sampleRate: 22_050, bitDepth: 16, channels: 2 }))),
    ).rejects.toThrow('WAV files must have a sample rate from 44.1 kHz to 96 kHz (this file is 22050 Hz).');
    await expect(
      readWavHeader(write(makeWav({ seconds: 0.01, sampleRate: 192_000, bitDepth: 24, channels: 2 }))),
    ).rejects.toThrow(WAV_MESSAGES.sampleRate(192_000));
  });

  it('refuses more than two channels', async () => {
    const file = write(makeWav({ seconds: 0.1, sampleRate: 48_000, bitDepth: 16, channels: 6 }));
    await expect(readWavHeader(file)).rejects.toThrow(
      'WAV files must be mono or stereo (this file has 6 channels).',
    );
  });

  it('refuses a header whose block size does not fit its channels and bit depth', async () => {
    const file = riff([fmtChunk({ align: 3 }), chunk('data', Buffer.alloc(300))]);
    await expect(readWavHeader(write(file))).rejects.toThrow(WAV_MESSAGES.inconsistent);
  });

  it('refuses a file without a format chunk or without audio data', async () => {
    await expect(readWavHeader(write(riff([chunk('data', Buffer.alloc(400))])))).rejects.toThrow(
      WAV_MESSAGES.noFormat,
    );
    await expect(readWavHeader(write(riff([fmtChunk({})])))).rejects.toThrow(WAV_MESSAGES.noData);
    await expect(readWavHeader(write(riff([fmtChunk({}), chunk('data', Buffer.alloc(0))])))).rejects.toThrow(
      WAV_MESSAGES.noData,
    );
  });

  it('refuses a truncated file whose data chunk claims more bytes than it has', async () => {
    const whole = makeWav({ seconds: 0.5, sampleRate: 44_100, bitDepth: 16, channels: 2 });
    await expect(readWavHeader(write(whole.subarray(0, whole.length - 1000)))).rejects.toThrow(
      WAV_MESSAGES.truncated,
    );
  });

  it('refuses a data chunk that is not a whole number of frames', async () => {
    const file = riff([fmtChunk({}), chunk('data', Buffer.alloc(402))]);
    await expect(readWavHeader(write(file))).rejects.toThrow(WAV_MESSAGES.truncated);
  });
});
