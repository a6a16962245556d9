/**
 * A small RIFF/WAVE header reader. It reads chunk headers with positional reads (never the audio
 * itself), so a 2 GB file costs a few kilobytes of memory, and refuses anything the spec does not take.
 */
import fsp from 'node:fs/promises';

/**
 * Positional reads of one file (a staged upload on disk, or ranged GETs of one in a bucket): the WAV header
 * reader walks its chunks with these.
 */
export type ByteSource = {
  readonly size: number;
  /** Up to `length` bytes at `position` (fewer at the end of the file). */
  read(position: number, length: number): Promise<Buffer>;
  close(): Promise<void>;
};

/** A file on disk as a ByteSource. */
export async function openFileSource(filePath: string): Promise<ByteSource> {
  const handle = await fsp.open(filePath, 'r');
  const { size } = await handle.stat();
  return {
    size,
    async read(position, length) {
      const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - position)));
      if (buffer.length === 0) return buffer;
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      return buffer.subarray(0, bytesRead);
    },
    close: () => handle.close(),
  };
}

export type WavInfo = {
  format: 'pcm' | 'extensible-pcm';
  sampleRate: number;
  bitDepth: number;
  channels: number;
  dataBytes: number;
  /** Where the audio data starts in the file (the audio analysis reads from there). */
  dataOffset: number;
  durationMs: number;
};

export class WavError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WavError';
  }
}

export const WAV_MESSAGES = {
  notWav: 'Only WAV format is accepted: this file is not a RIFF/WAVE audio file.',
  noFormat: 'The WAV file has no format chunk.',
  notPcm: (code: number) =>
    `Only uncompressed PCM WAV files are accepted (this file uses format 0x${code.toString(16).padStart(4, '0')}).`,
  bitDepth: (bits: number) => `WAV files must be 16 or 24 bit (this file is ${bits} bit).`,
  sampleRate: (rate: number) =>
    `WAV files must have a sample rate from 44.1 kHz to 96 kHz (this file is ${rate} Hz).`,
  channels: (count: number) => `WAV files must be mono or stereo (this file has ${count} channels).`,
  inconsistent: 'The WAV header is inconsistent (block size does not match channels and bit depth).',
  noData: 'The WAV file has no audio data.',
  truncated: 'The WAV file is incomplete: its audio data is shorter than its header says.',
} as const;

const WAVE_FORMAT_PCM = 0x0001;
const WAVE_FORMAT_EXTENSIBLE = 0xfffe;
// KSDATAFORMAT_SUBTYPE_PCM after its first two bytes (which carry the format code 0x0001).
const PCM_SUBFORMAT_TAIL = Buffer.from('000000001000800000aa00389b71', 'hex');
const MAX_CHUNKS = 1000;

/**
 * Reads and checks the header of a WAV file (a path, or positional reads of a staged upload, which in
 * a bucket are ranged GETs); throws a WavError with a clear message.
 */
export async function readWavHeader(file: string | ByteSource): Promise<WavInfo> {
  const source = typeof file === 'string' ? await openFileSource(file) : file;
  try {
    const fileSize = source.size;
    const read = (position: number, length: number) => source.read(position, length);

    const riff = await read(0, 12);
    if (
      riff.length < 12 ||
      riff.toString('ascii', 0, 4) !== 'RIFF' ||
      riff.toString('ascii', 8, 12) !== 'WAVE'
    ) {
      throw new WavError(WAV_MESSAGES.notWav);
    }

    let fmt: Buffer | null = null;
    let data: { offset: number; size: number } | null = null;
    let position = 12;
    for (let count = 0; count < MAX_CHUNKS && position + 8 <= fileSize; count += 1) {
      const header = await read(position, 8);
      if (header.length < 8) break;
      const id = header.toString('ascii', 0, 4);
      const size = header.readUInt32LE(4);
      const bodyOffset = position + 8;
      if (id === 'fmt ') {
        if (size < 16) throw new WavError(WAV_MESSAGES.noFormat);
        fmt = await read(bodyOffset, Math.min(size, 64));
      } else if (id === 'data') {
        data = { offset: bodyOffset, size };
        if (fmt) break;
      }
      // Chunks are padded to an even length.
      position = bodyOffset + size + (size % 2);
    }

    if (!fmt || fmt.length < 16) throw new WavError(WAV_MESSAGES.noFormat);
    const formatCode = fmt.readUInt16LE(0);
    const channels = fmt.readUInt16LE(2);
    const sampleRate = fmt.readUInt32LE(4);
    const byteRate = fmt.readUInt32LE(8);
    const blockAlign = fmt.readUInt16LE(12);
    const bitDepth = fmt.readUInt16LE(14);

    let format: WavInfo['format'];
    if (formatCode === WAVE_FORMAT_PCM) {
      format = 'pcm';
    } else if (formatCode === WAVE_FORMAT_EXTENSIBLE) {
      const isPcm =
        fmt.length >= 40 &&
        fmt.readUInt16LE(16) >= 22 &&
        fmt.readUInt16LE(24) === WAVE_FORMAT_PCM &&
        fmt.subarray(26, 40).equals(PCM_SUBFORMAT_TAIL);
      if (!isPcm) {
        const subFormat = fmt.length >= 26 ? fmt.readUInt16LE(24) : formatCode;
        throw new WavError(WAV_MESSAGES.notPcm(subFormat));
      }
      const validBits = fmt.readUInt16LE(18);
      if (validBits !== 0 && validBits !== bitDepth) throw new WavError(WAV_MESSAGES.bitDepth(validBits));
      format = 'extensible-pcm';
    } else {
      throw new WavError(WAV_MESSAGES.notPcm(formatCode));
    }

    if (bitDepth !== 16 && bitDepth !== 24) throw new WavError(WAV_MESSAGES.bitDepth(bitDepth));
    if (sampleRate < 44_100 || sampleRate > 96_000) throw new WavError(WAV_MESSAGES.sampleRate(sampleRate));
    if (channels < 1 || channels > 2) throw new WavError(WAV_MESSAGES.channels(channels));
    const expectedAlign = channels * (bitDepth / 8);
    if (blockAlign !== expectedAlign || byteRate !== sampleRate * expectedAlign) {
      throw new WavError(WAV_MESSAGES.inconsistent);
    }

    if (!data || data.size === 0) throw new WavError(WAV_MESSAGES.noData);
    if (data.offset + data.size > fileSize) throw new WavError(WAV_MESSAGES.truncated);
    if (data.size % blockAlign !== 0) throw new WavError(WAV_MESSAGES.truncated);

    return {
      format,
      sampleRate,
      bitDepth,
      channels,
      dataBytes: data.size,
      dataOffset: data.offset,
      durationMs: Math.round((data.size / (sampleRate * blockAlign)) * 1000),
    };
  } finally {
    // A source handed in stays open: its owner closes it.
    if (typeof file === 'string') await source.close();
  }
}
