/** Small media files made in code for tests: WAVs of any format, and PNG/JPEG images through sharp. */

export type WavOptions = {
  seconds: number;
  sampleRate: number;
  bitDepth: 8 | 16 | 24 | 32;
  channels: number;
  format?: number;
};

/** A RIFF/WAVE file with a 440 Hz tone. */
export function makeWav({ seconds, sampleRate, bitDepth, channels, format = 1 }: WavOptions): Buffer {
  const bytesPerSample = bitDepth / 8;
  const frames = Math.round(seconds * sampleRate);
  const dataSize = frames * channels * bytesPerSample;
  const buffer = Buffer.alloc(44 + dataSize);
  buffer.write('RIFF', 0, 'ascii');
  buffer.writeUInt32LE(36 + dataSize, 4);
  buffer.write('WAVE', 8, 'ascii');
  buffer.write('fmt ', 12, 'ascii');
  buffer.writeUInt32LE(16, 16);
  buffer.writeUInt16LE(format, 20);
  buffer.writeUInt16LE(channels, 22);
  buffer.writeUInt32LE(sampleRate, 24);
  buffer.writeUInt32LE(sampleRate * channels * bytesPerSample, 28);
  buffer.writeUInt16LE(channels * bytesPerSample, 32);
  buffer.writeUInt16LE(bitDepth, 34);
  buffer.write('data', 36, 'ascii');
  buffer.writeUInt32LE(dataSize, 40);
  let offset = 44;
  const max = 2 ** (bitDepth - 1) - 1;
  for (let frame = 0; frame < frames; frame += 1) {
    const value = Math.round(Math.sin((2 * Math.PI * 440 * frame) / sampleRate) * max * 0.3);
    for (let channel = 0; channel < channels; channel += 1) {
      if (bitDepth === 8) buffer.writeUInt8(value + 128, offset);
      else buffer.writeIntLE(value, offset, bytesPerSample);
      offset += bytesPerSample;
    }
  }
  return buffer;
}

export async function makeImage(options: {
  width: number;
  height: number;
  format: 'png' | 'jpeg';
}): Promise<Buffer> {
  const sharp = (await import('sharp')).default;
  const image = sharp({
    create: {
      width: options.width,
      height: options.height,
      channels: 3,
      background: { r: 124, g: 58, b: 237 },
    },
  });
  return options.format === 'png'
    ? image.png({ compressionLevel: 9 }).toBuffer()
    : image.jpeg({ quality: 80 }).toBuffer();
}
