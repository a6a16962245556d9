/** Request Withdrawal: the amount (number, step 0.01, the full balance to start with) and the §5 checks in order. */
import {
  centsToInputValue,
  checkWithdrawal,
  describeMaskedDetails,
  PAYOUT_HOLD_TEXTS,
  type WalletSummary,
  withdrawalFormSchema,
} from '@tunedrop/shared/schemas/wallet';
import { useEffect, useMemo } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Field, Input } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';
import { formatCents } from '../../../lib/format';
import { useZodForm } from '../../../lib/use-zod-form';
import { useRequestWithdrawal } from '../api/wallet';
import { showWalletError } from './show-wallet-error';

export function WithdrawalDialog({
  wallet,
  open,
  onOpenChange,
}: {
  wallet: WalletSummary;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const hasPaymentInfo = wallet.paymentDetails !== null;
  const { balanceCents, minimumWithdrawalCents: minimumCents } = wallet;
  const schema = useMemo(
    () => withdrawalFormSchema({ hasPaymentInfo, balanceCents, minimumCents }),
    [hasPaymentInfo, balanceCents, minimumCents],
  );
  const { register, handleSubmit, reset, getValues } = useZodForm(schema, { defaultValues: { amount: '' } });
  const request = useRequestWithdrawal();

  useEffect(() => {
    if (open) reset({ amount: centsToInputValue(wallet.balanceCents) });
  }, [open, wallet.balanceCents, reset]);

  // The spec shows the first failed check as a toast with its title (the same rule as the schema).
  const submit = handleSubmit(
    ({ amount }) =>
      request.mutate(amount, {
        onSuccess: (result) => {
          notify.success(
            'Withdrawal requested',
            `${formatCents(result.amountCents)} is on its way. Your request is now pending review.`,
          );
          onOpenChange(false);
        },
        onError: (error) => showWalletError(error, 'Failed to request withdrawal'),
      }),
    () => {
      const checked = checkWithdrawal({
        hasPaymentInfo,
        balanceCents,
        minimumCents,
        amount: getValues('amount'),
      });
      if (!checked.ok) notify.error(checked.error.description, checked.error.title);
    },
  );

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Request Withdrawal"
      description={`Available balance: ${formatCents(wallet.balanceCents)}. Minimum withdrawal: ${formatCents(wallet.minimumWithdrawalCents)}.`}
    >
      <form onSubmit={submit} noValidate className="space-y-4">
        {wallet.payoutHoldUntil ? (
          <p
            role="alert"
            className="rounded-lg border border-amber-500/40 bg-amber-500/10 p-3 text-sm text-amber-100"
          >
            {PAYOUT_HOLD_TEXTS.held(wallet.payoutHoldUntil)}
          </p>
        ) : null}
        <Field
          id="withdrawal-amount"
          label="Amount (USD)"
          hint={`Paid to: ${describeMaskedDetails(wallet.paymentDetails)}`}
        >
          <Input
            id="withdrawal-amount"
            type="number"
            inputMode="decimal"
            step="0.01"
            min="0"
            {...register('amount')}
            aria-describedby="withdrawal-amount-error"
          />
        </Field>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={request.isPending}>
            {request.isPending ? 'Requesting...' : 'Request Withdrawal'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
