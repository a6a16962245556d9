/**
 * /dashboard/artists (record 201): the account's artist profiles, adding one (Pro) and editing each.
 * Basic holds one: adding a second says it is a Pro feature. After a downgrade the others stay, read-only
 * for new releases, and say so.
 */
import {
  ARTIST_PROFILE_MESSAGES,
  type ArtistProfile,
  artistProfileInputSchema,
  NEW_ON_STORES,
} from '@tunedrop/shared/schemas/artist-profiles';
import { MEMBER_LOCK_TEXTS } from '@tunedrop/shared/schemas/member-locks';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button, buttonClass } from '../../../components/ui/button';
import { Badge, Card, PageLoader } from '../../../components/ui/card';
import { Field, FieldError, Input } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';
import { paths } from '../../../config/paths';
import { ApiError, errorMessage } from '../../../lib/api';
import { chooseArtistProfile, useArtistProfiles } from '../../../lib/artist-profiles';
import { usePlanLock } from '../../../lib/plan-lock';
import { usePageTitle } from '../../../lib/use-page-title';
import { useZodForm } from '../../../lib/use-zod-form';
import { useAccountCan } from '../../../lib/viewer';
import { useCreateArtistProfile, useUpdateArtistProfile } from '../api/save-artist-profile';
import { ProfileImagePicker } from '../components/profile-image-picker';

export default function ArtistProfilesPage() {
  usePageTitle('Artist profiles');
  const { data, isPending, isError } = useArtistProfiles();
  const [isAdding, setIsAdding] = useState(false);
  // Adding and editing profiles is Catalog's (record 205); other roles read them, the server refuses them.
  const isCatalog = useAccountCan()('catalog');
  const lock = usePlanLock();
  if (isPending) return <PageLoader />;
  if (isError || !data) return <p role="alert">We could not load your artist profiles.</p>;
  const first = data.profiles[0];

  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold text-white">Artist profiles</h1>
          <p className="mt-1 text-sm text-zinc-400">
            Artist profiles: {data.limit === null ? 'unlimited on your plan' : '1 on Basic, unlimited on Pro'}
            . Your balance is one for all of them.
          </p>
        </div>
        {!isAdding && isCatalog ? (
          <Button type="button" onClick={() => setIsAdding(true)}>
            Add artist profile
          </Button>
        ) : null}
      </header>

      {isAdding ? (
        data.canAdd ? (
          <Card>
            <h2 className="mb-4 text-lg font-semibold text-white">New artist profile</h2>
            <ProfileForm
              idPrefix="new-profile"
              submitLabel="Create profile"
              onDone={(profile) => {
                setIsAdding(false);
                if (profile) chooseArtistProfile(profile.id);
              }}
            />
          </Card>
        ) : (
          <Card role="status" aria-live="polite" className="border-amber-500/40">
            <p className="font-semibold text-amber-200">{lock.featureText}</p>
            <p className="mt-1 text-sm text-zinc-300">
              {lock.isTeamMember ? MEMBER_LOCK_TEXTS.artistProfiles : ARTIST_PROFILE_MESSAGES.limitBasic}
            </p>
            <div className="mt-3 flex flex-wrap gap-2">
              {lock.isTeamMember ? null : (
                <Link to={paths.account} className={buttonClass('primary', 'sm')}>
                  Upgrade to Pro
                </Link>
              )}
              <Button type="button" variant="ghost" size="sm" onClick={() => setIsAdding(false)}>
                Close
              </Button>
            </div>
          </Card>
        )
      ) : null}

      <ul className="space-y-4" aria-label="Your artist profiles">
        {data.profiles.map((profile) => (
          <li key={profile.id}>
            <ProfileCard profile={profile} firstName={first?.name ?? ''} />
          </li>
        ))}
      </ul>
    </div>
  );
}

function ProfileCard({ profile, firstName }: { profile: ArtistProfile; firstName: string }) {
  const [isEditing, setIsEditing] = useState(false);
  const isCatalog = useAccountCan()('catalog');
  const headingId = `artist-profile-${profile.id}`;
  return (
    <Card>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={headingId} className="break-words text-lg font-semibold text-white">
            {profile.name}
          </h2>
          <p className="text-sm text-zinc-400">
            {profile.releaseCount === 1 ? '1 release' : `${profile.releaseCount} releases`}
            {profile.spotifyArtistId ? ` · Spotify ${profile.spotifyArtistId}` : ''}
            {profile.appleArtistId ? ` · Apple Music ${profile.appleArtistId}` : ''}
            {profile.newOnStores.length > 0
              ? ` · New on ${profile.newOnStores.map((store) => (store === 'spotify' ? 'Spotify' : 'Apple Music')).join(' and ')}`
              : ''}
            {profile.spotifyArtistKey ? ' · Spotify artist key on file' : ''}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {profile.isFirst ? <Badge>First profile</Badge> : null}
          {!profile.canRelease ? <Badge>Read-only</Badge> : null}
          {!isEditing && isCatalog ? (
            <Button
              type="button"
              variant="secondary"
              size="sm"
              aria-label={`Edit ${profile.name}`}
              onClick={() => setIsEditing(true)}
            >
              Edit
            </Button>
          ) : null}
        </div>
      </div>
      <div className="mt-4">
        <ProfileImagePicker profile={profile} canChange={isCatalog} />
      </div>
      {!profile.canRelease ? (
        <p className="mt-3 rounded-md bg-amber-500/10 px-3 py-2 text-sm text-amber-200">
          {ARTIST_PROFILE_MESSAGES.readOnly(firstName)}
        </p>
      ) : null}
      {isEditing ? (
        <div className="mt-4">
          <ProfileForm
            idPrefix={`edit-${profile.id}`}
            profile={profile}
            submitLabel="Save profile"
            onDone={() => setIsEditing(false)}
          />
        </div>
      ) : null}
    </Card>
  );
}

