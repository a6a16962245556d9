/** Display helpers for review cards. */
export { formatBytes, formatDuration } from '../../../lib/format';

export function formatChannels(channels: number | null): string {
  if (channels === 1) return 'Mono';
  if (channels === 2) return 'Stereo';
  return channels ? `${channels} channels` : '—';
}

export function formatSampleRate(rate: number | null): string {
  return rate ? `${(rate / 1000).toLocaleString('en-US', { maximumFractionDigits: 1 })} kHz` : '—';
}

export const SONGWRITER_ROLE_LABELS: Record<string, string> = {
  music: 'Music',
  lyrics: 'Lyrics',
  music_and_lyrics: 'Music & Lyrics',
};

export const personName = (person: { firstName: string; middleName: string | null; lastName: string }) =>
  [person.firstName, person.middleName, person.lastName].filter(Boolean).join(' ');
