/** The release page's opt-in to Content ID: the release form's questions, then the opt-in request. */
import { CONTENT_ID_MESSAGES } from '@tunedrop/shared/schemas/content-id';
import { useState } from 'react';
import { notify } from '../../../components/ui/toast';
import { ApiError, errorMessage } from '../../../lib/api';
import { EligibilityQuestionsDialog } from '../../release-form';
import { useOptTrackIn } from '../api/content-id';

/** The release page's opt-in: the questions, then the opt-in request for a track of a submitted release. */
export function EligibilityDialog({
  releaseId,
  track,
  onClose,
}: {
  releaseId: string;
  track: { trackId: string; title: string } | null;
  onClose: () => void;
}) {
  const optIn = useOptTrackIn(releaseId);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string> | null>(null);
  return (
    <EligibilityQuestionsDialog
      open={track !== null}
      title={`Content ID for “${track?.title ?? ''}”`}
      note={CONTENT_ID_MESSAGES.startsOnDelivery}
      isPending={optIn.isPending}
      onClose={onClose}
      fieldErrors={fieldErrors}
      onAnswers={(answers, done) => {
        if (!track) return;
        optIn.mutate(
          { trackId: track.trackId, answers },
          {
            onSuccess: () => {
              notify.success(CONTENT_ID_MESSAGES.optedIn, CONTENT_ID_MESSAGES.startsOnDelivery);
              done();
            },
            onError: (error) => {
              if (error instanceof ApiError && error.fields) setFieldErrors(error.fields);
              notify.error(errorMessage(error, 'The track could not be opted in.'));
            },
          },
        );
      }}
    />
  );
}
