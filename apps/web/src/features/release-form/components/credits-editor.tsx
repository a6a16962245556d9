/** Songwriters (with role, default Music & Lyrics) or producers of one track: first, middle, last name. */
import { SONGWRITER_ROLE_LABELS, SONGWRITER_ROLES, type SongwriterRole } from '@tunedrop/shared';
import type { PersonDraft, SongwriterDraft } from '@tunedrop/shared/schemas/builder';
import { Plus, Trash2 } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Input, Label, Select } from '../../../components/ui/input';

type Person = PersonDraft & { role?: SongwriterRole };

export function CreditsEditor<T extends PersonDraft | SongwriterDraft>({
  kind,
  trackId,
  people,
  error,
  fieldErrors,
  onAdd,
  onChange,
  onRemove,
}: {
  kind: 'songwriter' | 'producer';
  trackId: string;
  people: T[];
  error?: string | undefined;
  /** Errors keyed like `0.firstName`. */
  fieldErrors: Record<string, string>;
  onAdd: () => void;
  onChange: (index: number, change: Partial<T>) => void;
  onRemove: (index: number) => void;
}) {
  const title = kind === 'songwriter' ? 'Songwriters' : 'Producers';
  const singular = kind === 'songwriter' ? 'Songwriter' : 'Producer';
  return (
    <fieldset className="space-y-3 rounded-xl border border-ink-700 p-4">
      <legend className="px-1 text-sm font-semibold text-white">{title}</legend>
      {(people as Person[]).map((person, index) => {
        const fieldId = (field: string) => `${trackId}-${kind}-${person.id}-${field}`;
        const errorOf = (field: string) => fieldErrors[`${index}.${field}`];
        const input = (field: 'firstName' | 'middleName' | 'lastName', label: string) => (
          <div>
            <Label htmlFor={fieldId(field)}>{label}</Label>
            <Input
              id={fieldId(field)}
              value={person[field]}
              aria-invalid={errorOf(field) ? true : undefined}
              aria-describedby={errorOf(field) ? `${fieldId(field)}-error` : undefined}
              onChange={(event) => onChange(index, { [field]: event.target.value } as Partial<T>)}
            />
            {errorOf(field) ? (
              <p id={`${fieldId(field)}-error`} className="mt-1 text-xs text-red-400">
                {errorOf(field)}
              </p>
            ) : null}
          </div>
        );
        return (
          <fieldset
            key={person.id}
            className="grid gap-3 rounded-lg bg-ink-800/60 p-3 sm:grid-cols-[1fr_1fr_1fr_auto_auto] sm:items-end"
          >
            <legend className="sr-only">{`${singular} ${index + 1}`}</legend>
            {input('firstName', 'First Name')}
            {input('middleName', 'Middle Name (optional)')}
            {input('lastName', 'Last Name')}
            {kind === 'songwriter' ? (
              <div>
                <Label htmlFor={fieldId('role')}>Role</Label>
                <Select
                  id={fieldId('role')}
                  value={person.role ?? 'music_and_lyrics'}
                  onChange={(event) =>
                    onChange(index, { role: event.target.value as SongwriterRole } as unknown as Partial<T>)
                  }
                >
                  {SONGWRITER_ROLES.map((role) => (
                    <option key={role} value={role}>
                      {SONGWRITER_ROLE_LABELS[role]}
                    </option>
                  ))}
                </Select>
              </div>
            ) : (
              <span className="hidden sm:block" />
            )}
            <Button
              variant="ghost"
              size="md"
              onClick={() => onRemove(index)}
              aria-label={`Remove ${singular.toLowerCase()} ${index + 1}`}
            >
              <Trash2 aria-hidden className="size-4" />
            </Button>
          </fieldset>
        );
      })}
      <Button variant="secondary" size="sm" onClick={onAdd}>
        <Plus aria-hidden className="size-4" /> Add {singular}
      </Button>
      {error ? (
        <p role="alert" className="text-sm text-red-400">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
