/** Admin Settings: the operator's distribution fee per plan (record 189); an account's override is on its user card. */
import {
  FEE_PLAN_LABELS,
  FEE_PLANS,
  FEE_TEXTS,
  type FeeSettingsView,
  feeSettingsSchema,
} from '@tunedrop/shared/schemas/finance';
import { Save } from 'lucide-react';
import { useEffect } from 'react';
import { Button } from '../../../components/ui/button';
import { Field, Input } from '../../../components/ui/input';
import { SettingsCard } from '../../../components/ui/settings-card';
import { notify } from '../../../components/ui/toast';
import { ApiError, errorMessage } from '../../../lib/api';
import { useZodForm } from '../../../lib/use-zod-form';
import { useFeeSettings, useSaveFeeSettings } from '../api/finance';

export function FeeSettingsCard() {
  const settings = useFeeSettings();
  return (
    <SettingsCard
      title="Distribution fee"
      description="The share of each artist’s royalties the operator keeps, in percent of the gross, before expenses are recouped and splits are paid. It applies from the next posting; an account can have its own fee on the Users page."
      query={settings}
      loadError="Failed to load the fees."
    >
      {(data) => <FeeForm settings={data} />}
    </SettingsCard>
  );
}

function FeeForm({ settings }: { settings: FeeSettingsView }) {
  const save = useSaveFeeSettings();
  const form = useZodForm(feeSettingsSchema, { defaultValues: settings });
  useEffect(() => form.reset(settings), [settings, form]);

  const onSubmit = form.handleSubmit((values) =>
    save.mutate(values, {
      onSuccess: () => notify.success(FEE_TEXTS.saved),
      onError: (failure) => {
        for (const plan of FEE_PLANS) {
          const message = failure instanceof ApiError ? failure.fields?.[plan] : undefined;
          if (message) form.setError(plan, { message });
        }
        notify.error(errorMessage(failure, 'Failed to save the fees.'));
      },
    }),
  );

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-3">
        {FEE_PLANS.map((plan) => {
          const error = form.formState.errors[plan]?.message;
          const id = `fee-${plan}`;
          return (
            <Field key={plan} id={id} label={`${FEE_PLAN_LABELS[plan]} (%)`} error={error}>
              <Input
                id={id}
                inputMode="decimal"
                autoComplete="off"
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-error` : undefined}
                {...form.register(plan)}
              />
            </Field>
          );
        })}
      </div>
      <Button type="submit" disabled={save.isPending || !form.formState.isDirty}>
        <Save aria-hidden className="size-4" /> Save fees
      </Button>
    </form>
  );
}
