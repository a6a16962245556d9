/** Step 4, distribution platforms (spec 02 §2): 25 cards, Select All, Deselect All, the count, Submit. */
import { PLATFORMS } from '@tunedrop/shared';
import { BUILDER_MESSAGES } from '@tunedrop/shared/schemas/builder';
import { Check } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Badge, Card, Spinner } from '../../../components/ui/card';
import { cn } from '../../../components/ui/cn';

export function PlatformsStep({
  selected,
  isSubmitting,
  onChange,
  onBack,
  onSubmit,
}: {
  selected: string[];
  isSubmitting: boolean;
  onChange: (platforms: string[]) => void;
  onBack: () => void;
  onSubmit: () => void;
}) {
  const chosen = new Set(selected);
  const toggle = (id: string) =>
    onChange(chosen.has(id) ? selected.filter((value) => value !== id) : [...selected, id]);
  return (
    <Card className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h2 className="text-xl font-semibold text-white">Distribution Platforms</h2>
          <p className="mt-1 text-sm text-zinc-400" aria-live="polite" data-testid="platform-count">
            {chosen.size} of {PLATFORMS.length} platforms selected
          </p>
        </div>
        <div className="flex gap-2">
          <Button
            variant="outline"
            size="sm"
            onClick={() => onChange(PLATFORMS.map((platform) => platform.id))}
          >
            Select All
          </Button>
          <Button variant="outline" size="sm" onClick={() => onChange([])}>
            Deselect All
          </Button>
        </div>
      </div>

      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5" aria-label="Platforms">
        {PLATFORMS.map((platform) => {
          const isSelected = chosen.has(platform.id);
          return (
            <li key={platform.id}>
              <button
                type="button"
                aria-pressed={isSelected}
                onClick={() => toggle(platform.id)}
                className={cn(
                  'flex h-full w-full flex-col items-start gap-2 rounded-xl border p-3 text-left text-sm transition-colors',
                  isSelected
                    ? 'border-brand-500 bg-brand-600/15 text-white'
                    : 'border-ink-700 text-zinc-300 hover:bg-ink-800',
                )}
              >
                <span className="flex w-full items-center justify-between gap-2">
                  <span className="font-medium">{platform.name}</span>
                  <span
                    aria-hidden
                    className={cn(
                      'flex size-5 items-center justify-center rounded border',
                      isSelected ? 'border-brand-400 bg-brand-500' : 'border-ink-700',
                    )}
                  >
                    {isSelected ? <Check className="size-3.5 text-white" /> : null}
                  </span>
                </span>
                {'isBeta' in platform && platform.isBeta ? <Badge tone="yellow">Beta</Badge> : null}
              </button>
            </li>
          );
        })}
      </ul>

      {chosen.size === 0 ? (
        <p className="text-sm text-amber-300">{BUILDER_MESSAGES.platformRequired}</p>
      ) : null}

      <div className="flex flex-wrap justify-between gap-3">
        <Button variant="outline" onClick={onBack} disabled={isSubmitting}>
          Back
        </Button>
        <Button onClick={onSubmit} disabled={chosen.size === 0 || isSubmitting}>
          {isSubmitting ? (
            <>
              <Spinner className="size-4" label="Submitting" /> Submitting...
            </>
          ) : (
            'Submit Release'
          )}
        </Button>
      </div>
    </Card>
  );
}
