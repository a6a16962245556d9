/**
 * The Edit Release page's tracks (issue 18): title, explicit flag, order, songwriters and producers, with
 * the builder's credits editor and the builder's per-track schema. Track artists follow the release's
 * artist fields (one source of truth, see the release edit). Each track's WAV is replaced, a track added
 * (with its WAV) or removed on its own through the builder's uploads (record 121), not by Save Tracks.
 */
import { LIMITS, type SongwriterRole } from '@tunedrop/shared';
import type { PersonDraft, SongwriterDraft } from '@tunedrop/shared/schemas/builder';
import { type EditableTrack, editTracksSchema } from '@tunedrop/shared/schemas/releases';
import { ArrowDown, ArrowUp, Plus, Save, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { Field, Input } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api';
import { CreditsEditor, emptyProducer, emptySongwriter, nestedErrors } from '../../release-form';
import { useRemoveTrack, useReplaceTrackAudio } from '../api/replace-files';
import { useUpdateTracks } from '../api/update-tracks';
import { formatDuration } from '../lib/format';
import { NewTrackForm } from './new-track-form';
import { ReplaceFile } from './replace-file';

type TrackForm = Omit<EditableTrack, 'songwriters' | 'producers'> & {
  songwriters: SongwriterDraft[];
  producers: PersonDraft[];
};

let counter = 0;
const localId = () => {
  counter += 1;
  return `p${counter}`;
};

function toForm(track: EditableTrack): TrackForm {
  return {
    ...track,
    songwriters: track.songwriters.map((writer) => ({
      id: localId(),
      firstName: writer.firstName,
      middleName: writer.middleName ?? '',
      lastName: writer.lastName,
      role: writer.role as SongwriterRole,
    })),
    producers: track.producers.map((producer) => ({
      id: localId(),
      firstName: producer.firstName,
      middleName: producer.middleName ?? '',
      lastName: producer.lastName,
    })),
  };
}

const toBody = (tracks: TrackForm[]) => ({
  tracks: tracks.map((track) => ({
    id: track.id,
    title: track.title,
    explicit: track.explicit,
    primaryArtists: track.primaryArtists,
    featuredArtists: track.featuredArtists,
    songwriters: track.songwriters.map(({ id: _id, ...writer }) => writer),
    producers: track.producers.map(({ id: _id, ...producer }) => producer),
  })),
});

/** Zod issues as `tracks.0.title`-style keys. */
function errorsOf(result: ReturnType<typeof editTracksSchema.safeParse>): Record<string, string> {
  if (result.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.join('.');
    errors[key] ??= issue.message;
  }
  return errors;
}

export function TracksEditor({ releaseId, initial }: { releaseId: string; initial: EditableTrack[] }) {
  const [tracks, setTracks] = useState(() => initial.map(toForm));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useUpdateTracks(releaseId);

  const change = (index: number, patch: Partial<TrackForm>) =>
    setTracks((current) => current.map((track, at) => (at === index ? { ...track, ...patch } : track)));
  const replaceAudio = useReplaceTrackAudio(releaseId);
  const changeById = (id: string, patch: Partial<TrackForm>) =>
    setTracks((current) => current.map((track) => (track.id === id ? { ...track, ...patch } : track)));
  const removeTrack = useRemoveTrack(releaseId);
  const [removing, setRemoving] = useState<TrackForm | null>(null);
  const [isAdding, setIsAdding] = useState(false);

  const onRemove = () => {
    if (!removing) return;
    const { id } = removing;
    removeTrack.mutate(id, {
      onSuccess: () => {
        setRemoving(null);
        setErrors({});
        setTracks((current) => current.filter((track) => track.id !== id));
        notify.success('Track removed');
      },
      onError: (error) => {
        setRemoving(null);
        notify.error(error instanceof ApiError ? error.message : 'Failed to remove track');
      },
    });
  };
  const move = (index: number, by: -1 | 1) =>
    setTracks((current) => {
      const next = [...current];
      const [item] = next.splice(index, 1);
      if (item) next.splice(index + by, 0, item);
      return next;
    });

  const onSave = () => {
    const body = toBody(tracks);
    const found = errorsOf(editTracksSchema.safeParse(body));
    setErrors(found);
    // Said beside the button (a toast would cover it on a phone); the fields show their own messages.
    if (Object.keys(found).length > 0) return;
    save.mutate(body, {
      onSuccess: () => notify.success('Tracks updated successfully'),
      onError: (error) => {
        if (error instanceof ApiError && error.fields) setErrors(error.fields);
        notify.error(error instanceof ApiError ? error.message : 'Failed to update tracks');
      },
    });
  };

  return (
    <section aria-labelledby="tracks-edit-title" className="space-y-4">
      <h2 id="tracks-edit-title" className="text-xl font-semibold text-white">
        Tracks
      </h2>
      <p className="text-sm text-zinc-400">
        Change titles, the explicit flag, the order and the credits. Track artists follow the release's
        artists above.
      </p>
      <ol className="space-y-4" aria-label="Tracks to edit">
        {tracks.map((track, index) => {
          const prefix = `tracks.${index}`;
          const titleId = `edit-track-${track.id}-title`;
          return (
            <li key={track.id} data-testid="edit-track">
              <Card className="space-y-4">
                <div className="flex flex-wrap items-end gap-3">
                  <div className="min-w-0 flex-1">
                    <Field id={titleId} label={`Track ${index + 1} title`} error={errors[`${prefix}.title`]}>
                      <Input
                        id={titleId}
                        value={track.title}
                        aria-invalid={errors[`${prefix}.title`] ? true : undefined}
                        aria-describedby={errors[`${prefix}.title`] ? `${titleId}-error` : undefined}
                        onChange={(event) => change(index, { title: event.target.value })}
                      />
                    </Field>
                  </div>
                  <div className="flex gap-1">
                    <Button
                      variant="outline"
                      size="sm"
                      disabled={tracks.length <= 1}
                      aria-label={`Remove ${track.title || `track ${index + 1}`}`}
                      onClick={() => setRemoving(track)}
                    >
                      <Trash2 aria-hidden className="size-4" />
                    </Button>
                    <Button
                      variant="outline"
                      size="sm"
                      disabled={index === 0}
                      aria-label={`Move ${track.title || `track ${index + 1}`} up`}
                      onClick={() => move(index, -1)}
                    >
                      <ArrowUp aria-hidden className="size-4" />
                    </Button>
                    <Button
                      variant="outline"
                      size="sm"
                      disabled={index === tracks.length - 1}
                      aria-label={`Move ${track.title || `track ${index + 1}`} down`}
                      onClick={() => move(index, 1)}
                    >
                      <ArrowDown aria-hidden className="size-4" />
                    </Button>
                  </div>
                </div>
                <div className="space-y-2">
                  <p id={`edit-track-${track.id}-file`} className="text-sm break-words text-zinc-400">
                    Current audio: <span className="text-zinc-200">{track.fileName}</span> (
                    {formatDuration(track.durationMs)})
                  </p>
                  <ReplaceFile
                    label={`Replace audio of track ${index + 1}`}
                    kind="audio"
                    describedBy={`edit-track-${track.id}-file`}
                    successMessage="Audio replaced"
                    apply={async (uploadId) => {
                      const { audio } = await replaceAudio.mutateAsync({ trackId: track.id, uploadId });
                      changeById(audio.trackId, {
                        fileName: audio.originalFileName,
                        durationMs: audio.durationMs,
                      });
                      return {};
                    }}
                  />
                </div>
                <label className="flex items-center gap-2 text-sm text-zinc-200">
                  <input
                    type="checkbox"
                    className="size-4 accent-brand-500"
                    checked={track.explicit}
                    onChange={(event) => change(index, { explicit: event.target.checked })}
                  />
                  Explicit content
                </label>
                <CreditsEditor
                  kind="songwriter"
                  trackId={track.id}
                  people={track.songwriters}
                  error={errors[`${prefix}.songwriters`]}
                  fieldErrors={nestedErrors(errors, `${prefix}.songwriters`)}
                  onAdd={() => change(index, { songwriters: [...track.songwriters, emptySongwriter()] })}
                  onChange={(at, patch) =>
                    change(index, {
                      songwriters: track.songwriters.map((writer, i) =>
                        i === at ? { ...writer, ...patch } : writer,
                      ),
                    })
                  }
                  onRemove={(at) =>
                    change(index, { songwriters: track.songwriters.filter((_, i) => i !== at) })
                  }
                />
                <CreditsEditor
                  kind="producer"
                  trackId={track.id}
                  people={track.producers}
                  error={errors[`${prefix}.producers`]}
                  fieldErrors={nestedErrors(errors, `${prefix}.producers`)}
                  onAdd={() => change(index, { producers: [...track.producers, emptyProducer()] })}
                  onChange={(at, patch) =>
                    change(index, {
                      producers: track.producers.map((producer, i) =>
                        i === at ? { ...producer, ...patch } : producer,
                      ),
                    })
                  }
                  onRemove={(at) => change(index, { producers: track.producers.filter((_, i) => i !== at) })}
                />
              </Card>
            </li>
          );
        })}
      </ol>
      {isAdding ? (
        <NewTrackForm
          releaseId={releaseId}
          number={tracks.length + 1}
          primaryArtists={tracks[0]?.primaryArtists ?? []}
          takenTitles={new Set(tracks.map((track) => track.title.trim().toLowerCase()))}
          onAdded={(track) => {
            setTracks((current) => [...current, toForm(track)]);
            setIsAdding(false);
          }}
          onClose={() => setIsAdding(false)}
        />
      ) : (
        <div>
          <Button
            variant="outline"
            onClick={() => setIsAdding(true)}
            disabled={tracks.length >= LIMITS.tracksMax}
          >
            <Plus aria-hidden className="size-4" /> Add a track
          </Button>
          {tracks.length >= LIMITS.tracksMax ? (
            <p className="mt-1 text-sm text-zinc-400">A release has 1 to 20 tracks</p>
          ) : null}
        </div>
      )}
      <div className="flex flex-col items-end gap-2">
        {Object.keys(errors).length > 0 ? (
          <p role="alert" className="text-sm text-red-400">
            Please fix the highlighted track fields.
          </p>
        ) : null}
        <Button onClick={onSave} disabled={save.isPending}>
          <Save aria-hidden className="size-4" /> {save.isPending ? 'Saving...' : 'Save Tracks'}
        </Button>
      </div>
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => {
          if (!open && !removeTrack.isPending) setRemoving(null);
        }}
        title="Remove Track"
        description={`Remove "${removing?.title ?? ''}" and its audio file from this release? This cannot be undone.`}
        confirmLabel={removeTrack.isPending ? 'Removing...' : 'Remove'}
        isDestructive
        isPending={removeTrack.isPending}
        onConfirm={onRemove}
      />
    </section>
  );
}
