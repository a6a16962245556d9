/** An upload box: pick a file, then its name, size in MB, a progress bar with percentage, and cancel. */
import { formatMegabytes } from '@tunedrop/shared/schemas/builder';
import { CheckCircle2, FileAudio, ImageIcon, RotateCcw, UploadCloud, X } from 'lucide-react';
import { type ReactNode, useId, useRef } from 'react';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../components/ui/cn';
import { percentOf, type SlotState } from '../model/slots';
import { AudioChecks } from './audio-checks';

export function FileBox({
  label,
  kind,
  accept,
  hint,
  slot,
  error,
  onSelect,
  onCancel,
  describedBy,
  checkedLabel = 'Uploaded and checked',
  canRemove = true,
}: {
  label: string;
  kind: 'cover' | 'audio';
  accept: string;
  hint: ReactNode;
  slot: SlotState | undefined;
  error?: string | undefined;
  onSelect: (file: File) => void;
  onCancel: () => void;
  describedBy?: string;
  /** What a checked file says (Edit Release: the file is already saved to the release). */
  checkedLabel?: string;
  /** Whether a finished file shows its remove button (Edit Release replaces, never removes). */
  canRemove?: boolean;
}) {
  const inputId = useId();
  const errorId = `${inputId}-error`;
  const input = useRef<HTMLInputElement>(null);
  const Icon = kind === 'cover' ? ImageIcon : FileAudio;
  const pick = () => input.current?.click();

  const fileInput = (
    <input
      ref={input}
      id={inputId}
      type="file"
      accept={accept}
      className="sr-only"
      aria-invalid={error ? true : undefined}
      aria-describedby={[error ? errorId : null, describedBy].filter(Boolean).join(' ') || undefined}
      onChange={(event) => {
        const file = event.target.files?.[0];
        event.target.value = '';
        if (file) onSelect(file);
      }}
    />
  );

  return (
    <div>
      <label htmlFor={inputId} className="mb-1 block text-sm font-medium text-zinc-200">
        {label}
      </label>
      <div
        className={cn(
          'rounded-xl border-2 border-dashed p-4',
          error ? 'border-red-500/70' : 'border-ink-700',
          slot?.phase === 'checked' && 'border-solid border-emerald-500/40',
        )}
      >
        {!slot ? (
          <label
            htmlFor={inputId}
            className="flex cursor-pointer flex-col items-center gap-2 py-4 text-center"
          >
            {fileInput}
            <UploadCloud aria-hidden className="size-8 text-brand-400" />
            <span className="font-medium text-white">Choose a file to upload</span>
            <span className="text-xs text-zinc-400">{hint}</span>
          </label>
        ) : (
          <div className="flex items-start gap-3">
            {fileInput}
            {slot.phase !== 'failed' && 'previewUrl' in slot && slot.previewUrl ? (
              <img
                src={slot.previewUrl}
                alt="Cover art preview"
                className="size-20 shrink-0 rounded-lg object-cover"
              />
            ) : (
              <Icon aria-hidden className="mt-1 size-8 shrink-0 text-brand-400" />
            )}
            <div className="min-w-0 flex-1">
              <p className="truncate font-medium text-white" data-testid="file-name">
                {slot.fileName}
              </p>
              <p className="text-xs text-zinc-400" data-testid="file-size">
                {formatMegabytes(slot.sizeBytes)}
              </p>
              <SlotProgress slot={slot} checkedLabel={checkedLabel} />
            </div>
            <div className="flex shrink-0 gap-2">
              {slot.phase === 'uploading' ? (
                <Button
                  variant="outline"
                  size="sm"
                  onClick={onCancel}
                  aria-label={`Cancel upload of ${slot.fileName}`}
                >
                  <X aria-hidden className="size-4" /> Cancel
                </Button>
              ) : (
                <>
                  <Button variant="outline" size="sm" onClick={pick}>
                    {slot.phase === 'interrupted' ? (
                      <>
                        <RotateCcw aria-hidden className="size-4" /> Resume
                      </>
                    ) : (
                      'Replace'
                    )}
                  </Button>
                  {canRemove ? (
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={onCancel}
                      aria-label={`Remove ${slot.fileName}`}
                    >
                      <X aria-hidden className="size-4" />
                    </Button>
                  ) : null}
                </>
              )}
            </div>
          </div>
        )}
      </div>
      {slot?.phase === 'checked' ? <AudioChecks analysis={slot.audioAnalysis} /> : null}
      {error ? (
        <p id={errorId} role="alert" className="mt-1 text-sm text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function SlotProgress({ slot, checkedLabel }: { slot: SlotState; checkedLabel: string }) {
  if (slot.phase === 'checked') {
    return (
      <p className="mt-2 flex items-center gap-1 text-sm text-emerald-300">
        <CheckCircle2 aria-hidden className="size-4" /> {checkedLabel}
      </p>
    );
  }
  if (slot.phase === 'failed') {
    return (
      <p role="alert" className="mt-2 text-sm text-red-400">
        {slot.message}
      </p>
    );
  }
  if (slot.phase === 'interrupted') {
    const percent = percentOf(slot.receivedBytes, slot.sizeBytes);
    return (
      <p className="mt-2 text-sm text-amber-300">
        Upload interrupted at {percent}%. Choose the same file again to resume.
      </p>
    );
  }
  const percent = percentOf(slot.sentBytes, slot.sizeBytes);
  const isChecking = slot.sentBytes >= slot.sizeBytes;
  return (
    <div className="mt-2">
      <div
        role="progressbar"
        aria-label={`Uploading ${slot.fileName}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2 overflow-hidden rounded-full bg-ink-700"
      >
        <div
          className="h-full rounded-full bg-brand-500 transition-[width]"
          style={{ width: `${percent}%` }}
        />
      </div>
      <p className="mt-1 text-xs text-zinc-300" data-testid="upload-percent">
        {isChecking ? 'Checking file…' : `${percent}%`}
      </p>
    </div>
  );
}
