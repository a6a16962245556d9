/**
 * Release Builder (/dashboard/release-builder, spec 02 §2): the five-step wizard and its success
 * screen. The draft is saved as the user types, so a reload or a later visit restores it.
 */

import {
  ARTIST_PROFILE_MESSAGES,
  type ArtistProfile,
  appleArtistLink,
  spotifyArtistLink,
} from '@tunedrop/shared/schemas/artist-profiles';
import {
  audioFileError,
  type BuilderDraft,
  builderDraftSchema,
  type DraftAnswer,
  draftToSubmission,
  type ReleaseDraft,
  releaseStepErrors,
  type SubmittedRelease,
  tracksStepErrors,
} from '@tunedrop/shared/schemas/builder';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card, PageLoader } from '../../../components/ui/card';
import { notify } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api';
import { useAppConfig } from '../../../lib/app-config';
import { useChosenArtistProfile } from '../../../lib/artist-profiles';
import { usePageTitle } from '../../../lib/use-page-title';
import { useAccountCan, useViewer, type Viewer, viewerFacts } from '../../../lib/viewer';
import { COVER_SLOT, fileStateOf, restoreSlots, type Slots } from '../../release-form';
import { saveDraft, saveDraftOnExit, useDraftQuery } from '../api/draft';
import { useSubmitRelease } from '../api/submit-release';
import { AccountBannedScreen, SubscriptionRequiredScreen } from '../components/access-screens';
import { DiscardDraftButton, draftTitle, hasDraftContent } from '../components/discard-draft';
import { PlatformsStep } from '../components/platforms-step';
import { ProgressSteps } from '../components/progress-steps';
import { ReleaseDetailsStep } from '../components/release-details-step';
import { StoreProfiles } from '../components/store-profiles';
import { SuccessScreen } from '../components/success-screen';
import { SummaryStep } from '../components/summary-step';
import { TracksStep } from '../components/tracks-step';
import { useFileUploads } from '../hooks/use-file-uploads';
import {
  addArtist,
  applyPlanLocks,
  moveTrack,
  newDraft,
  resizeTracks,
  updateTrack,
  type Viewpoint,
} from '../model/draft';

const SAVE_DELAY_MS = 800;

type SaveState = 'idle' | 'saving' | 'saved' | 'failed';

export default function ReleaseBuilderPage() {
  usePageTitle('Release Builder');
  const { data: viewer, isPending } = useViewer();
  if (isPending || !viewer) return <PageLoader />;
  if (viewer.profile.banned) return <AccountBannedScreen reason={viewer.profile.banReason} />;
  if (!viewerFacts(viewer).passesGate) return <SubscriptionRequiredScreen />;
  return <LoadedBuilder viewer={viewer} />;
}

function LoadedBuilder({ viewer }: { viewer: Viewer }) {
  const draftQuery = useDraftQuery();
  const profiles = useChosenArtistProfile();
  if (draftQuery.isPending) return <PageLoader />;
  if (draftQuery.isError) {
    return (
      <Card className="mx-auto max-w-lg text-center">
        <p className="text-white">We could not load your release draft.</p>
        <Button className="mt-4" onClick={() => void draftQuery.refetch()}>
          Try again
        </Button>
      </Card>
    );
  }
  if (profiles.isLoading) return <PageLoader />;
  const isPro = viewerFacts(viewer).isPro;
  // The artist profile chosen in the dashboard (record 201): a new draft goes under it when it takes new
  // releases; otherwise (a profile read-only after a downgrade) under the first, and the page says why.
  const first = profiles.profiles[0] ?? null;
  const chosen = profiles.profile;
  const releasingAs = chosen?.canRelease ? chosen : first;
  const viewpoint: Viewpoint = {
    isPro,
    artistName: releasingAs && !isPro ? releasingAs.name : viewer.profile.artistName,
    artistProfileId: releasingAs?.id ?? null,
    profileArtist: chosen?.canRelease ? profileCredit(chosen) : null,
  };
  return (
    <Builder
      answer={draftQuery.data}
      viewpoint={viewpoint}
      profiles={profiles.profiles}
      readOnlyNotice={
        chosen && !chosen.canRelease && first ? ARTIST_PROFILE_MESSAGES.readOnly(first.name) : null
      }
    />
  );
}

