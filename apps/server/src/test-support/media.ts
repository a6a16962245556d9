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

/** A 16- or 24-bit PCM WAV of the given samples (-1..1, interleaved by channel), clamped to full scale. */
export function pcmWav(
  samples: Float64Array,
  { sampleRate, channels, bitDepth }: { sampleRate: number; channels: number; bitDepth: 16 | 24 },
): Buffer {
  const bytesPerSample = bitDepth / 8;
  const dataSize = samples.length * bytesPerSample;
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
  for (let i = 0; i < samples.length; i += 1) {
    const value = Math.max(-max - 1, Math.min(max, Math.round((samples[i] as number) * max)));
    buffer.writeIntLE(value, 44 + i * bytesPerSample, bytesPerSample);
  }
  return buffer;
}

/** A repeatable pseudo-random generator (mulberry32), so a noise fixture is the same on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Full-band white noise at `level` (peak, -1..1), interleaved for `channels`. */
export function whiteNoise(seconds: number, sampleRate: number, channels: number, level = 0.3, seed = 1) {
  const next = random(seed);
  const samples = new Float64Array(Math.round(seconds * sampleRate) * channels);
  for (let i = 0; i < samples.length; i += 1) samples[i] = (next() * 2 - 1) * level;
  return samples;
}

/**
 * The samples through a windowed-sinc low-pass at `cutoffHz` (Blackman window, 511 taps: a cliff of
 * about 70 dB within 500 Hz, as a lossy encoder's low-pass leaves it).
 */
export function lowPassed(samples: Float64Array, channels: number, sampleRate: number, cutoffHz: number) {
  const taps = 511;
  const middle = (taps - 1) / 2;
  const fc = cutoffHz / sampleRate;
  const kernel = new Float64Array(taps);
  let sum = 0;
  for (let n = 0; n < taps; n += 1) {
    const x = n - middle;
    const sinc = x === 0 ? 2 * fc : Math.sin(2 * Math.PI * fc * x) / (Math.PI * x);
    const blackman =
      0.42 - 0.5 * Math.cos((2 * Math.PI * n) / (taps - 1)) + 0.08 * Math.cos((4 * Math.PI * n) / (taps - 1));
    kernel[n] = sinc * blackman;
    sum += kernel[n] as number;
  }
  const frames = samples.length / channels;
  const out = new Float64Array(samples.length);
  for (let c = 0; c < channels; c += 1) {
    for (let f = 0; f < frames; f += 1) {
      let acc = 0;
      const from = Math.max(0, f - middle);
      const to = Math.min(frames - 1, f + middle);
      for (let g = from; g <= to; g += 1)
        acc += (samples[g * channels + c] as number) * (kernel[g - f + middle] as number);
      out[f * channels + c] = acc / sum;
    }
  }
  return out;
}

/** A sine at `hz` and `level` (peak; above 1 it is clipped at full scale), interleaved for `channels`. */
export function sine(seconds: number, sampleRate: number, channels: number, hz: number, level: number) {
  const frames = Math.round(seconds * sampleRate);
  const samples = new Float64Array(frames * channels);
  for (let f = 0; f < frames; f += 1) {
    const value = Math.max(-1, Math.min(1, Math.sin((2 * Math.PI * hz * f) / sampleRate) * level));
    for (let c = 0; c < channels; c += 1) samples[f * channels + c] = value;
  }
  return samples;
}

/** `before` seconds of digital silence, then the samples, then `after` seconds of silence. */
export function padded(
  samples: Float64Array,
  channels: number,
  sampleRate: number,
  before: number,
  after = 0,
) {
  const head = Math.round(before * sampleRate) * channels;
  const out = new Float64Array(head + samples.length + Math.round(after * sampleRate) * channels);
  out.set(samples, head);
  return out;
}
