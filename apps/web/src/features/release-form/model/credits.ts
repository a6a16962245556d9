/** New, empty credit rows for the credits editor (a songwriter starts as music and lyrics), and their errors. */
import type { PersonDraft, SongwriterDraft } from '@tunedrop/shared/schemas/builder';

export function emptySongwriter(): SongwriterDraft {
  return { id: crypto.randomUUID(), firstName: '', middleName: '', lastName: '', role: 'music_and_lyrics' };
}

export function emptyProducer(): PersonDraft {
  return { id: crypto.randomUUID(), firstName: '', middleName: '', lastName: '' };
}

/**
 * The errors under `prefix.` with the prefix taken off (`songwriters.0.firstName` -> `0.firstName`), for
 * the credits editor's `fieldErrors` in the builder and on Edit Release.
 */
export function nestedErrors(errors: Record<string, string>, prefix: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, message] of Object.entries(errors)) {
    if (key.startsWith(`${prefix}.`)) result[key.slice(prefix.length + 1)] = message;
  }
  return result;
}
