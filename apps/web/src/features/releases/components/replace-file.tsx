/**
 * Replacing a file of a release being edited (issue 18, record 121): the builder's upload box, its tus
 * upload with progress and its own checks and messages; once the server has checked the file, the release
 * takes it at once (`apply`), and the box shows the new file's name as saved.
 */
import { audioAnalysisOf } from '@tunedrop/shared/schemas/audio-checks';
import {
  audioFileError,
  BUILDER_MESSAGES,
  coverDimensionsError,
  coverFileError,
} from '@tunedrop/shared/schemas/builder';
import { useEffect, useRef, useState } from 'react';
import { notify } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api';
import { imageSize } from '../../../lib/image-size';
import { discardUpload, FileBox, type SlotState, startUpload, type UploadHandle } from '../../release-form';

const FILE_RULES = {
  cover: {
    accept: 'image/jpeg,image/png',
    hint: 'JPG or PNG, exactly 3000x3000 pixels, less than 10MB',
  },
  audio: {
    accept: '.wav,audio/wav,audio/x-wav,audio/wave',
    hint: 'WAV only: 16 or 24 bit, 44.1 to 96 kHz, mono or stereo',
  },
} as const;

/** The builder's own checks before a byte is sent (type, size, cover pixels); the server checks again. */
async function localProblem(file: File, kind: 'cover' | 'audio'): Promise<string | null> {
  // The server enforces its configured WAV size limit itself (413 with the builder's message).
  if (kind === 'audio') return audioFileError(file, Number.POSITIVE_INFINITY);
  const typeError = coverFileError(file);
  if (typeError) return typeError;
  try {
    const { width, height } = await imageSize(file);
    return coverDimensionsError(width, height);
  } catch {
    return BUILDER_MESSAGES.coverArtFormat;
  }
}

export function ReplaceFile({
  label,
  kind,
  apply,
  successMessage,
  describedBy,
  checkedLabel = 'Replaced and saved',
  error: outerError,
}: {
  label: string;
  kind: 'cover' | 'audio';
  /** Makes the checked upload the release's file (or keeps its id for a new track); a cover's preview URL. */
  apply: (uploadId: string) => Promise<{ previewUrl?: string }>;
  /** A toast once applied; none when the file is only kept for later (a new track). */
  successMessage?: string;
  describedBy?: string;
  checkedLabel?: string;
  /** An error from the surrounding form (e.g. 'Audio file is required'). */
  error?: string | undefined;
}) {
  const [slot, setSlot] = useState<SlotState | undefined>();
  const [error, setError] = useState<string | undefined>();
  const handle = useRef<UploadHandle | null>(null);
  // Each pick gets a number; callbacks of an upload that was replaced or cancelled are ignored.
  const generation = useRef(0);

  // Leaving the page stops a running upload; what the server received is cleaned up by its clean-up.
  useEffect(
    () => () => {
      void handle.current?.abort(false);
    },
    [],
  );

  const onSelect = async (file: File) => {
    const current = generation.current + 1;
    generation.current = current;
    const running = handle.current;
    handle.current = null;
    if (running) await running.abort(true);
    setError(undefined);
    const problem = await localProblem(file, kind);
    if (generation.current !== current) return;
    if (problem) {
      setSlot(undefined);
      setError(problem);
      return;
    }
    const base = { fileName: file.name, sizeBytes: file.size };
    const isCurrent = () => generation.current === current;
    setSlot({ phase: 'uploading', ...base, sentBytes: 0 });
    const started = await startUpload(file, kind, {
      onCreated() {},
      onProgress(sentBytes) {
        if (isCurrent()) setSlot({ phase: 'uploading', ...base, sentBytes });
      },
      onChecked(info) {
        if (!isCurrent()) return;
        handle.current = null;
        apply(info.id)
          .then(({ previewUrl }) => {
            if (!isCurrent()) return;
            setSlot({
              phase: 'checked',
              ...base,
              ...(previewUrl ? { previewUrl } : {}),
              ...(kind === 'audio' ? { audioAnalysis: audioAnalysisOf(info.details) } : {}),
            });
            if (successMessage) notify.success(successMessage);
          })
          .catch((failure: unknown) => {
            void discardUpload(info.id);
            if (!isCurrent()) return;
            const message =
              failure instanceof ApiError ? failure.message : 'Upload failed. Please try again.';
            setSlot({ phase: 'failed', ...base, message });
          });
      },
      onFailed(message) {
        if (!isCurrent()) return;
        handle.current = null;
        setSlot({ phase: 'failed', ...base, message });
      },
    });
    if (isCurrent()) handle.current = started;
    else await started.abort(true);
  };

  const onCancel = async () => {
    generation.current += 1;
    const running = handle.current;
    handle.current = null;
    setSlot(undefined);
    if (running) await running.abort(true);
  };

  return (
    <FileBox
      label={label}
      kind={kind}
      accept={FILE_RULES[kind].accept}
      hint={FILE_RULES[kind].hint}
      slot={slot}
      error={error ?? (slot ? undefined : outerError)}
      onSelect={(file) => void onSelect(file)}
      onCancel={() => void onCancel()}
      checkedLabel={checkedLabel}
      canRemove={false}
      {...(describedBy ? { describedBy } : {})}
    />
  );
}
