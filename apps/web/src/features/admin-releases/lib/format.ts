/** Display helpers for review cards. */
import { PLATFORMS } from '@tunedrop/shared';

export function formatDuration(ms: number | null): string {
  if (!ms || ms <= 0) return '—';
  const total = Math.round(ms / 1000);
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function formatChannels(channels: number | null): string {
  if (channels === 1) return 'Mono';
  if (channels === 2) return 'Stereo';
  return channels ? `${channels} channels` : '—';
}

export function formatSampleRate(rate: number | null): string {
  return rate ? `${(rate / 1000).toLocaleString('en-US', { maximumFractionDigits: 1 })} kHz` : '—';
}

const platformNames = new Map<string, string>(PLATFORMS.map((platform) => [platform.id, platform.name]));
export const platformName = (id: string) => platformNames.get(id) ?? id;

export const SONGWRITER_ROLE_LABELS: Record<string, string> = {
  music: 'Music',
  lyrics: 'Lyrics',
  music_and_lyrics: 'Music & Lyrics',
};

export const personName = (person: { firstName: string; middleName: string | null; lastName: string }) =>
  [person.firstName, person.middleName, person.lastName].filter(Boolean).join(' ');
