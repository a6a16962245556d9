/** The Wise recipient's fields of Payment Settings: currency, its account fields, the holder and address. */

import { COUNTRIES } from '@tunedrop/shared/schemas/countries';
import type { PaymentSettingsInput } from '@tunedrop/shared/schemas/wallet';
import { WISE_CURRENCIES } from '@tunedrop/shared/schemas/wise-recipient';
import type { UseFormRegister } from 'react-hook-form';
import { Field, Input, Select } from '../../../components/ui/input';

const CURRENCY_LABELS: Record<(typeof WISE_CURRENCIES)[number], string> = {
  EUR: 'EUR — bank account with IBAN',
  GBP: 'GBP — UK sort code and account number',
};

export function WiseDetailsFields({
  register,
  currency,
}: {
  register: UseFormRegister<PaymentSettingsInput>;
  currency: string | undefined;
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field id="wise-currency" label="Currency">
        <Select id="wise-currency" {...register('payment_details.wise_currency')}>
          <option value="">Choose…</option>
          {WISE_CURRENCIES.map((code) => (
            <option key={code} value={code}>
              {CURRENCY_LABELS[code]}
            </option>
          ))}
        </Select>
      </Field>
      <Field id="wise-holder" label="Account holder (first and last name)">
        <Input id="wise-holder" autoComplete="name" {...register('payment_details.wise_account_holder')} />
      </Field>
      {currency === 'EUR' ? (
        <Field id="wise-iban" label="IBAN">
          <Input id="wise-iban" autoComplete="off" {...register('payment_details.wise_iban')} />
        </Field>
      ) : null}
      {currency === 'GBP' ? (
        <>
          <Field id="wise-sort-code" label="Sort code">
            <Input
              id="wise-sort-code"
              inputMode="numeric"
              autoComplete="off"
              {...register('payment_details.wise_sort_code')}
            />
          </Field>
          <Field id="wise-account-number" label="Account number">
            <Input
              id="wise-account-number"
              inputMode="numeric"
              autoComplete="off"
              {...register('payment_details.wise_account_number')}
            />
          </Field>
        </>
      ) : null}
      <Field id="wise-address" label="Street address">
        <Input id="wise-address" autoComplete="address-line1" {...register('payment_details.wise_address')} />
      </Field>
      <Field id="wise-city" label="City">
        <Input id="wise-city" autoComplete="address-level2" {...register('payment_details.wise_city')} />
      </Field>
      <Field id="wise-post-code" label="Post code">
        <Input
          id="wise-post-code"
          autoComplete="postal-code"
          {...register('payment_details.wise_post_code')}
        />
      </Field>
      <Field id="wise-country" label="Country">
        <Select id="wise-country" autoComplete="country" {...register('payment_details.wise_country')}>
          <option value="">Choose…</option>
          {Object.entries(COUNTRIES).map(([code, name]) => (
            <option key={code} value={code}>
              {name}
            </option>
          ))}
        </Select>
      </Field>
    </div>
  );
}
