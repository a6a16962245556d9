/**
 * The eligibility questions asked before a track is opted in to Content ID, on the release page
 * (features/content-id's opt-in) and in the release builder. Part of the release form (issue 37: the
 * builder and content-id both use it, and features never import each other). The shared schema refuses an
 * ineligible answer with its reason under the question; the server applies the same schema.
 */
import {
  ANSWERS,
  CONTENT_ID_QUESTIONS,
  type ContentIdAnswers,
  type ContentIdQuestionId,
  contentIdAnswersSchema,
} from '@tunedrop/shared/schemas/content-id';
import { type FormEvent, useEffect } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { FieldError } from '../../../components/ui/input';
import { useZodForm } from '../../../lib/use-zod-form';

const ANSWER_LABEL = { yes: 'Yes', no: 'No' } as const;

/**
 * The questions alone (the release page's opt-in below, and the release builder, where the answers are
 * kept in the draft and applied at submission): `onAnswers` gets answers the shared schema found eligible.
 */
export function EligibilityQuestionsDialog({
  open,
  title,
  note,
  submitLabel = 'Opt in to Content ID',
  isPending = false,
  onAnswers,
  onClose,
  fieldErrors = null,
}: {
  open: boolean;
  title: string;
  /** Said under the questions: when Content ID starts. */
  note: string;
  submitLabel?: string;
  isPending?: boolean;
  onAnswers: (answers: ContentIdAnswers, done: () => void) => void;
  onClose: () => void;
  /** The server's refusals, shown under their questions. */
  fieldErrors?: Record<string, string> | null;
}) {
  const form = useZodForm(contentIdAnswersSchema);
  const { errors } = form.formState;

  const close = () => {
    form.reset();
    onClose();
  };
  useEffect(() => {
    for (const [name, message] of Object.entries(fieldErrors ?? {}))
      if (CONTENT_ID_QUESTIONS.some((q) => q.id === name))
        form.setError(name as ContentIdQuestionId, { message });
  }, [fieldErrors, form]);

  const submitAnswers = form.handleSubmit((answers) => onAnswers(answers, close));
  // React bubbles events through the dialog's portal to the page: in the builder, the step's own form
  // would take this submit as "Continue". The questions are their own form.
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.stopPropagation();
    return submitAnswers(event);
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(isOpen) => (isOpen ? undefined : close())}
      title={title}
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
        <p className="text-sm text-zinc-400">{note}</p>
        <div className="flex flex-wrap justify-end gap-2">
          <Button type="button" variant="ghost" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" disabled={isPending}>
            {isPending ? 'Opting in...' : submitLabel}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