/** A profile as a builder credit, with its Spotify and Apple Music links. */
function profileCredit(profile: ArtistProfile) {
  return {
    name: profile.name,
    spotifyLink: profile.spotifyArtistId ? spotifyArtistLink(profile.spotifyArtistId) : '',
    appleMusicLink: profile.appleArtistId ? appleArtistLink(profile.appleArtistId) : '',
  };
}

function startingPoint(answer: DraftAnswer, viewpoint: Viewpoint): { draft: BuilderDraft; slots: Slots } {
  const parsed = answer.draft ? builderDraftSchema.safeParse(answer.draft) : null;
  if (!parsed?.success) return { draft: newDraft(viewpoint), slots: {} };
  const restored = restoreSlots(answer, parsed.data);
  return { draft: applyPlanLocks(restored.draft, viewpoint), slots: restored.slots };
}

function Builder({
  answer,
  viewpoint,
  profiles,
  readOnlyNotice,
}: {
  answer: DraftAnswer;
  viewpoint: Viewpoint;
  profiles: ArtistProfile[];
  readOnlyNotice: string | null;
}) {
  const { isPro, artistName } = viewpoint;
  const { data: appConfig } = useAppConfig();
  const isSpotifyConfigured = appConfig?.isSpotifyConfigured ?? false;
  const [start] = useState(() => startingPoint(answer, viewpoint));
  const [draft, setDraft] = useState<BuilderDraft>(start.draft);
  const draftRef = useRef(draft);
  draftRef.current = draft;
  const uploads = useFileUploads(start.slots, draftRef, setDraft);
  const [releaseErrors, setReleaseErrors] = useState<Record<string, string>>({});
  const [trackErrors, setTrackErrors] = useState<Record<string, Record<string, string>>>({});
  const [focusRequest, setFocusRequest] = useState(0);
  const [submitted, setSubmitted] = useState<SubmittedRelease | null>(null);
  const [saveState, setSaveState] = useState<SaveState>('idle');
  const submitRelease = useSubmitRelease();
  // The profile this draft goes under (kept with the draft; the first when the draft names none).
  const releasingAs = profiles.find((profile) => profile.id === draft.artistProfileId) ?? profiles[0] ?? null;
  const canEditProfiles = useAccountCan()('catalog');
  const isDirty = useRef(false);
  const isSubmittedRef = useRef(false);
  const isSubmittingRef = useRef(false);

  // ---------------------------------------------------------------- saving the draft
  const isFirstRender = useRef(true);
  useEffect(() => {
    if (isFirstRender.current) {
      isFirstRender.current = false;
      // A brand-new draft is saved at once, so its idempotency key is on the server too.
      if (answer.draft) return;
    }
    if (isSubmittedRef.current) return;
    isDirty.current = true;
    setSaveState('saving');
    const timer = setTimeout(() => {
      // Never save while or after the release is submitted: the server deletes the draft then.
      if (isSubmittedRef.current || isSubmittingRef.current) return;
      saveDraft(draft)
        .then(() => {
          // A save of an older draft says nothing of the newer one, whose own save is on its way: the
          // page said "Draft saved" while the last change was not, and a reload then lost it.
          if (draftRef.current !== draft) return;
          isDirty.current = false;
          setSaveState('saved');
        })
        .catch(() => setSaveState('failed'));
    }, SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [draft, answer.draft]);

  useEffect(() => {
    const flush = () => {
      if (isDirty.current && !isSubmittedRef.current && !isSubmittingRef.current)
        saveDraftOnExit(draftRef.current);
    };
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, []);

  const change = useCallback((update: (current: BuilderDraft) => BuilderDraft) => setDraft(update), []);
  const goTo = (step: number) => {
    change((current) => ({ ...current, step }));
    window.scrollTo({ top: 0, behavior: 'smooth' });
  };

  // ---------------------------------------------------------------- step 1
  const changeRelease = (update: Partial<ReleaseDraft>) => {
    change((current) => ({ ...current, release: { ...current.release, ...update } }));
    setReleaseErrors((current) => {
      const next = { ...current };
      // Nested fields' errors too ('availability.territories' when availability changes).
      for (const key of Object.keys(update)) {
        for (const field of Object.keys(next))
          if (field === key || field.startsWith(`${key}.`)) delete next[field];
      }
      return next;
    });
  };

  const continueFromRelease = () => {
    const errors = releaseStepErrors(draft.release, {
      isPro,
      coverState: fileStateOf(uploads.slots[COVER_SLOT]),
    });
    setReleaseErrors(errors);
    if (Object.keys(errors).length === 0) goTo(2);
    else requestAnimationFrame(() => document.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
  };

  // ---------------------------------------------------------------- step 2
  const clearTrackError = (trackId: string, keys: string[]) =>
    setTrackErrors((current) => {
      const mine = { ...(current[trackId] ?? {}) };
      for (const key of Object.keys(mine)) {
        if (keys.some((prefix) => key === prefix || key.startsWith(`${prefix}.`))) delete mine[key];
      }
      return { ...current, [trackId]: mine };
    });

  const continueFromTracks = () => {
    const perTrack = tracksStepErrors(draft.tracks, {
      isPro,
      fileState: (track) => fileStateOf(uploads.slots[track.id]),
    });
    const byId: Record<string, Record<string, string>> = {};
    draft.tracks.forEach((track, index) => {
      byId[track.id] = perTrack[index] ?? {};
    });
    setTrackErrors(byId);
    const firstWithErrors = draft.tracks.find((track) => Object.keys(byId[track.id] ?? {}).length > 0);
    if (!firstWithErrors) return goTo(3);
    // Jump to the first track with errors.
    change((current) => ({ ...current, activeTrackId: firstWithErrors.id }));
    setFocusRequest((count) => count + 1);
  };

  const selectAudio = (trackId: string, file: File) => {
    const error = audioFileError(file, answer.limits.maxWavBytes);
    if (error) {
      setTrackErrors((current) => ({ ...current, [trackId]: { ...(current[trackId] ?? {}), file: error } }));
      return;
    }
    clearTrackError(trackId, ['file']);
    void uploads.start(trackId, file, 'audio');
  };

  const resize = (count: number) => {
    const dropped = draft.tracks.slice(count).map((track) => track.id);
    for (const id of dropped) {
      if (uploads.slots[id] || draft.tracks.find((track) => track.id === id)?.file) void uploads.cancel(id);
    }
    change((current) => resizeTracks(current, count, viewpoint));
  };

  // ---------------------------------------------------------------- step 4
  const submit = () => {
    const submission = draftToSubmission(draft, { isPro });
    isSubmittingRef.current = true;
    submitRelease.mutate(submission, {
      onSettled: () => {
        isSubmittingRef.current = false;
      },
      onSuccess: ({ release }) => {
        isSubmittedRef.current = true;
        isDirty.current = false;
        setSubmitted(release);
        notify.success(
          'Release submitted successfully!',
          `“${release.title}” has been uploaded and is now processing.`,
        );
        window.scrollTo({ top: 0 });
      },
      onError: (error) => {
        // The draft is kept: save what the user sees now.
        if (isDirty.current) void saveDraft(draftRef.current).catch(() => undefined);
        const message =
          error instanceof ApiError && error.message
            ? error.message
            : 'Failed to submit release. Please try again.';
        notify.error(message, 'Upload failed');
      },
    });
  };

  const startOver = () => {
    uploads.reset();
    isSubmittedRef.current = false;
    setSubmitted(null);
    setReleaseErrors({});
    setTrackErrors({});
    setSaveState('idle');
    setDraft(newDraft(viewpoint));
  };

  if (submitted) {
    return <SuccessScreen title={submitted.title} isPro={isPro} onUploadAnother={startOver} />;
  }

  return (
    <div>
      <header className="mb-6 flex flex-wrap items-end justify-between gap-2">
        <div>
          <h1 className="text-3xl font-bold text-white">Release Builder</h1>
          <p className="mt-1 text-zinc-400">Create a single, EP or album and send it for review.</p>
          {releasingAs ? (
            <p className="mt-1 text-sm text-zinc-300" data-testid="releasing-as">
              Artist profile: <span className="font-semibold text-white">{releasingAs.name}</span>
            </p>
          ) : null}
          {releasingAs && draft.step === 1 ? (
            <div className="mt-3 max-w-xl">
              <StoreProfiles profile={releasingAs} canEdit={canEditProfiles} />
            </div>
          ) : null}
          {readOnlyNotice && !answer.draft ? (
            <p role="status" className="mt-2 rounded-md bg-amber-500/10 px-3 py-2 text-sm text-amber-200">
              {readOnlyNotice}
            </p>
          ) : null}
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <p className="text-xs text-zinc-400" aria-live="polite" data-testid="save-state">
            {saveState === 'saving'
              ? 'Saving draft…'
              : saveState === 'saved'
                ? 'Draft saved'
                : saveState === 'failed'
                  ? 'Draft not saved — check your connection'
                  : ''}
          </p>
          {hasDraftContent(draft) ? (
            <DiscardDraftButton title={draftTitle(draft)} onDiscarded={startOver} />
          ) : null}
        </div>
      </header>
      <ProgressSteps step={draft.step} />

      {draft.step === 1 ? (
        <ReleaseDetailsStep
          release={draft.release}
          isPro={isPro}
          errors={releaseErrors}
          coverSlot={uploads.slots[COVER_SLOT]}
          onChange={changeRelease}
          onCoverSelected={(file, previewUrl) => {
            setReleaseErrors(({ coverArt: _cleared, ...rest }) => rest);
            void uploads.start(COVER_SLOT, file, 'cover', previewUrl);
          }}
          onCoverError={(message) => setReleaseErrors((current) => ({ ...current, coverArt: message }))}
          onCoverCancel={() => void uploads.cancel(COVER_SLOT)}
          onContinue={continueFromRelease}
        />
      ) : null}

      {draft.step === 2 ? (
        <TracksStep
          tracks={draft.tracks}
          activeTrackId={draft.activeTrackId}
          isPro={isPro}
          artistName={artistName}
          isSpotifyConfigured={isSpotifyConfigured}
          errors={trackErrors}
          slots={uploads.slots}
          focusRequest={focusRequest}
          onCountChange={resize}
          onSelectTrack={(id) => change((current) => ({ ...current, activeTrackId: id }))}
          onMoveTrack={(fromId, toId) => change((current) => moveTrack(current, fromId, toId))}
          onTrackChange={(id, update) => {
            change((current) => updateTrack(current, id, update));
            clearTrackError(id, Object.keys(update));
          }}
          onFileSelected={selectAudio}
          onFileCancel={(id) => void uploads.cancel(id)}
          onAddArtist={(id, list, artist) => {
            const result = addArtist(draftRef.current, id, list, artist, viewpoint);
            if (result.outcome === 'added') {
              change((current) => updateTrack(current, id, { [list]: result.artists }));
              clearTrackError(id, [list]);
            }
            return result.outcome;
          }}
          onBack={() => goTo(1)}
          onContinue={continueFromTracks}
        />
      ) : null}

      {draft.step === 3 ? (
        <SummaryStep
          draft={draft}
          isPro={isPro}
          slots={uploads.slots}
          onBack={() => goTo(2)}
          onContinue={() => goTo(4)}
        />
      ) : null}

      {draft.step === 4 ? (
        <PlatformsStep
          selected={draft.platforms}
          isSubmitting={submitRelease.isPending}
          onChange={(platforms) => change((current) => ({ ...current, platforms }))}
          onBack={() => goTo(3)}
          onSubmit={submit}
        />
      ) : null}
    </div>
  );
}
