/** Payment Settings: bank account, PayPal or Wise, checked with the §5 rules; saved details are shown masked. */
import type { PaymentMethod } from '@tunedrop/shared';
import {
  describeMaskedDetails,
  type MaskedPaymentDetails,
  paymentSettingsMessage,
  paymentSettingsRequestSchema,
} from '@tunedrop/shared/schemas/wallet';
import { EMPTY_WISE_DETAILS } from '@tunedrop/shared/schemas/wise-recipient';
import { Building2, CreditCard, Globe } from 'lucide-react';
import { useEffect } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { cn } from '../../../components/ui/cn';
import { Field, Input } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';
import { firstErrorMessage, useZodForm } from '../../../lib/use-zod-form';
import { useSavePaymentSettings } from '../api/wallet';
import { showWalletError } from './show-wallet-error';
import { WiseDetailsFields } from './wise-details-fields';

const emptyDetails = {
  account_name: '',
  account_number: '',
  routing_number: '',
  bank_name: '',
  paypal_email: '',
  ...EMPTY_WISE_DETAILS,
};

export function PaymentSettingsForm({
  savedMethod: saved,
  savedDetails,
}: {
  savedMethod: PaymentMethod | null;
  savedDetails: MaskedPaymentDetails | null;
}) {
  // A Stripe account is chosen on the Payouts page's Stripe card, never typed here.
  const savedMethod = saved === 'stripe' ? null : saved;
  const form = useZodForm(paymentSettingsRequestSchema, {
    defaultValues: { payment_method: savedMethod ?? '', payment_details: emptyDetails },
  });
  const { register, handleSubmit, watch, getValues, setValue, reset } = form;
  const method = watch('payment_method');
  const wiseCurrency = watch('payment_details.wise_currency');
  const save = useSavePaymentSettings();

  useEffect(() => {
    if (savedMethod && !getValues('payment_method')) setValue('payment_method', savedMethod);
  }, [savedMethod, getValues, setValue]);

  // The spec shows each rule as a toast with its title, one at a time, in the rules' order.
  const submit = handleSubmit(
    (settings) =>
      save.mutate(settings, {
        onSuccess: (result) => {
          if (result.pendingConfirmation) {
            notify.success(
              'Check the owner’s email',
              `Confirm ${describeMaskedDetails(result.paymentDetails)} with the link we sent to ${result.pendingConfirmation.sentTo}.`,
            );
          } else {
            notify.success('Payment information saved', describeMaskedDetails(result.paymentDetails));
          }
          reset({ payment_method: settings.payment_method, payment_details: emptyDetails });
        },
        onError: (error) => showWalletError(error, 'Failed to save payment information'),
      }),
    (errors) => {
      const message = paymentSettingsMessage(firstErrorMessage(errors));
      notify.error(message.description, message.title);
    },
  );

  const options = [
    { value: 'bank' as const, label: 'Bank Account', icon: Building2 },
    { value: 'paypal' as const, label: 'PayPal', icon: CreditCard },
    { value: 'wise' as const, label: 'Wise', icon: Globe },
  ];

  return (
    <Card>
      <h2 className="text-lg font-semibold text-white">Payment Settings</h2>
      <p className="mt-1 text-sm text-zinc-400" data-testid="saved-payment-method">
        {savedDetails ? `Saved: ${describeMaskedDetails(savedDetails)}` : 'No payment method saved yet.'}
      </p>
      {savedDetails?.method === 'bank' ? (
        <dl className="mt-3 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
          <div className="flex gap-2">
            <dt className="text-zinc-400">Account name</dt>
            <dd className="text-zinc-100">{savedDetails.accountName}</dd>
          </div>
          <div className="flex gap-2">
            <dt className="text-zinc-400">Bank</dt>
            <dd className="text-zinc-100">{savedDetails.bankName}</dd>
          </div>
          <div className="flex gap-2">
            <dt className="text-zinc-400">Account number</dt>
            <dd className="text-zinc-100">{savedDetails.accountNumber}</dd>
          </div>
          <div className="flex gap-2">
            <dt className="text-zinc-400">Routing number</dt>
            <dd className="text-zinc-100">{savedDetails.routingNumber}</dd>
          </div>
        </dl>
      ) : null}
      <form onSubmit={submit} noValidate className="mt-5 space-y-4">
        <fieldset>
          <legend className="mb-2 text-sm font-medium text-zinc-200">Payment method</legend>
          <div className="grid gap-3 sm:grid-cols-3">
            {options.map((option) => (
              <label
                key={option.value}
                className={cn(
                  'flex cursor-pointer items-center gap-3 rounded-lg border px-4 py-3 text-sm',
                  method === option.value
                    ? 'border-brand-500 bg-brand-600/10 text-white'
                    : 'border-ink-700 text-zinc-300 hover:border-ink-700/60',
                )}
              >
                <input
                  type="radio"
                  value={option.value}
                  className="accent-brand-500"
                  {...register('payment_method')}
                />
                <option.icon aria-hidden className="size-4" />
                {option.label}
              </label>
            ))}
          </div>
        </fieldset>
        {method === 'bank' ? (
          <div className="grid gap-4 sm:grid-cols-2">
            <Field id="account-name" label="Account Name">
              <Input id="account-name" autoComplete="name" {...register('payment_details.account_name')} />
            </Field>
            <Field id="bank-name" label="Bank Name">
              <Input id="bank-name" {...register('payment_details.bank_name')} />
            </Field>
            <Field id="account-number" label="Account Number">
              <Input
                id="account-number"
                inputMode="numeric"
                autoComplete="off"
                {...register('payment_details.account_number')}
              />
            </Field>
            <Field id="routing-number" label="Routing Number">
              <Input
                id="routing-number"
                inputMode="numeric"
                autoComplete="off"
                {...register('payment_details.routing_number')}
              />
            </Field>
          </div>
        ) : null}
        {method === 'paypal' ? (
          <Field id="paypal-email" label="PayPal Email">
            <Input
              id="paypal-email"
              type="email"
              autoComplete="email"
              {...register('payment_details.paypal_email')}
            />
          </Field>
        ) : null}
        {method === 'wise' ? <WiseDetailsFields register={register} currency={wiseCurrency} /> : null}
        {savedDetails && method ? (
          <p className="text-xs text-zinc-400">Enter the details in full to replace the saved ones.</p>
        ) : null}
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save Payment Information'}
        </Button>
      </form>
    </Card>
  );
}
