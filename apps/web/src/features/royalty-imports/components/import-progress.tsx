/**
 * An import's job as it runs (decision 161): the phase, lines read of the file's lines (or lines posted)
 * and the money read so far, as a progress bar. The page polls the import while its job runs.
 */
import { type ImportProgress, ROYALTY_PHASE_LABELS } from '@tunedrop/shared/schemas/royalties';

export const RUNNING_PHASES: ReadonlySet<ImportProgress['phase']> = new Set([
  'queued',
  'reading',
  'staging',
  'posting',
]);

export function ImportProgressBar({ progress, lineCount }: { progress: ImportProgress; lineCount: number }) {
  const isPosting = progress.phase === 'posting';
  const done = isPosting ? progress.linesPosted : progress.linesRead;
  const total = isPosting ? lineCount : (progress.linesTotal ?? 0);
  const percent = total > 0 ? Math.min(100, Math.floor((done / total) * 100)) : 0;
  return (
    <div data-testid="import-progress" className="space-y-1">
      <p className="text-sm text-zinc-200">
        <span className="font-semibold">{ROYALTY_PHASE_LABELS[progress.phase]}</span>
        {total > 0
          ? ` · ${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} lines${
              isPosting ? ' posted' : `, ${progress.amountRead} so far`
            }`
          : null}
      </p>
      <div
        role="progressbar"
        aria-label={ROYALTY_PHASE_LABELS[progress.phase]}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2 w-full overflow-hidden rounded bg-zinc-800"
      >
        <div className="h-full bg-emerald-500 transition-all" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
