/**
 * The audio pre-flight analysis of a checked WAV (issue 41, record 298): one pass over its samples, read
 * 2-3 MiB at a time (bounded memory; a file on disk, or ranged reads of one in a bucket) and measured in
 * blocks of 32,768 frames (at most 192 KB), measuring the
 * spectral cut-off (fake lossless), runs of full-scale samples (clipping) and silence at the start and end.
 * The event loop is given back between blocks, so other requests are served while a file is analysed.
 */
import { setImmediate } from 'node:timers/promises';
import { AUDIO_CHECK_LIMITS, type AudioAnalysis } from '@tunedrop/shared/schemas/audio-checks';
import { type ByteSource, readWavHeader, type WavInfo } from './wav';

const FFT_SIZE = 4096;
/** Spectrum windows taken per block (a block is 32,768 frames: about 0.74 s at 44.1 kHz). */
const WINDOWS_PER_BLOCK = 1;
const FRAMES_PER_BLOCK = 32_768;
/** Frames fetched per read (2 MiB at 16-bit stereo): few ranged GETs from a bucket, memory still bounded. */
const READ_FRAMES = FRAMES_PER_BLOCK * 16;
/** The cut-off is read from the spectrum in bands this wide. */
const BAND_HZ = 200;
/** A band is "meaningful" within this many dB of the music's level between 1 and 10 kHz. */
const MEANINGFUL_DB = 60;

/** Reads and checks a WAV's header (throws WavError), then analyses its samples. */
export async function readAndAnalyse(source: ByteSource): Promise<{ wav: WavInfo; analysis: AudioAnalysis }> {
  const wav = await readWavHeader(source);
  return { wav, analysis: await analyseWav(source, wav) };
}

/** Analyses the PCM of a WAV whose header `readWavHeader` accepted. */
export async function analyseWav(source: ByteSource, wav: WavInfo): Promise<AudioAnalysis> {
  const { channels, bitDepth, sampleRate } = wav;
  const bytesPerSample = bitDepth / 8;
  const blockAlign = channels * bytesPerSample;
  const totalFrames = wav.dataBytes / blockAlign;
  const fullScale = bitDepth === 16 ? 32_767 : 8_388_607;
  const silenceLevel = Math.ceil(fullScale * AUDIO_CHECK_LIMITS.silenceLevel);

  const spectrum = new SpectrumAverager(FFT_SIZE);
  const runs = new Int32Array(channels);
  let clippedRuns = 0;
  let firstSound = -1;
  let lastSound = -1;
  const mono = new Float64Array(FFT_SIZE);
  const wide = bitDepth === 24 ? new Int32Array(FRAMES_PER_BLOCK * channels) : null;

  const readBlock = readAhead(source, wav.dataOffset + wav.dataBytes, READ_FRAMES * blockAlign);
  for (let startFrame = 0; startFrame < totalFrames; startFrame += FRAMES_PER_BLOCK) {
    const frames = Math.min(FRAMES_PER_BLOCK, totalFrames - startFrame);
    const bytes = await readBlock(wav.dataOffset + startFrame * blockAlign, frames * blockAlign);
    const count = Math.floor(bytes.length / blockAlign) * channels;
    const samples = wide ? decode24(bytes, count, wide) : int16s(bytes, count);

    // Per channel, a run of full-scale samples is counted once when it reaches clipRunSamples.
    for (let c = 0; c < channels; c += 1) {
      let run = runs[c] as number;
      for (let i = c; i < count; i += channels) {
        const value = samples[i] as number;
        if (value >= fullScale || value <= -fullScale) {
          run += 1;
          if (run === AUDIO_CHECK_LIMITS.clipRunSamples) clippedRuns += 1;
        } else {
          run = 0;
        }
      }
      runs[c] = run;
    }
    // Silence: the first sound is looked for until found, the last from each block's end backwards.
    if (firstSound < 0) {
      for (let i = 0; i < count; i += 1) {
        const value = samples[i] as number;
        if (value > silenceLevel || value < -silenceLevel) {
          firstSound = startFrame + Math.floor(i / channels);
          break;
        }
      }
    }
    for (let i = count - 1; i >= 0; i -= 1) {
      const value = samples[i] as number;
      if (value > silenceLevel || value < -silenceLevel) {
        lastSound = startFrame + Math.floor(i / channels);
        break;
      }
    }

    const blockFrames = count / channels;
    for (let w = 0; w < WINDOWS_PER_BLOCK; w += 1) {
      const offset = Math.floor(((w + 0.5) * blockFrames) / WINDOWS_PER_BLOCK - FFT_SIZE / 2);
      if (offset < 0 || offset + FFT_SIZE > blockFrames) continue;
      for (let n = 0; n < FFT_SIZE; n += 1) {
        let sum = 0;
        for (let c = 0; c < channels; c += 1) sum += samples[(offset + n) * channels + c] as number;
        mono[n] = sum / channels / (fullScale + 1);
      }
      spectrum.add(mono);
    }
  }

  const msOf = (frames: number) => Math.round((frames / sampleRate) * 1000);
  const { cutoffHz, cutoffDropDb } = spectrum.cutoff(sampleRate);
  return {
    cutoffHz,
    cutoffDropDb,
    clippedRuns,
    leadingSilenceMs: msOf(firstSound < 0 ? totalFrames : firstSound),
    trailingSilenceMs: msOf(firstSound < 0 ? totalFrames : totalFrames - 1 - lastSound),
  };
}

