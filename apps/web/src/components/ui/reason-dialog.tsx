/** A dialog asking for a required reason (a rejection or a ban); a blank reason shows the spec's toast and an inline error. */
import { useEffect, useId, useMemo } from 'react';
import { z } from 'zod';
import { useZodForm } from '../../lib/use-zod-form';
import { Button } from './button';
import { Dialog } from './dialog';
import { Field, Textarea } from './input';
import { notify } from './toast';

export function ReasonDialog({
  open,
  onOpenChange,
  title,
  description,
  label,
  hint,
  confirmLabel,
  pendingLabel,
  requiredTitle,
  requiredMessage,
  isPending,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  label: string;
  hint?: string;
  confirmLabel: string;
  /** Shown on the confirm button while the request runs. */
  pendingLabel?: string;
  requiredTitle: string;
  requiredMessage: string;
  isPending: boolean;
  onConfirm: (reason: string) => void;
}) {
  const id = useId();
  // The rule of every reason the server requires (rejections, bans): not blank once trimmed, with the
  // caller's spec message; the server checks the same and answers with that message's code.
  const schema = useMemo(
    () => z.object({ reason: z.string().trim().min(1, requiredMessage) }),
    [requiredMessage],
  );
  const { register, handleSubmit, reset, formState } = useZodForm(schema, { defaultValues: { reason: '' } });
  const error = formState.errors.reason?.message;
  useEffect(() => {
    if (open) reset({ reason: '' });
  }, [open, reset]);
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={title} description={description}>
      <form
        noValidate
        className="space-y-4"
        onSubmit={handleSubmit(
          ({ reason }) => onConfirm(reason),
          () => notify.error(requiredMessage, requiredTitle),
        )}
      >
        <Field id={`${id}-reason`} label={label} error={error} hint={hint}>
          <Textarea
            id={`${id}-reason`}
            rows={4}
            maxLength={1000}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-reason-error` : undefined}
            {...register('reason')}
          />
        </Field>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" disabled={isPending}>
            {isPending && pendingLabel ? pendingLabel : confirmLabel}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
