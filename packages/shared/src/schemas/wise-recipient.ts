/**
 * A payee's Wise recipient (issue 38): the details Wise's "Create a recipient account" (`POST /v1/accounts`)
 * needs for the currencies we pay, checked once here for the form and the server. EUR is paid to an IBAN,
 * GBP to a sort code and account number; the address is required because payouts leave a USD balance
 * (Wise requires the recipient's address when the source currency is USD).
 */
import { z } from 'zod';
import { safeText } from '../text';
import { isCountryCode } from './countries';

export const WISE_CURRENCIES = ['EUR', 'GBP'] as const;
export type WiseCurrency = (typeof WISE_CURRENCIES)[number];

export const WISE_TEXTS = {
  holder: 'Enter the account holder’s first and last name',
  currency: 'Choose the currency you are paid in',
  iban: 'Enter a valid IBAN',
  sortCode: 'Enter the 6-digit sort code',
  accountNumber: 'Enter the 8-digit account number',
  country: 'Choose the country of your address',
  city: 'Enter your city',
  postCode: 'Enter your post code',
  address: 'Enter your street address',
} as const;

/** ISO 13616: letters moved to numbers, the remainder mod 97 is 1. */
export function isValidIban(value: string): boolean {
  const iban = value.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const moved = `${iban.slice(4)}${iban.slice(0, 4)}`;
  let remainder = 0;
  for (const char of moved) {
    const digits = /[A-Z]/.test(char) ? String(char.charCodeAt(0) - 55) : char;
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

const compact = (value: string) => value.replace(/[\s-]+/g, '');

/** What is stored (encrypted) and sent to Wise: compacted numbers, upper-case IBAN and country. */
export type WiseDetails = {
  wise_account_holder: string;
  wise_currency: WiseCurrency;
  wise_iban: string;
  wise_sort_code: string;
  wise_account_number: string;
  wise_country: string;
  wise_city: string;
  wise_post_code: string;
  wise_address: string;
};

const text = (message: string, max = 140) =>
  safeText({ error: message }).trim().min(1, message).max(max, message);

/** The Wise fields of a payment-settings request; the other method's fields never reach here. */
export const wiseDetailsSchema = z
  .object({
    wise_account_holder: text(WISE_TEXTS.holder).refine(
      (name) => name.split(/\s+/).filter(Boolean).length >= 2,
      WISE_TEXTS.holder,
    ),
    wise_currency: safeText({ error: WISE_TEXTS.currency })
      .refine((code) => (WISE_CURRENCIES as readonly string[]).includes(code), WISE_TEXTS.currency)
      .transform((code) => code as WiseCurrency),
    wise_iban: safeText().trim().max(42).default(''),
    wise_sort_code: safeText().trim().max(12).default(''),
    wise_account_number: safeText().trim().max(20).default(''),
    wise_country: text(WISE_TEXTS.country, 2)
      .transform((code) => code.toUpperCase())
      .refine(isCountryCode, WISE_TEXTS.country),
    wise_city: text(WISE_TEXTS.city, 85),
    wise_post_code: text(WISE_TEXTS.postCode, 20),
    wise_address: text(WISE_TEXTS.address, 140),
  })
  .superRefine((value, ctx) => {
    if (value.wise_currency === 'EUR' && !isValidIban(value.wise_iban)) {
      ctx.addIssue({ code: 'custom', path: ['wise_iban'], message: WISE_TEXTS.iban });
    }
    if (value.wise_currency === 'GBP') {
      if (!/^\d{6}$/.test(compact(value.wise_sort_code)))
        ctx.addIssue({ code: 'custom', path: ['wise_sort_code'], message: WISE_TEXTS.sortCode });
      if (!/^\d{8}$/.test(compact(value.wise_account_number)))
        ctx.addIssue({ code: 'custom', path: ['wise_account_number'], message: WISE_TEXTS.accountNumber });
    }
  })
  .transform(
    (value): WiseDetails => ({
      ...value,
      wise_iban: value.wise_currency === 'EUR' ? compact(value.wise_iban).toUpperCase() : '',
      wise_sort_code: value.wise_currency === 'GBP' ? compact(value.wise_sort_code) : '',
      wise_account_number: value.wise_currency === 'GBP' ? compact(value.wise_account_number) : '',
    }),
  );

/** An empty form: the schema's starting point (each field then says what it needs). */
export const EMPTY_WISE_DETAILS = {
  wise_account_holder: '',
  wise_currency: '',
  wise_iban: '',
  wise_sort_code: '',
  wise_account_number: '',
  wise_country: '',
  wise_city: '',
  wise_post_code: '',
  wise_address: '',
};

const loose = () => safeText().max(200).optional();
/** The loose request's Wise fields (lengths only), before `wiseDetailsSchema` runs. */
export const WISE_INPUT_FIELDS = {
  wise_account_holder: loose(),
  wise_currency: loose(),
  wise_iban: loose(),
  wise_sort_code: loose(),
  wise_account_number: loose(),
  wise_country: loose(),
  wise_city: loose(),
  wise_post_code: loose(),
  wise_address: loose(),
};

/** The account as its owner sees it back: the last four characters only. */
export function wiseAccountTail(details: WiseDetails): string {
  const account = details.wise_currency === 'EUR' ? details.wise_iban : details.wise_account_number;
  return account.slice(-4);
}

/** Saved Wise details as shown back to their owner. */
export function maskWiseDetails(details: WiseDetails, mask: string) {
  return {
    method: 'wise' as const,
    accountHolder: details.wise_account_holder,
    currency: details.wise_currency,
    account: `${mask} ${wiseAccountTail(details)}`,
  };
}
