/** The wizard's progress bar: Release, Tracks, Summary, Platforms, Submit. */
import { Check } from 'lucide-react';
import { cn } from '../../../components/ui/cn';

export const STEP_NAMES = ['Release', 'Tracks', 'Summary', 'Platforms', 'Submit'] as const;

export function ProgressSteps({ step }: { step: number }) {
  const percent = ((Math.min(step, STEP_NAMES.length) - 1) / (STEP_NAMES.length - 1)) * 100;
  return (
    <nav aria-label="Release builder progress" className="mb-8">
      <div className="relative mb-3 h-1.5 rounded-full bg-ink-700" aria-hidden>
        <div
          className="absolute inset-y-0 left-0 rounded-full bg-brand-500"
          style={{ width: `${percent}%` }}
        />
      </div>
      <ol className="grid grid-cols-5 gap-2 text-center text-xs sm:text-sm">
        {STEP_NAMES.map((name, index) => {
          const number = index + 1;
          const isDone = number < step;
          const isCurrent = number === step;
          return (
            <li
              key={name}
              aria-current={isCurrent ? 'step' : undefined}
              className="flex flex-col items-center gap-1"
            >
              <span
                className={cn(
                  'flex size-7 items-center justify-center rounded-full border text-xs font-semibold',
                  isDone && 'border-brand-500 bg-brand-600 text-white',
                  isCurrent && 'border-brand-400 text-brand-300',
                  !isDone && !isCurrent && 'border-ink-700 text-zinc-400',
                )}
              >
                {isDone ? <Check aria-hidden className="size-4" /> : number}
              </span>
              <span className={cn(isCurrent ? 'font-semibold text-white' : 'text-zinc-400')}>{name}</span>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
