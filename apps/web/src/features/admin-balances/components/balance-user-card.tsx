/** One user's balances with the inline edit (display/edit toggle; Cancel clears the inputs). */
import {
  BALANCE_TEXTS,
  type BalanceUser,
  balanceAmountSchema,
  balanceEditFormSchema,
} from '@tunedrop/shared/schemas/admin-balances';
import { centsToInputValue } from '@tunedrop/shared/schemas/wallet';
import { Pencil } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Field, Input } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';
import { formatCents } from '../../../lib/format';
import { useZodForm } from '../../../lib/use-zod-form';
import { useUpdateBalance } from '../api/admin-balances';

const emptyDraft = { balance: '', totalEarnings: '' };

/** The amount in cents when it passes the edit's rule, else null (for the live preview). */
function toCents(value: string): number | null {
  const parsed = balanceAmountSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export function BalanceUserCard({
  user,
  onSaved,
}: {
  user: BalanceUser;
  onSaved: (user: BalanceUser) => void;
}) {
  const [isEditing, setIsEditing] = useState(false);
  const { register, handleSubmit, reset, watch } = useZodForm(balanceEditFormSchema, {
    defaultValues: emptyDraft,
    reValidateMode: 'onSubmit',
  });
  const draft = watch();
  const update = useUpdateBalance();
  const idPrefix = `balance-${user.id}`;

  const startEdit = () => {
    reset({
      balance: centsToInputValue(user.balanceCents),
      totalEarnings: centsToInputValue(user.totalEarningsCents),
    });
    setIsEditing(true);
  };
  const cancel = () => {
    reset(emptyDraft);
    setIsEditing(false);
  };

  const balanceCents = toCents(draft.balance);
  const totalCents = toCents(draft.totalEarnings);
  const addedCents =
    balanceCents !== null && balanceCents > user.balanceCents ? balanceCents - user.balanceCents : 0;

  const save = handleSubmit(
    (values) =>
      update.mutate(
        {
          userId: user.id,
          input: {
            balanceCents: values.balance,
            totalEarningsCents: values.totalEarnings,
            pendingBalanceCents: user.pendingBalanceCents,
            expectedBalanceCents: user.balanceCents,
            expectedTotalEarningsCents: user.totalEarningsCents,
          },
        },
        {
          onSuccess: (result) => {
            const message = BALANCE_TEXTS.balanceUpdated(result.email);
            notify.success(message.title, message.description);
            onSaved(result);
            reset(emptyDraft);
            setIsEditing(false);
          },
          onError: () => notify.error('Failed to update balance'),
        },
      ),
    () => notify.error(BALANCE_TEXTS.invalidValues.description, BALANCE_TEXTS.invalidValues.title),
  );

  return (
    <Card className="space-y-4" data-testid="balance-user">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="font-semibold text-white">{user.artistName}</h3>
          <p className="truncate text-sm text-zinc-400">
            {user.email} · {user.fullName}
          </p>
        </div>
        {isEditing ? null : (
          <Button
            size="sm"
            variant="outline"
            onClick={startEdit}
            aria-label={`Edit balances of ${user.email}`}
          >
            <Pencil aria-hidden className="size-4" /> Edit
          </Button>
        )}
      </div>
      {isEditing ? (
        <form onSubmit={save} noValidate className="space-y-4">
          <div className="grid gap-4 sm:grid-cols-3">
            <Field id={`${idPrefix}-available`} label="Available">
              <Input
                id={`${idPrefix}-available`}
                type="number"
                step="0.01"
                min="0"
                inputMode="decimal"
                {...register('balance')}
              />
            </Field>
            <Field id={`${idPrefix}-total`} label="Total Earnings">
              <Input
                id={`${idPrefix}-total`}
                type="number"
                step="0.01"
                min="0"
                inputMode="decimal"
                {...register('totalEarnings')}
              />
            </Field>
            <Field id={`${idPrefix}-pending`} label="Pending" hint={BALANCE_TEXTS.pendingNotEditable}>
              <Input
                id={`${idPrefix}-pending`}
                type="number"
                step="0.01"
                min="0"
                readOnly
                value={centsToInputValue(user.pendingBalanceCents)}
              />
            </Field>
          </div>
          {addedCents > 0 && totalCents !== null ? (
            <p className="text-sm text-emerald-300" data-testid="earnings-preview">
              Total earnings will be {formatCents(totalCents + addedCents)} (+{formatCents(addedCents)} added
              for the raised balance).
            </p>
          ) : null}
          <div className="flex gap-2">
            <Button type="submit" size="sm" disabled={update.isPending}>
              {update.isPending ? 'Saving...' : 'Save'}
            </Button>
            <Button size="sm" variant="outline" onClick={cancel}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <dl className="grid gap-3 sm:grid-cols-3">
          {[
            ['Available', user.balanceCents, 'available'],
            ['Total Earnings', user.totalEarningsCents, 'total'],
            ['Pending', user.pendingBalanceCents, 'pending'],
          ].map(([label, cents, key]) => (
            <div key={key as string} className="rounded-lg bg-ink-800/60 px-3 py-2">
              <dt className="text-xs text-zinc-400">{label}</dt>
              <dd className="font-semibold text-white tabular-nums" data-testid={`user-${key}`}>
                {formatCents(cents as number)}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </Card>
  );
}
