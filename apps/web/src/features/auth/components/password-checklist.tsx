/** The live password checklist: every rule of spec 01 §5 in order, ticked as it holds. */
import { passwordChecks } from '@tunedrop/shared/schemas/auth-rules';
import { Check, X } from 'lucide-react';
import { cn } from '../../../components/ui/cn';

export function PasswordChecklist({ id, password, email }: { id: string; password: string; email?: string }) {
  // "Password entered" is implied by the others; the list starts at the length rule.
  const checks = passwordChecks(password, email).filter((check) => check.id !== 'required');
  return (
    <ul id={id} aria-label="Password requirements" className="mt-2 grid gap-1 text-xs">
      {checks.map((check) => (
        <li
          key={check.id}
          data-met={check.isMet}
          className={cn('flex items-center gap-2', check.isMet ? 'text-emerald-300' : 'text-zinc-400')}
        >
          {check.isMet ? <Check aria-hidden className="size-3.5" /> : <X aria-hidden className="size-3.5" />}
          <span>
            {check.label}
            <span className="sr-only">{check.isMet ? ' (met)' : ' (not met)'}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}
