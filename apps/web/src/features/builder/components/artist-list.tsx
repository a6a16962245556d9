/**
 * Primary or featured artists of one track (spec 02 §5): name, Spotify link, Apple Music link;
 * duplicates by name ignored; the per-track and per-release caps with a 3-second warning.
 */
import { LIMITS } from '@tunedrop/shared';
import {
  type ArtistDraft,
  BUILDER_MESSAGES,
  isAppleMusicUrl,
  isSpotifyArtistUrl,
} from '@tunedrop/shared/schemas/builder';
import { MEMBER_LOCK_TEXTS } from '@tunedrop/shared/schemas/member-locks';
import { ExternalLink, Search, Trash2, UserPlus } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Input, Label } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';
import { paths } from '../../../config/paths';
import { errorMessage } from '../../../lib/api';
import { usePlanLock } from '../../../lib/plan-lock';
import { fetchSpotifyArtist } from '../api/spotify';
import type { AddArtistResult } from '../model/draft';
import { ArtistSearchDialog } from './artist-search-dialog';

export function ArtistList({
  kind,
  artists,
  isPro,
  artistName,
  isSpotifyConfigured,
  error,
  fieldErrors,
  onAdd,
  onRemove,
}: {
  kind: 'primary' | 'featured';
  artists: ArtistDraft[];
  isPro: boolean;
  artistName: string;
  isSpotifyConfigured: boolean;
  error?: string | undefined;
  /** Errors of listed artists keyed like `0.spotifyLink`. */
  fieldErrors: Record<string, string>;
  onAdd: (artist: ArtistDraft) => AddArtistResult['outcome'];
  onRemove: (index: number) => void;
}) {
  const id = useId();
  const label = kind === 'primary' ? 'Primary Artists' : 'Featured Artists';
  const singular = kind === 'primary' ? 'Primary Artist' : 'Featured Artist';
  const [form, setForm] = useState<ArtistDraft>({ name: '', spotifyLink: '', appleMusicLink: '' });
  const [formErrors, setFormErrors] = useState<Record<string, string>>({});
  const [warning, setWarning] = useState<string | null>(null);
  const [isSearchOpen, setIsSearchOpen] = useState(false);
  const [isLookingUp, setIsLookingUp] = useState(false);
  const warningTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(warningTimer.current), []);

  const showWarning = (message: string) => {
    setWarning(message);
    clearTimeout(warningTimer.current);
    warningTimer.current = setTimeout(() => setWarning(null), LIMITS.artistWarningMs);
  };

  const isBasicPrimary = kind === 'primary' && !isPro;
  const lock = usePlanLock();
  const isFormShown = !(isBasicPrimary && artists.length >= 1);
  // Continue with a name typed but never added: say so on the name field, not "none added" beside it (issue 18).
  const pendingName = form.name.trim();
  const notAddedMessage =
    error && isFormShown && pendingName !== ''
      ? `"${pendingName}" is not added yet. Press Add ${singular} to add it.`
      : null;
  const nameError = formErrors.name ?? notAddedMessage;

  const add = () => {
    const errors: Record<string, string> = {};
    if (form.spotifyLink.trim() && !isSpotifyArtistUrl(form.spotifyLink)) {
      errors.spotifyLink = BUILDER_MESSAGES.spotifyLinkInvalid;
      notify.error(BUILDER_MESSAGES.spotifyLinkInvalid, BUILDER_MESSAGES.invalidUrlTitle);
    }
    if (form.appleMusicLink.trim() && !isAppleMusicUrl(form.appleMusicLink)) {
      errors.appleMusicLink = BUILDER_MESSAGES.appleMusicLinkInvalid;
    }
    if (!form.name.trim() && !isBasicPrimary) errors.name = BUILDER_MESSAGES.artistNameRequired;
    setFormErrors(errors);
    if (Object.keys(errors).length > 0) return;
    const outcome = onAdd(form);
    if (outcome === 'track-limit' || outcome === 'release-limit') {
      showWarning(
        !isPro
          ? BUILDER_MESSAGES.basicOnePrimaryArtist
          : outcome === 'track-limit'
            ? BUILDER_MESSAGES.maxPrimaryArtistsPerTrack
            : BUILDER_MESSAGES.maxPrimaryArtistsPerRelease,
      );
      return;
    }
    setForm({ name: '', spotifyLink: '', appleMusicLink: '' });
  };

  const lookUp = async () => {
    if (!isSpotifyArtistUrl(form.spotifyLink)) {
      setFormErrors({ spotifyLink: BUILDER_MESSAGES.spotifyLinkInvalid });
      notify.error(BUILDER_MESSAGES.spotifyLinkInvalid, BUILDER_MESSAGES.invalidUrlTitle);
      return;
    }
    setIsLookingUp(true);
    try {
      const { name } = await fetchSpotifyArtist(form.spotifyLink.trim());
      setForm((current) => ({ ...current, name }));
      setFormErrors({});
      notify.success(`Found artist: ${name}`);
    } catch (lookupError) {
      notify.error(errorMessage(lookupError, 'Failed to fetch artist data'));
    } finally {
      setIsLookingUp(false);
    }
  };

  return (
    <fieldset className="space-y-3 rounded-xl border border-ink-700 p-4">
      <legend className="px-1 text-sm font-semibold text-white">{label}</legend>
      {artists.length > 0 ? (
        <ul className="space-y-2" aria-label={label}>
          {artists.map((artist, index) => (
            <li key={artist.name.trim().toLowerCase()} className="rounded-lg bg-ink-800 p-3">
              <div className="flex items-start justify-between gap-2">
                <div className="min-w-0">
                  <p className="font-medium text-white">{artist.name}</p>
                  {artist.spotifyLink && isSpotifyArtistUrl(artist.spotifyLink) ? (
                    <a
                      href={artist.spotifyLink}
                      target="_blank"
                      rel="noreferrer"
                      className="flex items-center gap-1 truncate text-xs text-brand-300"
                    >
                      Spotify <ExternalLink aria-hidden className="size-3" />
                    </a>
                  ) : null}
                  {artist.appleMusicLink && isAppleMusicUrl(artist.appleMusicLink) ? (
                    <a
                      href={artist.appleMusicLink}
                      target="_blank"
                      rel="noreferrer"
                      className="flex items-center gap-1 truncate text-xs text-brand-300"
                    >
                      Apple Music <ExternalLink aria-hidden className="size-3" />
                    </a>
                  ) : null}
                  {fieldErrors[`${index}.spotifyLink`] ||
                  fieldErrors[`${index}.appleMusicLink`] ||
                  fieldErrors[`${index}.name`] ? (
                    <p role="alert" className="text-xs text-red-400">
                      {fieldErrors[`${index}.spotifyLink`] ??
                        fieldErrors[`${index}.appleMusicLink`] ??
                        fieldErrors[`${index}.name`]}
                    </p>
                  ) : null}
                </div>
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => onRemove(index)}
                  aria-label={`Remove ${artist.name}`}
                >
                  <Trash2 aria-hidden className="size-4" />
                </Button>
              </div>
            </li>
          ))}
        </ul>
      ) : null}

      {isBasicPrimary && artists.length >= 1 && lock.isTeamMember ? (
        <p className="text-sm text-zinc-400">{MEMBER_LOCK_TEXTS.primaryArtists}</p>
      ) : isBasicPrimary && artists.length >= 1 ? (
        <p className="text-sm text-zinc-400">
          The Basic plan has one primary artist per release.{' '}
          <Link to={paths.account} className="text-brand-300 underline">
            Upgrade to Pro
          </Link>{' '}
          to add more primary artists.
        </p>
      ) : null}

      {isFormShown ? (
        <div className="grid gap-3 sm:grid-cols-3">
          <div>
            <Label htmlFor={`${id}-name`}>Artist Name</Label>
            <Input
              id={`${id}-name`}
              value={form.name}
              placeholder={isBasicPrimary ? artistName : 'Artist name'}
              aria-invalid={nameError ? true : undefined}
              aria-describedby={nameError ? `${id}-name-error` : undefined}
              onChange={(event) => setForm({ ...form, name: event.target.value })}
              onKeyDown={(event) => {
                if (event.key === 'Enter') {
                  event.preventDefault();
                  add();
                }
              }}
            />
            {nameError ? (
              <p id={`${id}-name-error`} role="alert" className="mt-1 text-xs text-red-400">
                {nameError}
              </p>
            ) : null}
          </div>
          <div>
            <Label htmlFor={`${id}-spotify`}>Spotify Link (optional)</Label>
            <div className="flex gap-1">
              <Input
                id={`${id}-spotify`}
                value={form.spotifyLink}
                placeholder="https://open.spotify.com/artist/…"
                aria-invalid={formErrors.spotifyLink ? true : undefined}
                onChange={(event) => setForm({ ...form, spotifyLink: event.target.value })}
              />
              {isSpotifyConfigured && form.spotifyLink.trim() ? (
                <Button
                  variant="outline"
                  size="md"
                  onClick={() => void lookUp()}
                  disabled={isLookingUp}
                  aria-label="Look up the artist name from this link"
                >
                  <Search aria-hidden className="size-4" />
                </Button>
              ) : null}
            </div>
            {formErrors.spotifyLink ? (
              <p className="mt-1 text-xs text-red-400">{formErrors.spotifyLink}</p>
            ) : null}
          </div>
          <div>
            <Label htmlFor={`${id}-apple`}>Apple Music Link (optional)</Label>
            <Input
              id={`${id}-apple`}
              value={form.appleMusicLink}
              placeholder="https://music.apple.com/…"
              aria-invalid={formErrors.appleMusicLink ? true : undefined}
              onChange={(event) => setForm({ ...form, appleMusicLink: event.target.value })}
            />
            {formErrors.appleMusicLink ? (
              <p className="mt-1 text-xs text-red-400">{formErrors.appleMusicLink}</p>
            ) : null}
          </div>
          <div className="flex flex-wrap gap-2 sm:col-span-3">
            <Button variant="secondary" size="sm" onClick={add}>
              <UserPlus aria-hidden className="size-4" /> Add {singular}
            </Button>
            <Button variant="ghost" size="sm" onClick={() => setIsSearchOpen(true)}>
              <Search aria-hidden className="size-4" /> Search Spotify
            </Button>
          </div>
        </div>
      ) : null}

      {warning ? (
        <p role="alert" className="rounded-lg bg-amber-500/10 p-2 text-sm text-amber-200">
          {warning}
        </p>
      ) : null}
      {error && !notAddedMessage ? (
        <p role="alert" className="text-sm text-red-400">
          {error}
        </p>
      ) : null}

      <ArtistSearchDialog
        open={isSearchOpen}
        onOpenChange={setIsSearchOpen}
        isConfigured={isSpotifyConfigured}
        onSelect={(artist) => {
          setForm((current) => ({ ...current, name: artist.name, spotifyLink: artist.spotifyUrl }));
          setFormErrors({});
        }}
      />
    </fieldset>
  );
}