const TEXT_FIELDS = [
  'name',
  'spotifyArtistId',
  'appleArtistId',
  'deezerArtistId',
  'amazonArtistId',
  'youtubeChannelId',
  'spotifyArtistKey',
] as const;
type TextField = (typeof TEXT_FIELDS)[number];

function ProfileForm({
  idPrefix,
  profile,
  submitLabel,
  onDone,
}: {
  idPrefix: string;
  profile?: ArtistProfile;
  submitLabel: string;
  onDone: (profile: ArtistProfile | null) => void;
}) {
  const create = useCreateArtistProfile();
  const update = useUpdateArtistProfile();
  const { register, handleSubmit, formState, setError } = useZodForm(artistProfileInputSchema, {
    defaultValues: {
      name: profile?.name ?? '',
      spotifyArtistId: profile?.spotifyArtistId ?? '',
      appleArtistId: profile?.appleArtistId ?? '',
      deezerArtistId: profile?.deezerArtistId ?? '',
      amazonArtistId: profile?.amazonArtistId ?? '',
      youtubeChannelId: profile?.youtubeChannelId ?? '',
      spotifyArtistKey: profile?.spotifyArtistKey ?? '',
      newOnStores: profile?.newOnStores ?? [],
    },
  });
  const { errors } = formState;
  const isSaving = create.isPending || update.isPending;

  const onSubmit = handleSubmit(async (values) => {
    try {
      const saved = profile
        ? (await update.mutateAsync({ id: profile.id, json: values })).profile
        : (await create.mutateAsync(values)).profile;
      notify.success(profile ? ARTIST_PROFILE_MESSAGES.saved : ARTIST_PROFILE_MESSAGES.created, saved.name);
      onDone(saved);
    } catch (error) {
      if (error instanceof ApiError && error.fields) {
        for (const [field, message] of Object.entries(error.fields)) {
          if ((TEXT_FIELDS as readonly string[]).includes(field) || field === 'newOnStores')
            setError(field as TextField | 'newOnStores', { message });
        }
      }
      notify.error(errorMessage(error, 'The profile could not be saved.'));
    }
  });

  const field = (name: TextField) => ({
    id: `${idPrefix}-${name}`,
    'aria-invalid': Boolean(errors[name]),
    'aria-describedby': errors[name] ? `${idPrefix}-${name}-error` : `${idPrefix}-${name}-hint`,
    ...register(name),
  });

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-3" aria-label={submitLabel}>
      <Field id={`${idPrefix}-name`} label="Artist name" error={errors.name?.message}>
        <Input autoComplete="off" {...field('name')} />
      </Field>
      <Field
        id={`${idPrefix}-spotifyArtistId`}
        label="Spotify artist id (optional)"
        error={errors.spotifyArtistId?.message}
        hint="The id or the open.spotify.com artist link"
      >
        <Input autoComplete="off" {...field('spotifyArtistId')} />
      </Field>
      <Field
        id={`${idPrefix}-appleArtistId`}
        label="Apple Music artist id (optional)"
        error={errors.appleArtistId?.message}
        hint="The id or the music.apple.com artist link"
      >
        <Input autoComplete="off" inputMode="text" {...field('appleArtistId')} />
      </Field>
      <Field
        id={`${idPrefix}-deezerArtistId`}
        label="Deezer artist id (optional)"
        error={errors.deezerArtistId?.message}
        hint="The id or the deezer.com artist link"
      >
        <Input autoComplete="off" {...field('deezerArtistId')} />
      </Field>
      <Field
        id={`${idPrefix}-amazonArtistId`}
        label="Amazon Music artist id (optional)"
        error={errors.amazonArtistId?.message}
        hint="B0… or the music.amazon artist link"
      >
        <Input autoComplete="off" {...field('amazonArtistId')} />
      </Field>
      <Field
        id={`${idPrefix}-youtubeChannelId`}
        label="YouTube channel id (optional)"
        error={errors.youtubeChannelId?.message}
        hint="UC… or the youtube.com/channel link"
      >
        <Input autoComplete="off" {...field('youtubeChannelId')} />
      </Field>
      <Field
        id={`${idPrefix}-spotifyArtistKey`}
        label="Spotify artist key (optional)"
        error={errors.spotifyArtistKey?.message}
        hint="From Spotify for Artists, Artist Profile Protection: releases are pre-approved on your profile"
      >
        <Input autoComplete="off" {...field('spotifyArtistKey')} />
      </Field>
      <fieldset
        className="space-y-1 sm:col-span-2"
        aria-describedby={errors.newOnStores ? `${idPrefix}-new-error` : undefined}
      >
        <legend className="text-sm font-medium text-zinc-200">No artist page on the store yet</legend>
        <p className="text-xs text-zinc-400">
          Without an id, tell us the artist is new there: the store then creates a new artist profile instead
          of guessing by name.
        </p>
        {NEW_ON_STORES.map((store) => (
          <label key={store} className="flex items-center gap-2 text-sm text-zinc-200">
            <input
              type="checkbox"
              className="size-4 accent-brand-500"
              value={store}
              {...register('newOnStores')}
            />
            New artist profile on {store === 'spotify' ? 'Spotify' : 'Apple Music'}
          </label>
        ))}
        <FieldError id={`${idPrefix}-new-error`}>{errors.newOnStores?.message}</FieldError>
      </fieldset>
      <div className="flex flex-wrap gap-2 sm:col-span-3">
        <Button type="submit" disabled={isSaving}>
          {isSaving ? 'Saving...' : submitLabel}
        </Button>
        <Button type="button" variant="ghost" onClick={() => onDone(null)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
