/** Display helpers for review cards. */
export { formatBytes, formatDuration, personName } from '../../../lib/format';

export function formatChannels(channels: number | null): string {
  if (channels === 1) return 'Mono';
  if (channels === 2) return 'Stereo';
  return channels ? `${channels} channels` : '—';
}

export function formatSampleRate(rate: number | null): string {
  return rate ? `${(rate / 1000).toLocaleString('en-US', { maximumFractionDigits: 1 })} kHz` : '—';
}
