/** Display helpers of the release pages. */
import type { SongwriterRole } from '@tunedrop/shared';

export { formatDate, formatDateTime, formatDuration } from '../../../lib/format';

export const SONGWRITER_ROLE_LABELS: Record<SongwriterRole, string> = {
  music: 'Music',
  lyrics: 'Lyrics',
  music_and_lyrics: 'Music & Lyrics',
};

export const personName = (person: { firstName: string; middleName: string | null; lastName: string }) =>
  [person.firstName, person.middleName, person.lastName].filter(Boolean).join(' ');