/**
 * Sequential reads of `readBytes` at a time handed out in blocks; between two blocks of one read the event
 * loop is given back (setImmediate), as an awaited read gives it back.
 */
function readAhead(source: ByteSource, end: number, readBytes: number) {
  let buffered: { start: number; data: Buffer } | null = null;
  return async (position: number, length: number): Promise<Buffer> => {
    if (!buffered || position < buffered.start || position + length > buffered.start + buffered.data.length) {
      const size = Math.min(Math.max(length, readBytes), end - position);
      buffered = { start: position, data: await source.read(position, size) };
    } else {
      await setImmediate();
    }
    const from = position - buffered.start;
    return buffered.data.subarray(from, from + length);
  };
}

/** 16-bit samples as a view of the bytes (Node runs little-endian), copied once when the bytes are unaligned. */
function int16s(bytes: Buffer, count: number): Int16Array {
  if (bytes.byteOffset % 2 === 0) return new Int16Array(bytes.buffer, bytes.byteOffset, count);
  return new Int16Array(Uint8Array.from(bytes.subarray(0, count * 2)).buffer);
}

/** Little-endian signed 24-bit samples into `out`. */
function decode24(bytes: Buffer, count: number, out: Int32Array): Int32Array {
  for (let i = 0, p = 0; i < count; i += 1, p += 3) {
    const value = (bytes[p] as number) | ((bytes[p + 1] as number) << 8) | ((bytes[p + 2] as number) << 16);
    out[i] = value & 0x800000 ? value - 0x1000000 : value;
  }
  return out;
}

/** The mean power spectrum of Hann-windowed frames, skipping silent ones. */
class SpectrumAverager {
  private readonly power: Float64Array;
  private readonly re: Float64Array;
  private readonly im: Float64Array;
  private readonly hann: Float64Array;
  private readonly fft: (re: Float64Array, im: Float64Array) => void;
  private frames = 0;

  constructor(private readonly size: number) {
    this.power = new Float64Array(size / 2);
    this.re = new Float64Array(size);
    this.im = new Float64Array(size);
    this.hann = Float64Array.from({ length: size }, (_, n) => 0.5 - 0.5 * Math.cos((2 * Math.PI * n) / size));
    this.fft = radix2Fft(size);
  }

  add(frame: Float64Array): void {
    let energy = 0;
    for (let n = 0; n < this.size; n += 1) {
      const value = frame[n] as number;
      energy += value * value;
      this.re[n] = value * (this.hann[n] as number);
      this.im[n] = 0;
    }
    // Below -60 dBFS RMS: silence tells nothing about the encoder.
    if (energy / this.size < AUDIO_CHECK_LIMITS.silenceLevel ** 2) return;
    this.fft(this.re, this.im);
    for (let k = 0; k < this.size / 2; k += 1) {
      const re = this.re[k] as number;
      const im = this.im[k] as number;
      this.power[k] = (this.power[k] as number) + re * re + im * im;
    }
    this.frames += 1;
  }

