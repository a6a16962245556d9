/** A dialog asking for a required reason (a rejection or a ban); a blank reason shows the spec's toast and an inline error. */
import { useEffect, useId, useState } from 'react';
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
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    if (open) {
      setReason('');
      setError(undefined);
    }
  }, [open]);
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={title} description={description}>
      <form
        noValidate
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (!reason.trim()) {
            setError(requiredMessage);
            notify.error(requiredMessage, requiredTitle);
            return;
          }
          onConfirm(reason.trim());
        }}
      >
        <Field id={`${id}-reason`} label={label} error={error} hint={hint}>
          <Textarea
            id={`${id}-reason`}
            rows={4}
            maxLength={1000}
            value={reason}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-reason-error` : undefined}
            onChange={(event) => {
              setReason(event.target.value);
              if (error) setError(undefined);
            }}
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
