/** The admin user card's fee override (record 189): empty follows the plan's fee. */
import { FEE_PLAN_LABELS, FEE_TEXTS, feePercentSchema } from '@tunedrop/shared/schemas/finance';
import { useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api';
import { useAccountFee, useSaveAccountFee } from '../api/account-fee';

/** Collapsed until opened, so a page of user cards asks for no fee until one is looked at. */
export function AccountFeeField({ userId, label }: { userId: string; label: string }) {
  const [isOpen, setOpen] = useState(false);
  return (
    <details
      className="text-sm"
      onToggle={(event) => setOpen((event.target as HTMLDetailsElement).open)}
      data-testid="account-fee"
    >
      <summary className="cursor-pointer text-zinc-300">Distribution fee</summary>
      {isOpen ? <AccountFeeForm userId={userId} label={label} /> : null}
    </details>
  );
}

function AccountFeeForm({ userId, label }: { userId: string; label: string }) {
  const fee = useAccountFee(userId);
  const save = useSaveAccountFee(userId);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setValue(fee.data?.override ?? ''), [fee.data]);
  if (fee.isError)
    return <p className="text-xs text-red-300">{errorMessage(fee.error, 'Failed to load the fee.')}</p>;
  if (!fee.data) return null;
  const id = `account-fee-${userId}`;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const typed = value.trim();
    const parsed = typed === '' ? null : feePercentSchema.safeParse(typed);
    if (parsed && !parsed.success) {
      setError(parsed.error.issues[0]?.message ?? FEE_TEXTS.percentInvalid);
      return;
    }
    setError(null);
    save.mutate(
      { feePercent: parsed ? parsed.data : null },
      {
        onSuccess: (saved) =>
          notify.success(saved.override === null ? FEE_TEXTS.accountCleared : FEE_TEXTS.accountSaved, label),
        onError: (failure) => notify.error(errorMessage(failure, 'Failed to save the fee.')),
      },
    );
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      className="mt-2 flex flex-wrap items-end gap-2"
      aria-label={`Fee of ${label}`}
    >
      <div>
        <label htmlFor={id} className="block text-xs text-zinc-400">
          Distribution fee (%) · {FEE_PLAN_LABELS[fee.data.plan]} plan: {fee.data.planPercent}%
        </label>
        <Input
          id={id}
          className="w-32"
          inputMode="decimal"
          autoComplete="off"
          placeholder={`${fee.data.planPercent} (plan)`}
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => setValue(event.target.value)}
        />
      </div>
      <Button type="submit" size="sm" variant="outline" disabled={save.isPending}>
        Save fee
      </Button>
      {error ? (
        <p id={`${id}-error`} role="alert" className="w-full text-xs text-red-300">
          {error}
        </p>
      ) : null}
    </form>
  );
}
