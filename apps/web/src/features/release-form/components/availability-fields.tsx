/**
 * Release time and territories (issue 26 finding 7, record 199): the builder's step 1 and Edit Release
 * share these fields. The release time is local midnight in each country (default) or one moment
 * worldwide (a time and a zone on the release date); territories are worldwide (default), only some
 * countries, or everywhere except some, picked from a searchable ISO 3166-1 list.
 */
import {
  type AvailabilityDraft,
  COUNTRIES,
  COUNTRY_CODES,
  countryLabel,
  describeReleaseTime,
  describeTerritories,
  isCountryCode,
  isTimeZone,
  RELEASE_TIME_MODE_LABELS,
  RELEASE_TIME_MODES,
  type ReleaseAvailabilityView,
  TERRITORY_MODE_LABELS,
  TERRITORY_MODES,
  timeZoneNames,
  zonedInstant,
} from '@tunedrop/shared/schemas/release-availability';
import { X } from 'lucide-react';
import { type KeyboardEvent, type ReactNode, useId, useMemo, useState } from 'react';
import { FieldError, Input, Label, Select } from '../../../components/ui/input';

/** Errors keyed by availability field (releaseTime, releaseTimeZone, territoryMode, territories). */
export type AvailabilityErrors = Partial<Record<keyof AvailabilityDraft, string>>;

/** The step's errors under `availability.` (the builder, Edit Release) as the fields' own keys. */
export function availabilityErrorsOf(
  errors: Record<string, string>,
  prefix = 'availability.',
): AvailabilityErrors {
  const mine: AvailabilityErrors = {};
  for (const [key, message] of Object.entries(errors)) {
    if (key.startsWith(prefix)) mine[key.slice(prefix.length) as keyof AvailabilityDraft] = message;
  }
  return mine;
}

/** The UTC instant a worldwide moment will be, or null while the date, time or zone is incomplete. */
function momentPreview(releaseDate: string, value: AvailabilityDraft): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(releaseDate)) return null;
  if (!/^([01][0-9]|2[0-3]):[0-5][0-9]$/.test(value.releaseTime) || !isTimeZone(value.releaseTimeZone))
    return null;
  const instant = zonedInstant(releaseDate, value.releaseTime, value.releaseTimeZone).toISOString();
  return `${instant.slice(0, 10)} ${instant.slice(11, 16)} UTC`;
}

