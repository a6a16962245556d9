/**
 * The title style guide's pre-flight checks under a title field (issue 41, record 296): each failing check's
 * way to fix it, and a button that applies the computed fix. The field's error says the reason.
 */
import { fixedTitle, titleStyleChecks } from '@tunedrop/shared/schemas/title-checks';
import { Wand2 } from 'lucide-react';
import { Button } from '../../../components/ui/button';

export function TitleChecks({
  title,
  label,
  onFix,
}: {
  title: string;
  /** Names the field for the button: "Fix track title". */
  label: string;
  onFix?: ((title: string) => void) | undefined;
}) {
  const checks = titleStyleChecks(title);
  if (checks.length === 0) return null;
  const fixed = fixedTitle(title);
  return (
    <div
      className="space-y-2 rounded-md border border-amber-500/40 bg-amber-500/10 p-3"
      data-testid="title-checks"
    >
      <ul className="list-disc space-y-1 pl-5 text-sm text-amber-100">
        {checks.map((check) => (
          <li key={check.code}>
            {check.reason} {check.fix}
          </li>
        ))}
      </ul>
      {onFix && fixed !== title.trim() ? (
        <Button size="sm" variant="outline" onClick={() => onFix(fixed)}>
          <Wand2 aria-hidden className="size-4" /> Fix {label}: “{fixed}”
        </Button>
      ) : null}
    </div>
  );
}
