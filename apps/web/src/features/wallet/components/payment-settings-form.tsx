/** Payment Settings: bank account or PayPal, checked with the §5 rules; saved details are shown masked. */
import {
  checkPaymentSettings,
  describeMaskedDetails,
  type MaskedPaymentDetails,
} from '@tunedrop/shared/schemas/wallet';
import { Building2, CreditCard } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { cn } from '../../../components/ui/cn';
import { Field, Input } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';
import { useSavePaymentSettings } from '../api/wallet';
import { showWalletError } from './show-wallet-error';

type Method = '' | 'bank' | 'paypal';
const emptyFields = {
  account_name: '',
  account_number: '',
  routing_number: '',
  bank_name: '',
  paypal_email: '',
};

export function PaymentSettingsForm({
  savedMethod,
  savedDetails,
}: {
  savedMethod: 'bank' | 'paypal' | null;
  savedDetails: MaskedPaymentDetails | null;
}) {
  const [method, setMethod] = useState<Method>(savedMethod ?? '');
  const [fields, setFields] = useState(emptyFields);
  const save = useSavePaymentSettings();

  useEffect(() => {
    if (savedMethod) setMethod((current) => current || savedMethod);
  }, [savedMethod]);

  const set = (name: keyof typeof emptyFields) => (event: { target: { value: string } }) =>
    setFields((current) => ({ ...current, [name]: event.target.value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkPaymentSettings({
      payment_method: method || null,
      payment_details:
        method === 'bank'
          ? {
              account_name: fields.account_name,
              account_number: fields.account_number,
              routing_number: fields.routing_number,
              bank_name: fields.bank_name,
            }
          : { paypal_email: fields.paypal_email },
    });
    if (!checked.ok) {
      notify.error(checked.error.description, checked.error.title);
      return;
    }
    save.mutate(checked.settings, {
      onSuccess: (result) => {
        notify.success('Payment information saved', describeMaskedDetails(result.paymentDetails));
        setFields(emptyFields);
      },
      onError: (error) => showWalletError(error, 'Failed to save payment information'),
    });
  };

  const options = [
    { value: 'bank' as const, label: 'Bank Account', icon: Building2 },
    { value: 'paypal' as const, label: 'PayPal', icon: CreditCard },
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
          <div className="grid gap-3 sm:grid-cols-2">
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
                  name="payment-method"
                  value={option.value}
                  checked={method === option.value}
                  onChange={() => setMethod(option.value)}
                  className="accent-brand-500"
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
              <Input
                id="account-name"
                autoComplete="name"
                value={fields.account_name}
                onChange={set('account_name')}
              />
            </Field>
            <Field id="bank-name" label="Bank Name">
              <Input id="bank-name" value={fields.bank_name} onChange={set('bank_name')} />
            </Field>
            <Field id="account-number" label="Account Number">
              <Input
                id="account-number"
                inputMode="numeric"
                autoComplete="off"
                value={fields.account_number}
                onChange={set('account_number')}
              />
            </Field>
            <Field id="routing-number" label="Routing Number">
              <Input
                id="routing-number"
                inputMode="numeric"
                autoComplete="off"
                value={fields.routing_number}
                onChange={set('routing_number')}
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
              value={fields.paypal_email}
              onChange={set('paypal_email')}
            />
          </Field>
        ) : null}
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
