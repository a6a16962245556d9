/** Step 1, Release Details (spec 02 §2, §5): the release fields, cover art, and the plan's locks. */
import { GENRES, LIMITS } from '@tunedrop/shared';
import {
  BUILDER_MESSAGES,
  coverDimensionsError,
  coverFileError,
  publishingHolderWarning,
  type ReleaseDraft,
  RIGHTS_HELP,
  releaseDateLeadWarning,
} from '@tunedrop/shared/schemas/builder';
import { EMPTY_AVAILABILITY_DRAFT } from '@tunedrop/shared/schemas/release-availability';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Field, FieldWarning, Input, Select } from '../../../components/ui/input';
import { imageSize } from '../../../lib/image-size';
import {
  AvailabilityFields,
  availabilityErrorsOf,
  FileBox,
  type SlotState,
  TitleChecks,
} from '../../release-form';
import { LockedNote, ProFeatureNote } from './pro-lock';

export type ReleaseField = keyof ReleaseDraft;

export function ReleaseDetailsStep({
  release,
  isPro,
  errors,
  coverSlot,
  onChange,
  onCoverSelected,
  onCoverError,
  onCoverCancel,
  onContinue,
}: {
  release: ReleaseDraft;
  isPro: boolean;
  errors: Record<string, string>;
  coverSlot: SlotState | undefined;
  onChange: (change: Partial<ReleaseDraft>) => void;
  onCoverSelected: (file: File, previewUrl: string) => void;
  onCoverError: (message: string) => void;
  onCoverCancel: () => void;
  onContinue: () => void;
}) {
  const text = (field: ReleaseField) => ({
    id: `release-${field}`,
    value: release[field] as string,
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': errors[field] ? `release-${field}-error` : undefined,
    onChange: (event: { target: { value: string } }) => onChange({ [field]: event.target.value }),
  });
  const locked = (field: ReleaseField, note: string) => ({
    ...text(field),
    readOnly: true,
    'aria-readonly': true,
    'aria-describedby': `release-${field}-lock`,
    className: 'cursor-not-allowed opacity-70',
    note: <LockedNote id={`release-${field}-lock`}>{note}</LockedNote>,
  });

  // A warning, not a refusal: the artist may still release on a close date (issue 26, finding 7).
  const dateWarning = releaseDateLeadWarning(release.releaseDate);

  const chooseCover = async (file: File) => {
    const typeError = coverFileError(file);
    if (typeError) return onCoverError(typeError);
    try {
      const { width, height } = await imageSize(file);
      const sizeError = coverDimensionsError(width, height);
      if (sizeError) return onCoverError(sizeError);
    } catch {
      return onCoverError(BUILDER_MESSAGES.coverArtFormat);
    }
    onCoverSelected(file, URL.createObjectURL(file));
  };

  /** The ids an input is described by: its error, or else its help text and warning (issue 26). */
  const describedBy = (field: ReleaseField, ...ids: (string | false | null)[]) =>
    errors[field] ? `release-${field}-error` : ids.filter(Boolean).join(' ') || undefined;

  const holder = (field: 'copyrightHolder' | 'publishingHolder', label: string) => {
    const warning = field === 'publishingHolder' && isPro ? publishingHolderWarning(release[field]) : null;
    const warningId = `release-${field}-warning`;
    if (isPro) {
      return (
        <div>
          <Field id={`release-${field}`} label={label} error={errors[field]} hint={RIGHTS_HELP[field]}>
            <Input
              {...text(field)}
              aria-describedby={describedBy(field, `release-${field}-hint`, warning && warningId)}
            />
          </Field>
          <FieldWarning id={warningId}>{warning}</FieldWarning>
        </div>
      );
    }
    const { note, ...props } = locked(field, 'Your artist name on the Basic plan');
    return (
      <div>
        <Field id={`release-${field}`} label={label} error={errors[field]} hint={RIGHTS_HELP[field]}>
          <Input {...props} aria-describedby={`release-${field}-lock release-${field}-hint`} />
        </Field>
        {note}
      </div>
    );
  };

  const year = (field: 'copyrightYear' | 'publishingYear', label: string) => {
    if (isPro) {
      return (
        <Field id={`release-${field}`} label={label} error={errors[field]} hint={RIGHTS_HELP[field]}>
          <Input
            {...text(field)}
            aria-describedby={describedBy(field, `release-${field}-hint`)}
            type="number"
            inputMode="numeric"
            min={LIMITS.minYear}
            max={new Date().getFullYear()}
          />
        </Field>
      );
    }
    const { note, ...props } = locked(field, 'The current year on the Basic plan');
    return (
      <div>
        <Field id={`release-${field}`} label={label} error={errors[field]} hint={RIGHTS_HELP[field]}>
          <Input {...props} aria-describedby={`release-${field}-lock release-${field}-hint`} type="number" />
        </Field>
        {note}
      </div>
    );
  };

  const proOnly = (field: 'upc' | 'labelName' | 'originalReleaseDate', label: string, type = 'text') => {
    if (isPro) {
      return (
        <Field id={`release-${field}`} label={`${label} (optional)`} error={errors[field]}>
          <Input
            {...text(field)}
            type={type}
            {...(field === 'upc' ? { inputMode: 'numeric' as const, placeholder: '12 or 13 digits' } : {})}
          />
        </Field>
      );
    }
    return (
      <div>
        <Field id={`release-${field}`} label={`${label} (optional)`}>
          <Input
            id={`release-${field}`}
            type={type}
            value=""
            disabled
            aria-describedby={`release-${field}-pro`}
          />
        </Field>
        <ProFeatureNote id={`release-${field}-pro`} />
      </div>
    );
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onContinue();
      }}
    >
      <Card className="space-y-6">
        <div>
          <h2 className="text-xl font-semibold text-white">Release Details</h2>
          <p className="mt-1 text-sm text-zinc-400">
            Tell us about your release. Fields marked optional can stay empty.
          </p>
        </div>
        <div className="grid gap-5 sm:grid-cols-2">
          <div className="space-y-2">
            <Field id="release-title" label="Release Title" error={errors.title}>
              <Input {...text('title')} placeholder="Enter release title" />
            </Field>
            <TitleChecks title={release.title} label="release title" onFix={(title) => onChange({ title })} />
          </div>
          <Field id="release-genre" label="Genre" error={errors.genre}>
            <Select {...text('genre')}>
              <option value="">Select a genre</option>
              {GENRES.map((genre) => (
                <option key={genre} value={genre}>
                  {genre}
                </option>
              ))}
            </Select>
          </Field>
          <div>
            <Field id="release-releaseDate" label="Release Date" error={errors.releaseDate}>
              <Input
                {...text('releaseDate')}
                aria-describedby={describedBy('releaseDate', dateWarning && 'release-releaseDate-warning')}
                type="date"
              />
            </Field>
            <FieldWarning id="release-releaseDate-warning">{dateWarning}</FieldWarning>
          </div>
        </div>

        <AvailabilityFields
          idPrefix="release-availability"
          value={release.availability ?? EMPTY_AVAILABILITY_DRAFT}
          releaseDate={release.releaseDate}
          errors={availabilityErrorsOf(errors)}
          onChange={(availability) => onChange({ availability })}
        />

        <FileBox
          label="Cover Art"
          kind="cover"
          accept="image/jpeg,image/png"
          hint="JPG or PNG, exactly 3000x3000 pixels, less than 10MB"
          slot={coverSlot}
          error={errors.coverArt}
          onSelect={(file) => void chooseCover(file)}
          onCancel={onCoverCancel}
        />

        <div className="grid gap-5 sm:grid-cols-2">
          {holder('copyrightHolder', 'Copyright Holder')}
          {year('copyrightYear', 'Copyright Year')}
          {holder('publishingHolder', 'Publishing Holder')}
          {year('publishingYear', 'Publishing Year')}
        </div>

        <div className="grid gap-5 sm:grid-cols-3">
          {proOnly('upc', 'UPC')}
          {proOnly('labelName', 'Label Name')}
          {proOnly('originalReleaseDate', 'Original Release Date', 'date')}
        </div>

        <div className="flex justify-end">
          <Button type="submit">Continue to Track Details</Button>
        </div>
      </Card>
    </form>
  );
}
