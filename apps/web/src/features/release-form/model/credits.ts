/** New, empty credit rows for the credits editor (a songwriter starts as music and lyrics). */
import type { PersonDraft, SongwriterDraft } from '@tunedrop/shared/schemas/builder';

export function emptySongwriter(): SongwriterDraft {
  return { id: crypto.randomUUID(), firstName: '', middleName: '', lastName: '', role: 'music_and_lyrics' };
}

export function emptyProducer(): PersonDraft {
  return { id: crypto.randomUUID(), firstName: '', middleName: '', lastName: '' };
}
