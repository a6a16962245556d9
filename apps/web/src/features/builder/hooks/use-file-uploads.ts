/**
 * The wizard's uploads: one tus upload per slot (the cover, each track), its progress, the draft's
 * reference to it, cancel and replace. Uploads keep running while the user moves between steps.
 */
import { audioAnalysisOf } from '@tunedrop/shared/schemas/audio-checks';
import type { BuilderDraft, FileRef, UploadKind } from '@tunedrop/shared/schemas/builder';
import { type Dispatch, type SetStateAction, useCallback, useEffect, useRef, useState } from 'react';
import {
  COVER_SLOT,
  discardUpload,
  type SlotState,
  type Slots,
  startUpload,
  type UploadHandle,
} from '../../release-form';
import { updateTrack } from '../model/draft';

function refOf(draft: BuilderDraft, slotKey: string): FileRef | null {
  if (slotKey === COVER_SLOT) return draft.release.coverArt;
  return draft.tracks.find((track) => track.id === slotKey)?.file ?? null;
}

function withRef(draft: BuilderDraft, slotKey: string, ref: FileRef | null): BuilderDraft {
  if (slotKey === COVER_SLOT) return { ...draft, release: { ...draft.release, coverArt: ref } };
  return updateTrack(draft, slotKey, { file: ref });
}

export function useFileUploads(
  initialSlots: Slots,
  draftRef: { readonly current: BuilderDraft },
  setDraft: Dispatch<SetStateAction<BuilderDraft>>,
) {
  const [slots, setSlots] = useState<Slots>(initialSlots);
  const handles = useRef(new Map<string, UploadHandle>());
  // Each start gets a number; callbacks of an upload that was replaced or cancelled are ignored.
  const generations = useRef(new Map<string, number>());

  const setSlot = useCallback((slotKey: string, slot: SlotState | null) => {
    setSlots((current) => {
      const next = { ...current };
      if (slot) next[slotKey] = slot;
      else delete next[slotKey];
      return next;
    });
  }, []);

  const isCurrent = useCallback(
    (slotKey: string, generation: number) => generations.current.get(slotKey) === generation,
    [],
  );

  const start = useCallback(
    async (slotKey: string, file: File, kind: UploadKind, previewUrl?: string) => {
      const generation = (generations.current.get(slotKey) ?? 0) + 1;
      generations.current.set(slotKey, generation);
      const running = handles.current.get(slotKey);
      handles.current.delete(slotKey);
      const previous = refOf(draftRef.current, slotKey);
      if (running) await running.abort(false);
      const base = { fileName: file.name, sizeBytes: file.size, ...(previewUrl ? { previewUrl } : {}) };
      setSlot(slotKey, { phase: 'uploading', ...base, sentBytes: 0 });
      // Uploads other slots use are never resumed into this one.
      const others = new Set<string>();
      const draft = draftRef.current;
      for (const ref of [draft.release.coverArt, ...draft.tracks.map((track) => track.file)]) {
        if (ref && ref !== previous) others.add(ref.uploadId);
      }
      const handle = await startUpload(
        file,
        kind,
        {
          onCreated(uploadId) {
            if (!isCurrent(slotKey, generation)) return;
            // A different file replaced the previous one: the server may forget the old upload.
            if (previous && previous.uploadId !== uploadId) void discardUpload(previous.uploadId);
            setDraft((current) =>
              withRef(current, slotKey, { uploadId, name: file.name, sizeBytes: file.size }),
            );
          },
          onProgress(sentBytes) {
            if (!isCurrent(slotKey, generation)) return;
            setSlot(slotKey, { phase: 'uploading', ...base, sentBytes });
          },
          onChecked(info) {
            if (!isCurrent(slotKey, generation)) return;
            handles.current.delete(slotKey);
            setSlot(slotKey, {
              phase: 'checked',
              ...base,
              ...(kind === 'audio' ? { audioAnalysis: audioAnalysisOf(info.details) } : {}),
            });
          },
          onFailed(message) {
            if (!isCurrent(slotKey, generation)) return;
            handles.current.delete(slotKey);
            setSlot(slotKey, { phase: 'failed', fileName: file.name, sizeBytes: file.size, message });
            setDraft((current) => withRef(current, slotKey, null));
          },
        },
        { excludeUploadIds: others },
      );
      if (isCurrent(slotKey, generation)) handles.current.set(slotKey, handle);
      else await handle.abort(true);
    },
    [draftRef, setDraft, setSlot, isCurrent],
  );

  /** Stops the slot's upload and deletes what the server has of it. */
  const cancel = useCallback(
    async (slotKey: string) => {
      generations.current.set(slotKey, (generations.current.get(slotKey) ?? 0) + 1);
      const running = handles.current.get(slotKey);
      handles.current.delete(slotKey);
      const ref = refOf(draftRef.current, slotKey);
      setSlot(slotKey, null);
      setDraft((current) => withRef(current, slotKey, null));
      if (running) await running.abort(true);
      if (ref) await discardUpload(ref.uploadId);
    },
    [draftRef, setDraft, setSlot],
  );

  /** Forgets every slot (a new release starts); the server's copies belong to the submitted release. */
  const reset = useCallback(() => {
    for (const handle of handles.current.values()) void handle.abort(false);
    handles.current.clear();
    generations.current.clear();
    setSlots({});
  }, []);

  // Leaving the page pauses uploads; picking the same files again later resumes them.
  useEffect(() => {
    const running = handles.current;
    return () => {
      for (const handle of running.values()) void handle.abort(false);
    };
  }, []);

  return { slots, start, cancel, reset, setSlot };
}
