/**
 * A track's credits and ISRC in Update Release (issue 44, record 236): performers, songwriters and
 * producers with the builder's credits editor, and the ISRC (Pro). Only the tracks whose credits or code
 * differ from what the stores have are sent; the server checks them as the builder does, an ISRC's format
 * and that no other track has it.
 */
import type { SongwriterRole } from '@tunedrop/shared';
import type { PersonDraft, SongwriterDraft } from '@tunedrop/shared/schemas/builder';
import type { ReleaseDetail } from '@tunedrop/shared/schemas/delivery';
import { Field, Input } from '../../../components/ui/input';
import { usePlanLock } from '../../../lib/plan-lock';
import { CreditsEditor, emptyProducer, emptySongwriter, nestedErrors } from '../../release-form';

type Track = ReleaseDetail['tracks'][number];

export type TrackCreditsDraft = {
  isrc: string;
  /** Names, comma-separated, as the release's artists are edited. */
  primaryArtists: string;
  featuredArtists: string;
  songwriters: SongwriterDraft[];
  producers: PersonDraft[];
};

export const creditsDraftOf = (track: Track): TrackCreditsDraft => ({
  isrc: track.isrc ?? '',
  primaryArtists: track.primaryArtists.join(', '),
  featuredArtists: track.featuredArtists.join(', '),
  songwriters: track.songwriters.map((writer) => ({
    ...emptySongwriter(),
    firstName: writer.firstName,
    middleName: writer.middleName ?? '',
    lastName: writer.lastName,
    role: writer.role as SongwriterRole,
  })),
  producers: track.producers.map((producer) => ({
    ...emptyProducer(),
    firstName: producer.firstName,
    middleName: producer.middleName ?? '',
    lastName: producer.lastName,
  })),
});

const names = (text: string) =>
  text
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean)
    .map((name) => ({ name }));

/** What the request carries for one track (its input before the server's parsing). */
export function creditsPayload(trackId: string, draft: TrackCreditsDraft) {
  return {
    trackId,
    ...(draft.isrc.trim() ? { isrc: draft.isrc.trim() } : {}),
    primaryArtists: names(draft.primaryArtists),
    featuredArtists: names(draft.featuredArtists),
    songwriters: draft.songwriters.map(({ id: _id, middleName, ...writer }) => ({
      ...writer,
      middleName: middleName || undefined,
    })),
    producers: draft.producers.map(({ id: _id, middleName, ...producer }) => ({
      ...producer,
      middleName: middleName || undefined,
    })),
  };
}

export function UpdateTrackCredits({
  track,
  draft,
  isPro,
  errors,
  onChange,
}: {
  track: Track;
  draft: TrackCreditsDraft;
  isPro: boolean;
  /** This track's errors from the server, keyed like `isrc` or `songwriters.0.lastName`. */
  errors: Record<string, string>;
  onChange: (draft: TrackCreditsDraft) => void;
}) {
  const id = (field: string) => `update-${track.id}-${field}`;
  const lockText = usePlanLock().featureText;
  const hasErrors = Object.keys(errors).length > 0;
  return (
    <details className="rounded-xl border border-ink-700 p-3" open={hasErrors || undefined}>
      <summary className="cursor-pointer text-sm font-medium text-zinc-100">
        Credits and ISRC of track {track.position} "{track.title}"
      </summary>
      <div className="mt-3 grid gap-3">
        <Field
          id={id('isrc')}
          label="ISRC"
          error={errors.isrc}
          hint={isPro ? 'Change it only if the stores have the wrong code.' : lockText}
        >
          <Input
            id={id('isrc')}
            value={draft.isrc}
            readOnly={!isPro}
            aria-invalid={errors.isrc ? true : undefined}
            aria-describedby={errors.isrc ? `${id('isrc')}-error` : `${id('isrc')}-hint`}
            onChange={(event) => onChange({ ...draft, isrc: event.target.value })}
          />
        </Field>
        <Field id={id('primary')} label="Track Primary Artists" error={errors.primaryArtists}>
          <Input
            id={id('primary')}
            value={draft.primaryArtists}
            onChange={(event) => onChange({ ...draft, primaryArtists: event.target.value })}
          />
        </Field>
        <Field id={id('featured')} label="Track Featured Artists" error={errors.featuredArtists}>
          <Input
            id={id('featured')}
            value={draft.featuredArtists}
            onChange={(event) => onChange({ ...draft, featuredArtists: event.target.value })}
          />
        </Field>
        <CreditsEditor
          kind="songwriter"
          trackId={id('credits')}
          people={draft.songwriters}
          error={errors.songwriters}
          fieldErrors={nestedErrors(errors, 'songwriters')}
          onAdd={() => onChange({ ...draft, songwriters: [...draft.songwriters, emptySongwriter()] })}
          onChange={(at, patch) =>
            onChange({
              ...draft,
              songwriters: draft.songwriters.map((writer, i) =>
                i === at ? { ...writer, ...patch } : writer,
              ),
            })
          }
          onRemove={(at) => onChange({ ...draft, songwriters: draft.songwriters.filter((_, i) => i !== at) })}
        />
        <CreditsEditor
          kind="producer"
          trackId={id('credits')}
          people={draft.producers}
          error={errors.producers}
          fieldErrors={nestedErrors(errors, 'producers')}
          onAdd={() => onChange({ ...draft, producers: [...draft.producers, emptyProducer()] })}
          onChange={(at, patch) =>
            onChange({
              ...draft,
              producers: draft.producers.map((producer, i) =>
                i === at ? { ...producer, ...patch } : producer,
              ),
            })
          }
          onRemove={(at) => onChange({ ...draft, producers: draft.producers.filter((_, i) => i !== at) })}
        />
      </div>
    </details>
  );
}
