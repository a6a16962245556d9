/** Where each file of the wizard stands right now (the cover slot and one slot per track). */
import { type AudioAnalysis, audioAnalysisOf } from '@tunedrop/shared/schemas/audio-checks';
import type { BuilderDraft, DraftAnswer, FileRef, FileState } from '@tunedrop/shared/schemas/builder';
import { coverThumbnailUrl } from '../api/uploads';

export const COVER_SLOT = 'cover';

export type SlotState =
  | { phase: 'uploading'; fileName: string; sizeBytes: number; sentBytes: number; previewUrl?: string }
  | {
      phase: 'checked';
      fileName: string;
      sizeBytes: number;
      previewUrl?: string;
      /** What the server's audio analysis found (record 298): its warnings show beside the file. */
      audioAnalysis?: AudioAnalysis | null;
    }
  | { phase: 'failed'; fileName: string; sizeBytes: number; message: string }
  /** Stopped part way (a reload or a lost connection): picking the same file again resumes it. */
  | { phase: 'interrupted'; fileName: string; sizeBytes: number; receivedBytes: number };

export type Slots = Record<string, SlotState>;

export function fileStateOf(slot: SlotState | undefined): FileState {
  if (!slot) return 'none';
  if (slot.phase === 'checked') return 'checked';
  if (slot.phase === 'uploading') return 'uploading';
  return 'none';
}

const LOST_MESSAGE = 'This file is no longer on the server. Please upload it again.';

/**
 * The slots a loaded draft starts with, from what the server knows of its uploads; refs to files
 * the server refused or lost are dropped from the draft (the slot keeps the reason).
 */
export function restoreSlots(
  answer: DraftAnswer,
  draft: BuilderDraft,
): { draft: BuilderDraft; slots: Slots } {
  const slots: Slots = {};
  const keep = (slotKey: string, ref: FileRef | null, kind: 'cover' | 'audio'): FileRef | null => {
    if (!ref) return null;
    const info = answer.uploads[ref.uploadId];
    const base = { fileName: ref.name, sizeBytes: ref.sizeBytes };
    if (info?.status === 'checked') {
      slots[slotKey] = {
        phase: 'checked',
        ...base,
        ...(kind === 'cover'
          ? { previewUrl: coverThumbnailUrl(ref.uploadId) }
          : { audioAnalysis: audioAnalysisOf(info.details) }),
      };
      return ref;
    }
    if (info?.status === 'uploading') {
      slots[slotKey] = { phase: 'interrupted', ...base, receivedBytes: info.receivedBytes };
      return ref;
    }
    slots[slotKey] = {
      phase: 'failed',
      ...base,
      message: info?.status === 'rejected' && info.error ? info.error : LOST_MESSAGE,
    };
    return null;
  };
  const coverArt = keep(COVER_SLOT, draft.release.coverArt, 'cover');
  const tracks = draft.tracks.map((track) => ({ ...track, file: keep(track.id, track.file, 'audio') }));
  return { draft: { ...draft, release: { ...draft.release, coverArt }, tracks }, slots };
}

export function percentOf(done: number, total: number): number {
  if (total <= 0) return 0;
  return Math.min(100, Math.floor((done / total) * 100));
}
