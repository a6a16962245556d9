/** Reject a withdrawal: a reason is required; the amount goes back to the artist's balance. */
import { formatCents } from '@tunedrop/shared';
import { ADMIN_WITHDRAWALS_TEXTS, type AdminWithdrawal } from '@tunedrop/shared/schemas/admin-withdrawals';
import { type FormEvent, useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Field, Textarea } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';

export function RejectDialog({
  target,
  onOpenChange,
  onConfirm,
  isPending,
}: {
  target: AdminWithdrawal | null;
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
      const message = ADMIN_WITHDRAWALS_TEXTS.rejectionReasonRequired;
      notify.error(message.description, message.title);
      return;
    }
    onConfirm(reason.trim());
  };
  return (
    <Dialog
      open={target !== null}
      onOpenChange={onOpenChange}
      title="Reject Withdrawal"
      description={
        target
          ? `${formatCents(target.amountCents)} will be returned to ${target.email}'s available balance.`
          : undefined
      }
    >
      <form onSubmit={submit} noValidate className="space-y-4">
        <Field id="reject-reason" label="Reason" hint="The artist sees this reason.">
          <Textarea
            id="reject-reason"
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
            {isPending ? 'Rejecting...' : 'Reject Withdrawal'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