export function AvailabilityFields({
  idPrefix,
  value,
  releaseDate,
  errors,
  onChange,
}: {
  idPrefix: string;
  value: AvailabilityDraft;
  releaseDate: string;
  errors: AvailabilityErrors;
  onChange: (next: AvailabilityDraft) => void;
}) {
  const zones = useMemo(() => timeZoneNames(), []);
  const set = (change: Partial<AvailabilityDraft>) => onChange({ ...value, ...change });
  const isMoment = value.releaseTimeMode === 'worldwide_moment';
  const isList = value.territoryMode !== 'worldwide';
  const preview = isMoment ? momentPreview(releaseDate, value) : null;
  const id = (name: string) => `${idPrefix}-${name}`;

  return (
    <div className="grid gap-5 lg:grid-cols-2">
      <fieldset className="min-w-0 space-y-3 rounded-lg border border-ink-700 p-4">
        <legend className="px-1 text-sm font-medium text-zinc-200">Release time</legend>
        <div className="space-y-2">
          {RELEASE_TIME_MODES.map((mode) => (
            <div key={mode} className="flex items-start gap-2">
              <input
                id={id(`releaseTimeMode-${mode}`)}
                type="radio"
                name={id('releaseTimeMode')}
                value={mode}
                checked={value.releaseTimeMode === mode}
                aria-describedby={id(`releaseTimeMode-${mode}-hint`)}
                onChange={() =>
                  set(
                    mode === 'worldwide_moment'
                      ? {
                          releaseTimeMode: mode,
                          releaseTime: value.releaseTime || '00:00',
                          releaseTimeZone: value.releaseTimeZone || 'UTC',
                        }
                      : { releaseTimeMode: mode },
                  )
                }
                className="mt-0.5 h-4 w-4 accent-brand-500"
              />
              <div className="text-sm">
                <label htmlFor={id(`releaseTimeMode-${mode}`)} className="text-zinc-200">
                  {RELEASE_TIME_MODE_LABELS[mode]}
                </label>
                <p id={id(`releaseTimeMode-${mode}-hint`)} className="text-xs text-zinc-400">
                  {mode === 'local_midnight'
                    ? 'Goes live at 00:00 on the release date in each country, the usual choice.'
                    : 'Goes live at the same instant everywhere (for example a premiere), so it is the day before in some countries.'}
                </p>
              </div>
            </div>
          ))}
        </div>
        {isMoment ? (
          <div className="grid gap-3 sm:grid-cols-[8rem_1fr]">
            <div>
              <Label htmlFor={id('releaseTime')}>Time</Label>
              <Input
                id={id('releaseTime')}
                type="time"
                value={value.releaseTime}
                onChange={(event) => set({ releaseTime: event.target.value })}
                aria-invalid={errors.releaseTime ? true : undefined}
                aria-describedby={errors.releaseTime ? id('releaseTime-error') : undefined}
              />
              <FieldError id={id('releaseTime-error')}>{errors.releaseTime}</FieldError>
            </div>
            <div className="min-w-0">
              <Label htmlFor={id('releaseTimeZone')}>Time zone</Label>
              <Select
                id={id('releaseTimeZone')}
                value={value.releaseTimeZone}
                onChange={(event) => set({ releaseTimeZone: event.target.value })}
                aria-invalid={errors.releaseTimeZone ? true : undefined}
                aria-describedby={
                  errors.releaseTimeZone
                    ? id('releaseTimeZone-error')
                    : preview
                      ? id('moment-preview')
                      : undefined
                }
              >
                <option value="">Choose a time zone</option>
                {zones.map((zone) => (
                  <option key={zone} value={zone}>
                    {zone.replaceAll('_', ' ')}
                  </option>
                ))}
              </Select>
              <FieldError id={id('releaseTimeZone-error')}>{errors.releaseTimeZone}</FieldError>
            </div>
            {preview ? (
              <p id={id('moment-preview')} className="text-xs text-zinc-400 sm:col-span-2">
                Goes live everywhere at {preview}.
              </p>
            ) : null}
          </div>
        ) : null}
      </fieldset>

      <fieldset className="min-w-0 space-y-3 rounded-lg border border-ink-700 p-4">
        <legend className="px-1 text-sm font-medium text-zinc-200">Territories</legend>
        <div className="space-y-2">
          {TERRITORY_MODES.map((mode) => (
            <label key={mode} className="flex items-center gap-2 text-sm text-zinc-200">
              <input
                type="radio"
                name={id('territoryMode')}
                value={mode}
                checked={value.territoryMode === mode}
                onChange={() => set({ territoryMode: mode })}
                className="h-4 w-4 accent-brand-500"
              />
              {TERRITORY_MODE_LABELS[mode]}
            </label>
          ))}
        </div>
        {isList ? (
          <CountryPicker
            id={id('territories')}
            label={value.territoryMode === 'include' ? 'Countries to release in' : 'Countries to leave out'}
            selected={value.territories}
            error={errors.territories}
            onChange={(territories) => set({ territories })}
          />
        ) : null}
        {!isList ? <FieldError id={id('territories-error')}>{errors.territories}</FieldError> : null}
      </fieldset>
    </div>
  );
}

const MAX_SHOWN = 50;

/**
 * A searchable country list (combobox + listbox): type a name or an ISO code, move with the arrow keys,
 * Enter adds; several codes typed at once ("FR, DE") are added together and unknown ones named.
 */
