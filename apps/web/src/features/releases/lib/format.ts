/** Display helpers of the release pages. */
import type { SongwriterRole } from '@tunedrop/shared';

export { formatDate, formatDateTime } from '../../../lib/format';

export function formatDuration(ms: number | null): string {
  if (!ms || ms <= 0) return '—';
  const total = Math.round(ms / 1000);
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

export const SONGWRITER_ROLE_LABELS: Record<SongwriterRole, string> = {
  music: 'Music',
  lyrics: 'Lyrics',
  music_and_lyrics: 'Music & Lyrics',
};

export const personName = (person: { firstName: string; middleName: string | null; lastName: string }) =>
  [person.firstName, person.middleName, person.lastName].filter(Boolean).join(' ');