  /**
   * The upper edge of the highest band within MEANINGFUL_DB of the level between 1 and 10 kHz, and how far
   * the level falls from the kilohertz below that edge to the kilohertz above it.
   */
  cutoff(sampleRate: number): { cutoffHz: number; cutoffDropDb: number } {
    const nyquist = sampleRate / 2;
    if (this.frames === 0) return { cutoffHz: nyquist, cutoffDropDb: 0 };
    const binHz = sampleRate / this.size;
    const perBand = Math.max(1, Math.round(BAND_HZ / binHz));
    const levels: number[] = [];
    for (let start = 1; start + perBand <= this.size / 2; start += perBand) {
      let sum = 0;
      for (let k = start; k < start + perBand; k += 1) sum += this.power[k] as number;
      levels.push(10 * Math.log10(sum / perBand / this.frames + 1e-30));
    }
    const bandHz = perBand * binHz;
    const edge = (band: number) => binHz + (band + 1) * bandHz;
    const inRange = levels.filter((_, band) => edge(band) > 1_000 && edge(band) <= 10_000);
    const reference = inRange.reduce((sum, level) => sum + level, 0) / Math.max(1, inRange.length);
    let top = levels.length - 1;
    while (top > 0 && (levels[top] as number) < reference - MEANINGFUL_DB) top -= 1;
    const span = Math.max(1, Math.round(1_000 / bandHz));
    const mean = (from: number, to: number) => {
      const slice = levels.slice(Math.max(0, from), Math.min(levels.length, to));
      return slice.length === 0 ? Number.NaN : slice.reduce((sum, level) => sum + level, 0) / slice.length;
    };
    const drop = mean(top - span + 1, top + 1) - mean(top + 1, top + 1 + span);
    const cutoffHz = top === levels.length - 1 ? nyquist : Math.round(edge(top) / 10) * 10;
    return { cutoffHz, cutoffDropDb: Number.isFinite(drop) ? Math.round(drop) : 0 };
  }
}

/** An in-place iterative radix-2 FFT of `size` points (a power of two), its tables computed once. */
export function radix2Fft(size: number): (re: Float64Array, im: Float64Array) => void {
  const bits = Math.log2(size);
  if (!Number.isInteger(bits)) throw new Error('FFT size must be a power of two');
  const reversed = new Uint32Array(size);
  for (let i = 0; i < size; i += 1) {
    let r = 0;
    for (let b = 0; b < bits; b += 1) r |= ((i >> b) & 1) << (bits - 1 - b);
    reversed[i] = r;
  }
  const cos = Float64Array.from({ length: size / 2 }, (_, k) => Math.cos((-2 * Math.PI * k) / size));
  const sin = Float64Array.from({ length: size / 2 }, (_, k) => Math.sin((-2 * Math.PI * k) / size));
  return (re, im) => {
    for (let i = 0; i < size; i += 1) {
      const j = reversed[i] as number;
      if (j > i) {
        const tr = re[i] as number;
        re[i] = re[j] as number;
        re[j] = tr;
        const ti = im[i] as number;
        im[i] = im[j] as number;
        im[j] = ti;
      }
    }
    for (let half = 1; half < size; half *= 2) {
      const step = size / (half * 2);
      for (let start = 0; start < size; start += half * 2) {
        for (let k = 0; k < half; k += 1) {
          const wr = cos[k * step] as number;
          const wi = sin[k * step] as number;
          const a = start + k;
          const b = a + half;
          const xr = (re[b] as number) * wr - (im[b] as number) * wi;
          const xi = (re[b] as number) * wi + (im[b] as number) * wr;
          re[b] = (re[a] as number) - xr;
          im[b] = (im[a] as number) - xi;
          re[a] = (re[a] as number) + xr;
          im[a] = (im[a] as number) + xi;
        }
      }
    }
  };
}
