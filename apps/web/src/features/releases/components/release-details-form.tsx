/**
 * The release-details form shared by Edit Release and Update Release (record 197): Edit Release's schema
 * with the release's current values, the ids and error links of its fields, the genre select, and the
 * server's field errors put back on the form.
 */
import { GENRES } from '@tunedrop/shared';
import {
  type EditReleaseFormValues,
  editReleaseFormSchema,
  type ReleaseForEdit,
} from '@tunedrop/shared/schemas/releases';
import type { ComponentProps } from 'react';
import type { FieldErrors } from 'react-hook-form';
import { Field, Select } from '../../../components/ui/input';
import { useZodForm } from '../../../lib/use-zod-form';

type ReleaseDetails = Pick<
  ReleaseForEdit,
  | 'title'
  | 'primaryArtists'
  | 'featuredArtists'
  | 'genre'
  | 'labelName'
  | 'copyrightHolder'
  | 'copyrightYear'
  | 'publishingHolder'
>;

/** The form with the release's values; a Basic plan's locked holder (the artist name) replaces both holders. */
export function useReleaseDetailsForm(release: ReleaseDetails, lockedHolder: string | null) {
  return useZodForm(editReleaseFormSchema, {
    defaultValues: {
      title: release.title,
      primaryArtists: release.primaryArtists.join(', '),
      featuredArtists: release.featuredArtists.join(', '),
      genre: (GENRES as readonly string[]).includes(release.genre)
        ? (release.genre as EditReleaseFormValues['genre'])
        : ('' as EditReleaseFormValues['genre']),
      labelName: release.labelName ?? '',
      copyrightHolder: lockedHolder ?? release.copyrightHolder,
      copyrightYear: String(release.copyrightYear),
      publishingHolder: lockedHolder ?? release.publishingHolder,
    },
  });
}

/** A field's id `<prefix>-<name>`, invalid while it has an error, described by its error or else by `described`. */
export function releaseFieldProps(prefix: string, errors: FieldErrors<EditReleaseFormValues>) {
  return (name: keyof EditReleaseFormValues, ...described: (string | false | null)[]) => ({
    id: `${prefix}-${name}`,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name]
      ? `${prefix}-${name}-error`
      : described.filter(Boolean).join(' ') || undefined,
  });
}

/** The Genre field: "Select a genre", then every genre. */
export function GenreField({
  id,
  error,
  ...selectProps
}: ComponentProps<typeof Select> & { id: string; error: string | undefined }) {
  return (
    <Field id={id} label="Genre" error={error}>
      <Select id={id} {...selectProps}>
        <option value="">Select a genre</option>
        {GENRES.map((genre) => (
          <option key={genre} value={genre}>
            {genre}
          </option>
        ))}
      </Select>
    </Field>
  );
}

/** Puts the server's field errors on the form's fields of the same name (others are left to the caller). */
export function setReleaseFieldErrors(
  form: ReturnType<typeof useReleaseDetailsForm>,
  fields: Record<string, string>,
) {
  for (const [name, message] of Object.entries(fields)) {
    if (name in form.getValues()) form.setError(name as keyof EditReleaseFormValues, { message });
  }
}
