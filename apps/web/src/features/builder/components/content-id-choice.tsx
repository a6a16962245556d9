/**
 * YouTube Content ID for one track of the builder (issue 28, record 192): a Pro artist opts the track in
 * after the same eligibility questions as on the release page (content-id's dialog and shared schema);
 * the answers are kept in the draft and the track is opted in when the release is submitted. A Basic
 * artist sees it as a Pro feature.
 */

import type { TrackDraft } from '@tunedrop/shared/schemas/builder';
import { CONTENT_ID_MESSAGES } from '@tunedrop/shared/schemas/content-id';
import { ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { FieldError } from '../../../components/ui/input';
import { EligibilityQuestionsDialog } from '../../release-form';
import { ProFeatureNote } from './pro-lock';

/** Said in the builder: the choice is applied with the release, and Content ID starts on delivery. */
export const BUILDER_CONTENT_ID_NOTE = `The track is opted in when you submit the release. ${CONTENT_ID_MESSAGES.startsOnDelivery}`;

export function ContentIdChoice({
  track,
  isPro,
  error,
  onChange,
}: {
  track: TrackDraft;
  isPro: boolean;
  error?: string | undefined;
  onChange: (change: Partial<TrackDraft>) => void;
}) {
  const [isAsking, setIsAsking] = useState(false);
  const headingId = `track-${track.id}-content-id`;
  const title = track.title.trim() || 'this track';
  const isOptedIn = isPro && Boolean(track.contentId);
  return (
    <section aria-labelledby={headingId} className="space-y-2" data-testid="builder-content-id">
      <h4 id={headingId} className="flex items-center gap-2 text-sm font-medium text-zinc-200">
        <ShieldCheck aria-hidden className="size-4 text-brand-400" /> YouTube Content ID
      </h4>
      {!isPro ? (
        <>
          <p className="text-sm text-zinc-400">{CONTENT_ID_MESSAGES.proOnly}</p>
          <ProFeatureNote />
        </>
      ) : isOptedIn ? (
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-emerald-300">Opted in: your answers make this track eligible.</p>
          <Button
            variant="outline"
            size="sm"
            aria-label={`Remove Content ID from ${title}`}
            onClick={() => onChange({ contentId: null })}
          >
            Remove
          </Button>
        </div>
      ) : (
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-zinc-400">
            Content ID finds your recordings in YouTube videos so you earn from them.
          </p>
          <Button size="sm" aria-label={`Opt in ${title} to Content ID`} onClick={() => setIsAsking(true)}>
            Opt in
          </Button>
        </div>
      )}
      {isPro ? <p className="text-xs text-zinc-400">{BUILDER_CONTENT_ID_NOTE}</p> : null}
      <FieldError id={`${headingId}-error`}>{error}</FieldError>
      {isPro ? (
        <EligibilityQuestionsDialog
          open={isAsking}
          title={`Content ID for “${title}”`}
          note={BUILDER_CONTENT_ID_NOTE}
          submitLabel="Opt in to Content ID"
          onClose={() => setIsAsking(false)}
          onAnswers={(answers, done) => {
            onChange({ contentId: { answers } });
            done();
          }}
        />
      ) : null}
    </section>
  );
}
