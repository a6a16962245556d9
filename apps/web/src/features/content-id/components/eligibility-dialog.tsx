/**
 * The eligibility questions asked before a track is opted in to Content ID. The shared schema refuses an
 * ineligible answer with its reason under the question; the server applies the same schema.
 */
import {
  ANSWERS,
  CONTENT_ID_MESSAGES,
  CONTENT_ID_QUESTIONS,
  type ContentIdQuestionId,
  contentIdAnswersSchema,
} from '@tunedrop/shared/schemas/content-id';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { FieldError } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';
import { ApiError, errorMessage } from '../../../lib/api';
import { useZodForm } from '../../../lib/use-zod-form';
import { useOptTrackIn } from '../api/content-id';

const ANSWER_LABEL = { yes: 'Yes', no: 'No' } as const;

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
  const form = useZodForm(contentIdAnswersSchema);
  const { errors } = form.formState;

  const close = () => {
    form.reset();
    onClose();
  };

  const onSubmit = form.handleSubmit((answers) => {
    if (!track) return;
    optIn.mutate(
      { trackId: track.trackId, answers },
      {
        onSuccess: () => {
          notify.success(CONTENT_ID_MESSAGES.optedIn, CONTENT_ID_MESSAGES.startsOnDelivery);
          close();
        },
        onError: (error) => {
          if (error instanceof ApiError && error.fields) {
            for (const [name, message] of Object.entries(error.fields))
              if (CONTENT_ID_QUESTIONS.some((q) => q.id === name))
                form.setError(name as ContentIdQuestionId, { message });
          }
          notify.error(errorMessage(error, 'The track could not be opted in.'));
        },
      },
    );
  });

  return (
    <Dialog
      open={track !== null}
      onOpenChange={(open) => (open ? undefined : close())}
      title={`Content ID for “${track?.title ?? ''}”`}
      description="Answer every question. Only recordings that are entirely yours can be protected."
      className="max-w-xl"
    >
      <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Content ID eligibility">
        {CONTENT_ID_QUESTIONS.map((question) => {
          const error = errors[question.id]?.message;
          const errorId = `content-id-${question.id}-error`;
          return (
            <fieldset
              key={question.id}
              className="space-y-1"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
            >
              <legend className="text-sm font-medium text-zinc-200">{question.question}</legend>
              <div className="flex gap-4">
                {ANSWERS.map((answer) => (
                  <label key={answer} className="flex min-h-10 items-center gap-2 text-sm text-zinc-200">
                    <input
                      type="radio"
                      value={answer}
                      className="accent-brand-500"
                      {...form.register(question.id)}
                    />
                    {ANSWER_LABEL[answer]}
                  </label>
                ))}
              </div>
              <FieldError id={errorId}>{error}</FieldError>
            </fieldset>
          );
        })}
        <p className="text-sm text-zinc-400">{CONTENT_ID_MESSAGES.startsOnDelivery}</p>
        <div className="flex flex-wrap justify-end gap-2">
          <Button type="button" variant="ghost" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" disabled={optIn.isPending}>
            {optIn.isPending ? 'Opting in...' : 'Opt in to Content ID'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
