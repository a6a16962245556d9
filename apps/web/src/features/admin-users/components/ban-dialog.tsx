/** Ban a user: the reason is required ('Ban reason required'). */
import { ADMIN_USERS_TEXTS } from '@tunedrop/shared/schemas/admin-users';
import { type FormEvent, useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Field, Textarea } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';

export function BanDialog({
  target,
  onOpenChange,
  onConfirm,
  isPending,
}: {
  target: { email: string } | null;
  onOpenChange: (open: boolean) => void;
  onConfirm: (reason: string) => void;
  isPending: boolean;
}) {
  const [reason, setReason] = useState('');
  useEffect(() => {
    if (target) setReason('');
  }, [target]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) {
      notify.error(
        ADMIN_USERS_TEXTS.banReasonRequired.description,
        ADMIN_USERS_TEXTS.banReasonRequired.title,
      );
      return;
    }
    onConfirm(reason.trim());
  };
  return (
    <Dialog
      open={target !== null}
      onOpenChange={onOpenChange}
      title="Ban User"
      description={target ? `${target.email} will no longer be able to upload music.` : undefined}
    >
      <form onSubmit={submit} noValidate className="space-y-4">
        <Field id="ban-reason" label="Reason">
          <Textarea
            id="ban-reason"
            rows={3}
            maxLength={500}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
          />
        </Field>
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" disabled={isPending}>
            {isPending ? 'Banning...' : 'Ban User'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
