/**
 * A profile's optional image (record 332): shows it (or the name's initial), a button that opens the
 * file picker (JPEG or PNG, at most 5 MB, checked again by the server) and a remove button that asks
 * first. Plain buttons and a native file input: keyboard and screen reader friendly.
 */
import { ARTIST_PROFILE_MESSAGES, type ArtistProfile } from '@tunedrop/shared/schemas/artist-profiles';
import { useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { notify } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api';
import { useRemoveProfileImage, useUploadProfileImage } from '../api/profile-image';

const MAX_BYTES = 5 * 1024 * 1024;

/** `canChange` false (a role without Catalog, record 205): the image alone, without its buttons. */
export function ProfileImagePicker({
  profile,
  canChange = true,
}: {
  profile: ArtistProfile;
  canChange?: boolean;
}) {
  const inputRef = useRef<HTMLInputElement>(null);
  const pickRef = useRef<HTMLButtonElement>(null);
  const upload = useUploadProfileImage();
  const remove = useRemoveProfileImage();
  const [isConfirming, setIsConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const errorId = `profile-image-error-${profile.id}`;

  const onFile = (file: File | undefined) => {
    if (!file) return;
    setError(null);
    // A quick check before sending; the server checks the content itself.
    if (file.size > MAX_BYTES) {
      setError(ARTIST_PROFILE_MESSAGES.imageTooLarge);
      return;
    }
    upload.mutate(
      { id: profile.id, file },
      {
        onSuccess: () => notify.success(ARTIST_PROFILE_MESSAGES.imageSaved, profile.name),
        onError: (failure) => setError(errorMessage(failure, 'The profile image could not be saved.')),
      },
    );
  };

  return (
    <div className="flex flex-wrap items-center gap-3">
      {profile.imageUrl ? (
        <img
          src={profile.imageUrl}
          alt=""
          className="size-16 shrink-0 rounded-full border border-ink-700 object-cover"
        />
      ) : (
        <span
          aria-hidden="true"
          className="flex size-16 shrink-0 items-center justify-center rounded-full border border-ink-700 bg-ink-800 text-xl font-semibold text-zinc-400"
        >
          {profile.name.slice(0, 1).toUpperCase()}
        </span>
      )}
      {!canChange ? null : (
        <div className="space-y-1">
          <div className="flex flex-wrap gap-2">
            <input
              ref={inputRef}
              type="file"
              accept="image/jpeg,image/png"
              className="hidden"
              aria-label={`Profile image for ${profile.name}`}
              aria-describedby={error ? errorId : undefined}
              onChange={(event) => {
                onFile(event.target.files?.[0]);
                event.target.value = '';
              }}
            />
            <Button
              type="button"
              variant="secondary"
              size="sm"
              ref={pickRef}
              disabled={upload.isPending}
              aria-label={`${profile.imageUrl ? 'Change' : 'Add'} image for ${profile.name}`}
              onClick={() => inputRef.current?.click()}
            >
              {upload.isPending ? 'Uploading...' : profile.imageUrl ? 'Change image' : 'Add image'}
            </Button>
            {profile.imageUrl ? (
              <Button
                type="button"
                variant="ghost"
                size="sm"
                aria-label={`Remove image of ${profile.name}`}
                onClick={() => setIsConfirming(true)}
              >
                Remove image
              </Button>
            ) : null}
          </div>
          <p className="text-xs text-zinc-400">JPEG or PNG, at most 5 MB (optional).</p>
          {error ? (
            <p id={errorId} role="alert" className="text-sm text-red-300">
              {error}
            </p>
          ) : null}
        </div>
      )}
      <ConfirmDialog
        open={isConfirming}
        onOpenChange={setIsConfirming}
        title="Remove the profile image?"
        description={`${profile.name} will show without an image.`}
        confirmLabel="Remove image"
        isDestructive
        isPending={remove.isPending}
        onConfirm={() =>
          remove.mutate(profile.id, {
            onSuccess: () => {
              setIsConfirming(false);
              notify.success(ARTIST_PROFILE_MESSAGES.imageRemoved, profile.name);
              // The remove button that opened the confirmation is gone: focus goes to "Add image".
              setTimeout(() => pickRef.current?.focus(), 50);
            },
            onError: (failure) => notify.error(errorMessage(failure, 'The image could not be removed.')),
          })
        }
      />
    </div>
  );
}
