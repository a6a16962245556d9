/** Admin Settings: the withdrawal minimum of payees (record 175); Basic and Pro keep the spec's minimums. */
import { centsToDecimal } from '@tunedrop/shared/money';
import { PAYEE_TEXTS, type PayeeSettingsView, payeeSettingsSchema } from '@tunedrop/shared/schemas/wallet';
import { Save } from 'lucide-react';
import { useEffect } from 'react';
import { Button } from '../../../components/ui/button';
import { Field, Input } from '../../../components/ui/input';
import { SettingsCard } from '../../../components/ui/settings-card';
import { notify } from '../../../components/ui/toast';
import { ApiError, errorMessage } from '../../../lib/api';
import { formatCents } from '../../../lib/format';
import { useZodForm } from '../../../lib/use-zod-form';
import { usePayeeSettings, useSavePayeeSettings } from '../api/payee-settings';

export function PayeeSettingsCard() {
  const settings = usePayeeSettings();
  return (
    <SettingsCard
      title="Payees"
      description="A payee joined through a royalty-split invitation and holds no plan. Their withdrawals need at least this balance; Basic ($50) and Pro ($20) are unchanged."
      query={settings}
      loadError="Failed to load the payee settings."
    >
      {(data) => <PayeeMinimumForm settings={data} />}
    </SettingsCard>
  );
}

function PayeeMinimumForm({ settings }: { settings: PayeeSettingsView }) {
  const save = useSavePayeeSettings();
  const form = useZodForm(payeeSettingsSchema, {
    defaultValues: { minimumWithdrawal: centsToDecimal(settings.minimumWithdrawalCents) },
  });
  const error = form.formState.errors.minimumWithdrawal?.message;
  useEffect(
    () => form.reset({ minimumWithdrawal: centsToDecimal(settings.minimumWithdrawalCents) }),
    [settings, form],
  );

  const onSubmit = form.handleSubmit((values) =>
    save.mutate(values, {
      onSuccess: () => notify.success(PAYEE_TEXTS.minimumSaved),
      onError: (failure) => {
        if (failure instanceof ApiError && failure.fields?.minimumWithdrawal)
          form.setError('minimumWithdrawal', { message: failure.fields.minimumWithdrawal });
        notify.error(errorMessage(failure, 'Failed to save the payee minimum.'));
      },
    }),
  );

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <Field
        id="payee-minimumWithdrawal"
        label="Payee minimum withdrawal (USD)"
        error={error}
        hint={
          settings.source === 'default'
            ? `Not set: ${formatCents(settings.minimumWithdrawalCents)} is used.`
            : 'From $1.00 to $1,000.00.'
        }
      >
        <Input
          id="payee-minimumWithdrawal"
          inputMode="decimal"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'payee-minimumWithdrawal-error' : undefined}
          autoComplete="off"
          {...form.register('minimumWithdrawal')}
        />
      </Field>
      <Button type="submit" disabled={save.isPending || !form.formState.isDirty}>
        <Save aria-hidden className="size-4" /> Save payee minimum
      </Button>
    </form>
  );
}
