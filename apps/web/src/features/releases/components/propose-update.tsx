/**
 * Update Release (issue 26, record 197): the owner of an approved or live release changes its details, its
 * cover or a track's audio; the change goes to review as an update and the stores keep the current version
 * until a moderator approves it. The form is Edit Release's schema; the files are the builder's uploads.
 */
import type { ReleaseDetail } from '@tunedrop/shared/schemas/delivery';
import { RELEASE_UPDATE_MESSAGES } from '@tunedrop/shared/schemas/release-updates';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Field, Input } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';
import { ApiError, errorMessage } from '../../../lib/api';
import { usePlanLock } from '../../../lib/plan-lock';
import { useProposeUpdate } from '../../../lib/release-updates';
import {
  GenreField,
  releaseFieldProps,
  setReleaseFieldErrors,
  useReleaseDetailsForm,
} from './release-details-form';
import { ReplaceFile } from './replace-file';
import {
  creditsDraftOf,
  creditsPayload,
  type TrackCreditsDraft,
  UpdateTrackCredits,
} from './update-track-credits';

export function ProposeUpdateDialog({
  release,
  open,
  onOpenChange,
  isPro,
  artistName,
}: {
  release: ReleaseDetail;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  isPro: boolean;
  artistName: string;
}) {
  const propose = useProposeUpdate(release.id);
  const lockText = usePlanLock().featureText;
  const [coverUploadId, setCoverUploadId] = useState<string | null>(null);
  const [audio, setAudio] = useState<Record<string, string>>({});
  // Each track's credits and ISRC (record 236); only those that differ from the stores' are sent.
  const [credits, setCredits] = useState<Record<string, TrackCreditsDraft>>(() =>
    Object.fromEntries(release.tracks.map((track) => [track.id, creditsDraftOf(track)])),
  );
  const [trackErrors, setTrackErrors] = useState<Record<string, Record<string, string>>>({});
  const lockedHolder = isPro ? null : artistName;
  const form = useReleaseDetailsForm(release, lockedHolder);
  const { errors } = form.formState;
  const fieldProps = releaseFieldProps('update', errors);

  const onSubmit = form.handleSubmit((values) => {
    const tracks = release.tracks
      .map((track) => ({
        was: creditsPayload(track.id, creditsDraftOf(track)),
        now: creditsPayload(track.id, credits[track.id] ?? creditsDraftOf(track)),
      }))
      .filter(({ was, now }) => JSON.stringify(was) !== JSON.stringify(now))
      .map(({ now }) => now);
    setTrackErrors({});
    propose.mutate(
      {
        details: { ...values, labelName: values.labelName || null },
        ...(coverUploadId ? { coverUploadId } : {}),
        audio: Object.entries(audio).map(([trackId, uploadId]) => ({ trackId, uploadId })),
        tracks,
      },
      {
        onSuccess: () => {
          notify.success(RELEASE_UPDATE_MESSAGES.submitted);
          onOpenChange(false);
        },
        onError: (error) => {
          if (error instanceof ApiError && error.fields) {
            setReleaseFieldErrors(form, error.fields);
            // `tracks.N.field`: N is the place in the tracks sent, shown under that track's field.
            const byTrack: Record<string, Record<string, string>> = {};
            for (const [key, message] of Object.entries(error.fields)) {
              const match = /^tracks\.(\d+)\.(.+)$/.exec(key);
              const trackId = match ? tracks[Number(match[1])]?.trackId : undefined;
              if (match?.[2] && trackId) byTrack[trackId] = { ...byTrack[trackId], [match[2]]: message };
            }
            setTrackErrors(byTrack);
          }
          notify.error(errorMessage(error, RELEASE_UPDATE_MESSAGES.submitFailed));
        },
      },
    );
  });

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!propose.isPending) onOpenChange(next);
      }}
      title="Update Release"
      description="Your changes go to review. The stores keep the current version until a moderator approves them; the UPC stays the same, and an ISRC changes only if you fix it below."
      className="max-w-2xl"
    >
      <form onSubmit={onSubmit} noValidate className="grid gap-4 sm:grid-cols-2">
        <div className="sm:col-span-2">
          <Field id="update-title" label="Release Title" error={errors.title?.message}>
            <Input {...fieldProps('title')} {...form.register('title')} />
          </Field>
        </div>
        <Field id="update-primaryArtists" label="Primary Artists" error={errors.primaryArtists?.message}>
          <Input {...fieldProps('primaryArtists')} {...form.register('primaryArtists')} />
        </Field>
        <Field id="update-featuredArtists" label="Featured Artists" error={errors.featuredArtists?.message}>
          <Input {...fieldProps('featuredArtists')} {...form.register('featuredArtists')} />
        </Field>
        <GenreField {...fieldProps('genre')} {...form.register('genre')} error={errors.genre?.message} />
        <Field
          id="update-labelName"
          label="Label Name"
          error={errors.labelName?.message}
          hint={isPro ? 'Optional.' : lockText}
        >
          <Input {...fieldProps('labelName')} {...form.register('labelName')} disabled={!isPro} />
        </Field>
        <Field id="update-copyrightHolder" label="Copyright Holder" error={errors.copyrightHolder?.message}>
          <Input {...fieldProps('copyrightHolder')} {...form.register('copyrightHolder')} readOnly={!isPro} />
        </Field>
        <Field id="update-copyrightYear" label="Copyright Year" error={errors.copyrightYear?.message}>
          <Input {...fieldProps('copyrightYear')} {...form.register('copyrightYear')} readOnly={!isPro} />
        </Field>
        <div className="sm:col-span-2">
          <Field
            id="update-publishingHolder"
            label="Publishing Holder"
            error={errors.publishingHolder?.message}
          >
            <Input
              {...fieldProps('publishingHolder')}
              {...form.register('publishingHolder')}
              readOnly={!isPro}
            />
          </Field>
        </div>
        <div className="sm:col-span-2">
          <ReplaceFile
            label="New cover art (optional)"
            kind="cover"
            checkedLabel="Ready to send for review"
            apply={async (uploadId) => {
              setCoverUploadId(uploadId);
              return {};
            }}
          />
        </div>
        {release.tracks.map((track) => (
          <div key={`credits-${track.id}`} className="sm:col-span-2">
            <UpdateTrackCredits
              track={track}
              draft={credits[track.id] ?? creditsDraftOf(track)}
              isPro={isPro}
              errors={trackErrors[track.id] ?? {}}
              onChange={(draft) => setCredits((current) => ({ ...current, [track.id]: draft }))}
            />
          </div>
        ))}
        {release.tracks.map((track) => (
          <div key={track.id} className="sm:col-span-2">
            <ReplaceFile
              label={`New audio for "${track.title}" (optional)`}
              kind="audio"
              checkedLabel="Ready to send for review"
              apply={async (uploadId) => {
                setAudio((current) => ({ ...current, [track.id]: uploadId }));
                return {};
              }}
            />
          </div>
        ))}
        <div className="flex justify-end gap-2 sm:col-span-2">
          <Button
            type="button"
            variant="outline"
            onClick={() => onOpenChange(false)}
            disabled={propose.isPending}
          >
            Cancel
          </Button>
          <Button type="submit" disabled={propose.isPending}>
            {propose.isPending ? 'Sending...' : 'Send for Review'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
