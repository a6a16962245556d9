/**
 * Audio pre-flight checks (issue 41, record 298): what the server's analysis of an uploaded WAV found, and
 * the checks it fails, each with a plain reason and a way to fix it. Fake lossless is a refusal (the upload
 * is rejected with its reason); clipping and silence at the start or end are warnings the builder shows
 * beside the track and review shows again.
 */

/** What the server measured on a WAV's samples (`modules/catalogue/audio-analysis.ts`). */
export type AudioAnalysis = {
  /** The highest frequency with meaningful energy (Hz; the Nyquist frequency for a full-band file). */
  cutoffHz: number;
  /** How far the level falls just above the cut-off (dB): a lossy encoder's low-pass is a cliff. */
  cutoffDropDb: number;
  /** Runs of at least `clipRunSamples` consecutive full-scale samples in one channel. */
  clippedRuns: number;
  leadingSilenceMs: number;
  trailingSilenceMs: number;
};

/** The thresholds and their reasons are in record 298. */
export const AUDIO_CHECK_LIMITS = {
  /** Below this cut-off a file was a lossy encode (LAME's low-pass is 17 kHz at 128 kbps, 17.5 kHz at 160). */
  fakeLosslessCutoffHz: 17_500,
  /** ...and only when the spectrum falls off a cliff there, not in a natural roll-off. */
  fakeLosslessDropDb: 25,
  /** Audacity's "Find Clipping" default: 3 consecutive samples at full scale. */
  clipRunSamples: 3,
  /** -60 dBFS, as a fraction of full scale. */
  silenceLevel: 0.001,
  /** Silence longer than this at the start or end is reported. */
  silenceMaxMs: 2_000,
} as const;

export const AUDIO_CHECK_CODES = [
  'fake_lossless',
  'clipping',
  'leading_silence',
  'trailing_silence',
] as const;
export type AudioCheckCode = (typeof AUDIO_CHECK_CODES)[number];

export type AudioCheck = {
  code: AudioCheckCode;
  /** A refusal rejects the file; a warning lets the artist go on. */
  severity: 'refusal' | 'warning';
  /** What was found, in one plain sentence. */
  reason: string;
  /** What to do about it. */
  fix: string;
};

const seconds = (ms: number) => `${(Math.round(ms / 100) / 10).toLocaleString('en-US')} s`;
const kilohertz = (hz: number) => `${(Math.round(hz / 100) / 10).toLocaleString('en-US')} kHz`;

export const AUDIO_CHECK_TEXTS = {
  fakeLossless: (analysis: AudioAnalysis) => ({
    reason: `This WAV looks like a lossy file (such as an MP3) saved as WAV: its sound stops abruptly at ${kilohertz(analysis.cutoffHz)}, where a lossless master goes up to about 20 kHz. Stores refuse files converted from lossy formats.`,
    fix: 'Export the WAV again from your original project or lossless master, not from an MP3, AAC or streaming copy.',
  }),
  clipping: (analysis: AudioAnalysis) => ({
    reason: `The audio clips: it stays flat at full scale in ${analysis.clippedRuns.toLocaleString('en-US')} ${analysis.clippedRuns === 1 ? 'place' : 'places'}, which sounds like distortion.`,
    fix: 'Lower the level before your limiter or export with a ceiling below 0 dBFS (for example -1 dBFS), then upload the new WAV. Keep this file if the distortion is intended.',
  }),
  leadingSilence: (analysis: AudioAnalysis) => ({
    reason: `The track starts with ${seconds(analysis.leadingSilenceMs)} of silence.`,
    fix: 'Trim the silence at the start and upload the new WAV, or keep this file if the silence is intended.',
  }),
  trailingSilence: (analysis: AudioAnalysis) => ({
    reason: `The track ends with ${seconds(analysis.trailingSilenceMs)} of silence.`,
    fix: 'Trim the silence at the end and upload the new WAV, or keep this file if the silence is intended.',
  }),
};

/** The checks an analysis fails, refusals first. */
export function audioChecks(analysis: AudioAnalysis): AudioCheck[] {
  const checks: AudioCheck[] = [];
  if (isFakeLossless(analysis)) {
    checks.push({ code: 'fake_lossless', severity: 'refusal', ...AUDIO_CHECK_TEXTS.fakeLossless(analysis) });
  }
  if (analysis.clippedRuns > 0) {
    checks.push({ code: 'clipping', severity: 'warning', ...AUDIO_CHECK_TEXTS.clipping(analysis) });
  }
  if (analysis.leadingSilenceMs > AUDIO_CHECK_LIMITS.silenceMaxMs) {
    checks.push({
      code: 'leading_silence',
      severity: 'warning',
      ...AUDIO_CHECK_TEXTS.leadingSilence(analysis),
    });
  }
  if (analysis.trailingSilenceMs > AUDIO_CHECK_LIMITS.silenceMaxMs) {
    checks.push({
      code: 'trailing_silence',
      severity: 'warning',
      ...AUDIO_CHECK_TEXTS.trailingSilence(analysis),
    });
  }
  return checks;
}

export function isFakeLossless(analysis: AudioAnalysis): boolean {
  return (
    analysis.cutoffHz < AUDIO_CHECK_LIMITS.fakeLosslessCutoffHz &&
    analysis.cutoffDropDb >= AUDIO_CHECK_LIMITS.fakeLosslessDropDb
  );
}

const ANALYSIS_KEYS = [
  'cutoffHz',
  'cutoffDropDb',
  'clippedRuns',
  'leadingSilenceMs',
  'trailingSilenceMs',
] as const satisfies readonly (keyof AudioAnalysis)[];

/** The analysis kept in an upload's details (null for a file checked before the analysis existed). */
export function audioAnalysisOf(details: Record<string, unknown> | null | undefined): AudioAnalysis | null {
  if (!details) return null;
  const values = ANALYSIS_KEYS.map((key) => details[key]);
  if (!values.every((value) => typeof value === 'number' && Number.isFinite(value))) return null;
  return Object.fromEntries(ANALYSIS_KEYS.map((key) => [key, details[key]])) as AudioAnalysis;
}