function CountryPicker({
  id,
  label,
  selected,
  error,
  onChange,
}: {
  id: string;
  label: string;
  selected: string[];
  error: string | undefined;
  onChange: (codes: string[]) => void;
}) {
  const listId = useId();
  const [query, setQuery] = useState('');
  const [isOpen, setIsOpen] = useState(false);
  const [active, setActive] = useState(0);
  const [typedError, setTypedError] = useState<string | null>(null);
  const chosen = new Set(selected);
  const needle = query.trim().toLowerCase();
  const matches = needle
    ? COUNTRY_CODES.filter((code) => !chosen.has(code)).filter(
        (code) => code.toLowerCase() === needle || (COUNTRIES[code] ?? '').toLowerCase().includes(needle),
      )
    : COUNTRY_CODES.filter((code) => !chosen.has(code));
  // An exact code first ("DE" before "Bangladesh").
  matches.sort((a, b) => Number(b.toLowerCase() === needle) - Number(a.toLowerCase() === needle));
  const shown = matches.slice(0, MAX_SHOWN);
  const activeCode = isOpen ? shown[Math.min(active, shown.length - 1)] : undefined;
  const shownError = typedError ?? error;

  const add = (codes: string[]) => {
    onChange([...new Set([...selected, ...codes])].sort());
    setQuery('');
    setActive(0);
    setTypedError(null);
    // Closed after each choice, so the list never covers what follows; typing or ArrowDown opens it.
    setIsOpen(false);
  };

  const addTyped = () => {
    const parts = query
      .split(/[\s,;]+/)
      .map((part) => part.trim().toUpperCase())
      .filter(Boolean);
    if (parts.length > 1 || (parts.length === 1 && parts[0]?.length === 2 && !activeCode)) {
      const unknown = parts.filter((part) => !isCountryCode(part));
      if (unknown.length > 0) {
        setTypedError(
          `Unknown country ${unknown.length === 1 ? 'code' : 'codes'}: ${unknown.join(', ')}. Use ISO 3166-1 two-letter codes such as DE or US.`,
        );
        return;
      }
      add(parts);
      return;
    }
    if (activeCode) add([activeCode]);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setIsOpen(true);
      setActive((index) => Math.min(index + 1, Math.max(shown.length - 1, 0)));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((index) => Math.max(index - 1, 0));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      addTyped();
    } else if (event.key === 'Escape') {
      setIsOpen(false);
    } else if (event.key === 'Backspace' && !query && selected.length > 0) {
      onChange(selected.slice(0, -1));
    }
  };

  return (
    <div className="space-y-2">
      <Label htmlFor={id}>{label}</Label>
      {selected.length > 0 ? (
        <ul className="flex flex-wrap gap-2" aria-label={`${label}: ${selected.length} chosen`}>
          {selected.map((code) => (
            <li
              key={code}
              className="inline-flex items-center gap-1 rounded-full bg-ink-700 py-1 pr-1 pl-3 text-xs text-zinc-100"
            >
              {countryLabel(code)}
              <button
                type="button"
                onClick={() => onChange(selected.filter((other) => other !== code))}
                className="rounded-full p-1 text-zinc-300 hover:bg-ink-800 hover:text-white focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
                aria-label={`Remove ${countryLabel(code)}`}
              >
                <X className="h-3 w-3" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="relative">
        <Input
          id={id}
          role="combobox"
          aria-expanded={isOpen}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={activeCode ? `${listId}-${activeCode}` : undefined}
          aria-invalid={shownError ? true : undefined}
          aria-describedby={shownError ? `${id}-error` : `${id}-hint`}
          autoComplete="off"
          placeholder="Type a country or a code (DE, US)"
          value={query}
          onChange={(event) => {
            setQuery(event.target.value);
            setIsOpen(true);
            setActive(0);
            setTypedError(null);
          }}
          onFocus={() => setIsOpen(true)}
          onBlur={() => setIsOpen(false)}
          onKeyDown={onKeyDown}
        />
        {isOpen && shown.length > 0 ? (
          <div
            id={listId}
            role="listbox"
            aria-label={label}
            className="absolute z-20 mt-1 max-h-60 w-full overflow-y-auto rounded-lg border border-ink-700 bg-ink-900 py-1 shadow-lg"
          >
            {shown.map((code) => (
              <div
                key={code}
                id={`${listId}-${code}`}
                role="option"
                tabIndex={-1}
                aria-selected={code === activeCode}
                // Keeps the input focused, so the list stays open for the next one.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => add([code])}
                onKeyDown={(event) => {
                  if (event.key === 'Enter') add([code]);
                }}
                className={`cursor-pointer px-3 py-2 text-sm ${code === activeCode ? 'bg-brand-600 text-white' : 'text-zinc-200 hover:bg-ink-800'}`}
              >
                {countryLabel(code)}
              </div>
            ))}
          </div>
        ) : null}
        {isOpen && needle && shown.length === 0 ? (
          <p role="status" className="mt-1 text-sm text-zinc-400">
            No country matches “{query.trim()}”
          </p>
        ) : null}
      </div>
      {shownError ? null : (
        <p id={`${id}-hint`} className="text-xs text-zinc-400">
          Type to search; the up and down arrows move through the list, Enter adds, Escape closes it. Several
          codes can be typed at once: FR, DE.
        </p>
      )}
      <FieldError id={`${id}-error`}>{shownError}</FieldError>
    </div>
  );
}

/** The two lines the release page and the review card show. */
export function AvailabilityRows({
  releaseDate,
  availability,
  Row,
}: {
  releaseDate: string;
  availability: ReleaseAvailabilityView;
  Row: (props: { label: string; children: string }) => ReactNode;
}) {
  return (
    <>
      <Row label="Release time">{describeReleaseTime({ releaseDate, ...availability })}</Row>
      <Row label="Territories">{describeTerritories(availability)}</Row>
    </>
  );
}

/** The same from a draft (the builder's summary): the instant worked out when complete. */
export function draftAvailabilityView(
  releaseDate: string,
  draft: AvailabilityDraft,
): ReleaseAvailabilityView {
  const isMoment = draft.releaseTimeMode === 'worldwide_moment';
  const preview = isMoment ? momentPreview(releaseDate, draft) : null;
  return {
    releaseTimeMode: draft.releaseTimeMode,
    releaseTime: isMoment ? draft.releaseTime : null,
    releaseTimeZone: isMoment ? draft.releaseTimeZone : null,
    releaseAt: preview
      ? zonedInstant(releaseDate, draft.releaseTime, draft.releaseTimeZone).toISOString()
      : null,
    territoryMode: draft.territoryMode,
    territories: draft.territoryMode === 'worldwide' ? [] : draft.territories,
  };
}
