/**
 * One track's fields (spec 02 §2): title, WAV file, explicit, ISRC, artists, songwriters, producers, and
 * the YouTube Content ID opt-in (issue 28, Pro).
 */
import { type ArtistDraft, BUILDER_MESSAGES, type TrackDraft } from '@tunedrop/shared/schemas/builder';
import { Field, Input } from '../../../components/ui/input';
import {
  AiDisclosureFields,
  CreditsEditor,
  emptyProducer,
  emptySongwriter,
  FileBox,
  nestedErrors,
  type SlotState,
  TitleChecks,
} from '../../release-form';
import type { AddArtistResult } from '../model/draft';
import { ArtistList } from './artist-list';
import { ContentIdChoice } from './content-id-choice';

export function TrackEditor({
  track,
  number,
  isPro,
  artistName,
  isSpotifyConfigured,
  errors,
  slot,
  onChange,
  onFileSelected,
  onFileCancel,
  onAddArtist,
}: {
  track: TrackDraft;
  number: number;
  isPro: boolean;
  artistName: string;
  isSpotifyConfigured: boolean;
  errors: Record<string, string>;
  slot: SlotState | undefined;
  onChange: (change: Partial<TrackDraft>) => void;
  onFileSelected: (file: File) => void;
  onFileCancel: () => void;
  onAddArtist: (
    list: 'primaryArtists' | 'featuredArtists',
    artist: ArtistDraft,
  ) => AddArtistResult['outcome'];
}) {
  const idOf = (field: string) => `track-${track.id}-${field}`;
  return (
    <section aria-labelledby={idOf('heading')} className="space-y-6">
      <h3 id={idOf('heading')} className="text-lg font-semibold text-white">
        Track {number}
        {track.title.trim() ? `: ${track.title.trim()}` : ''}
      </h3>
      <Field id={idOf('title')} label="Track Title" error={errors.title}>
        <Input
          id={idOf('title')}
          value={track.title}
          placeholder="Enter track title"
          aria-invalid={errors.title ? true : undefined}
          aria-describedby={errors.title ? `${idOf('title')}-error` : undefined}
          onChange={(event) => onChange({ title: event.target.value })}
        />
      </Field>
      <TitleChecks title={track.title} label="track title" onFix={(title) => onChange({ title })} />

      <FileBox
        label="Audio File (WAV)"
        kind="audio"
        accept=".wav,audio/wav,audio/x-wav,audio/wave"
        hint="WAV only: 16 or 24 bit, 44.1 to 96 kHz, mono or stereo"
        slot={slot}
        error={errors.file}
        onSelect={onFileSelected}
        onCancel={onFileCancel}
      />

      <div className="grid gap-5 sm:grid-cols-2 sm:items-start">
        <label className="flex items-center gap-2 text-sm text-zinc-200 sm:mt-7">
          <input
            type="checkbox"
            className="size-4 accent-brand-500"
            checked={track.explicit}
            onChange={(event) => onChange({ explicit: event.target.checked })}
          />
          Explicit content
        </label>
        <Field id={idOf('isrc')} label="ISRC (optional)" error={isPro ? errors.isrc : undefined}>
          <Input
            id={idOf('isrc')}
            value={isPro ? track.isrc : ''}
            disabled={!isPro}
            placeholder={isPro ? 'CC-XXX-YY-NNNNN' : BUILDER_MESSAGES.isrcPlaceholder}
            aria-invalid={isPro && errors.isrc ? true : undefined}
            aria-describedby={isPro && errors.isrc ? `${idOf('isrc')}-error` : undefined}
            onChange={(event) => onChange({ isrc: event.target.value.toUpperCase() })}
          />
        </Field>
      </div>

      <ArtistList
        kind="primary"
        artists={track.primaryArtists}
        isPro={isPro}
        artistName={artistName}
        isSpotifyConfigured={isSpotifyConfigured}
        error={errors.primaryArtists}
        fieldErrors={nestedErrors(errors, 'primaryArtists')}
        onAdd={(artist) => onAddArtist('primaryArtists', artist)}
        onRemove={(index) => onChange({ primaryArtists: track.primaryArtists.filter((_, i) => i !== index) })}
      />
      <ArtistList
        kind="featured"
        artists={track.featuredArtists}
        isPro={isPro}
        artistName={artistName}
        isSpotifyConfigured={isSpotifyConfigured}
        error={errors.featuredArtists}
        fieldErrors={nestedErrors(errors, 'featuredArtists')}
        onAdd={(artist) => onAddArtist('featuredArtists', artist)}
        onRemove={(index) =>
          onChange({ featuredArtists: track.featuredArtists.filter((_, i) => i !== index) })
        }
      />
      <CreditsEditor
        kind="songwriter"
        trackId={track.id}
        people={track.songwriters}
        error={errors.songwriters}
        fieldErrors={nestedErrors(errors, 'songwriters')}
        onAdd={() => onChange({ songwriters: [...track.songwriters, emptySongwriter()] })}
        onChange={(index, change) =>
          onChange({
            songwriters: track.songwriters.map((person, i) =>
              i === index ? { ...person, ...change } : person,
            ),
          })
        }
        onRemove={(index) => onChange({ songwriters: track.songwriters.filter((_, i) => i !== index) })}
      />
      <CreditsEditor
        kind="producer"
        trackId={track.id}
        people={track.producers}
        error={errors.producers}
        fieldErrors={nestedErrors(errors, 'producers')}
        onAdd={() => onChange({ producers: [...track.producers, emptyProducer()] })}
        onChange={(index, change) =>
          onChange({
            producers: track.producers.map((person, i) => (i === index ? { ...person, ...change } : person)),
          })
        }
        onRemove={(index) => onChange({ producers: track.producers.filter((_, i) => i !== index) })}
      />
      <AiDisclosureFields
        idPrefix={idOf('disclosure')}
        value={track.aiDisclosure}
        error={errors.aiDisclosure}
        areasError={errors['aiDisclosure.areas']}
        onChange={(aiDisclosure) => onChange({ aiDisclosure })}
      />
      <ContentIdChoice track={track} isPro={isPro} error={errors.contentIdAnswers} onChange={onChange} />
    </section>
  );
}
