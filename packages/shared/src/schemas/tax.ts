/**
 * Tax (issue 38): the operator's regime and withholding policy, the interview that picks Form W-9, W-8BEN or
 * W-8BEN-E with one rule per schema (the web form and the server parse the same ones), TIN format checks,
 * and the shapes of the withholding decision and the form status. Certification texts: tax-certifications.ts.
 */
import { z } from 'zod';
import { safeText } from '../text';
import { isCountryCode } from './release-availability';

// ---------------------------------------------------------------- operator settings

export const TAX_REGIMES = ['us_withholding_agent', 'non_us'] as const;
export type TaxRegime = (typeof TAX_REGIMES)[number];
/** A US payee without a certified W-9: hold the payout, or withhold backup withholding at 24%. */
export const NO_W9_POLICIES = ['block', 'withhold'] as const;
export type NoW9Policy = (typeof NO_W9_POLICIES)[number];
/** Which ledger lines are subject: sales in US territory only (the default), or every line. */
export const TAX_SCOPES = ['us_territory', 'all'] as const;
export type TaxScope = (typeof TAX_SCOPES)[number];

export const BACKUP_WITHHOLDING_PERCENT = '24';
export const NO_FORM_FOREIGN_PERCENT = '30';
/** Form 1042-S income code for royalties on copyrights (music) and its treaty rates (IRS Table 1). */
export const ROYALTY_INCOME_CODE = '12';

export const taxSettingsSchema = z.object({
  regime: z.enum(TAX_REGIMES, { error: 'Choose the tax regime: US withholding agent or non-US.' }),
  noW9Policy: z.enum(NO_W9_POLICIES, {
    error: 'Choose what happens to a US payee without a certified W-9: block or withhold 24%.',
  }),
  scope: z.enum(TAX_SCOPES, { error: 'Choose which lines are subject: US territory only or all lines.' }),
});
export type TaxSettings = z.infer<typeof taxSettingsSchema>;
export const DEFAULT_TAX_SETTINGS: TaxSettings = {
  regime: 'us_withholding_agent',
  noW9Policy: 'block',
  scope: 'us_territory',
};

// ---------------------------------------------------------------- TIN formats

const digits = (value: string) => value.replace(/[\s-]/g, '');

/** SSN: 9 digits; area not 000, 666 or 9xx; group not 00; serial not 0000 (SSA's never-issued ranges). */
export function isSsn(value: string): boolean {
  const d = digits(value);
  if (!/^\d{9}$/.test(d)) return false;
  const area = d.slice(0, 3);
  return (
    area !== '000' && area !== '666' && area[0] !== '9' && d.slice(3, 5) !== '00' && d.slice(5) !== '0000'
  );
}

/** ITIN: 9 digits starting with 9, digits 4-5 in 50-65, 70-88, 90-92 or 94-99. */
export function isItin(value: string): boolean {
  const d = digits(value);
  if (!/^9\d{8}$/.test(d)) return false;
  const group = Number(d.slice(3, 5));
  return (
    (group >= 50 && group <= 65) ||
    (group >= 70 && group <= 88) ||
    (group >= 90 && group <= 92) ||
    (group >= 94 && group <= 99)
  );
}

/** EIN prefixes the IRS never assigns (its campus prefix list). */
const INVALID_EIN_PREFIXES = new Set([
  '00',
  '07',
  '08',
  '09',
  '17',
  '18',
  '19',
  '28',
  '29',
  '49',
  '69',
  '70',
  '78',
  '79',
  '89',
  '96',
  '97',
]);
export function isEin(value: string): boolean {
  const d = digits(value);
  return /^\d{9}$/.test(d) && !INVALID_EIN_PREFIXES.has(d.slice(0, 2));
}

/** The TIN as printed: 123-45-6789 for an SSN or ITIN, 12-3456789 for an EIN. */
export function formatTin(kind: 'ssn' | 'ein', value: string): string {
  const d = digits(value);
  return kind === 'ein'
    ? `${d.slice(0, 2)}-${d.slice(2)}`
    : `${d.slice(0, 3)}-${d.slice(3, 5)}-${d.slice(5)}`;
}

export const TAX_MESSAGES = {
  ssn: 'Enter a valid SSN or ITIN: 9 digits, such as 123-45-6789.',
  ein: 'Enter a valid EIN: 9 digits, such as 12-3456789.',
  name: 'Enter the name as shown on your income tax return.',
  country: 'Choose a country.',
  street: 'Enter the street address.',
  city: 'Enter the city or town.',
  usAddressOnW8:
    'A US address cannot be used on a W-8. If you are a US person, fill in Form W-9 instead; otherwise enter your address outside the United States.',
  poBox: 'Enter a permanent residence address, not a P.O. box or an in-care-of address.',
  foreignTin: 'Enter your foreign tax identifying number, or tick that your country does not require one.',
  dateOfBirth: 'Enter your date of birth (YYYY-MM-DD).',
  signature: 'Type your full name as it appears on line 1 to sign.',
  signer: 'Type the name of the person signing.',
  capacity: 'Confirm that you have the capacity to sign for the person or entity on line 1.',
  treatyArticle: 'Enter the treaty article and paragraph, such as 12(1).',
  treatyRate: 'Enter the treaty rate in percent, from 0 to 30.',
  treatyCountry: 'The treaty country must be the country of your permanent residence.',
  classification: 'Choose the federal tax classification.',
  status: 'Choose the entity type.',
  chapter4: 'Choose the FATCA status.',
} as const;

// ---------------------------------------------------------------- the forms

export const W9_CLASSIFICATIONS = [
  'individual',
  'c_corporation',
  's_corporation',
  'partnership',
  'trust_estate',
  'llc_c',
  'llc_s',
  'llc_p',
  'other',
] as const;
export type W9Classification = (typeof W9_CLASSIFICATIONS)[number];
export const W9_CLASSIFICATION_LABELS: Record<W9Classification, string> = {
  individual: 'Individual/sole proprietor',
  c_corporation: 'C corporation',
  s_corporation: 'S corporation',
  partnership: 'Partnership',
  trust_estate: 'Trust/estate',
  llc_c: 'LLC taxed as a C corporation',
  llc_s: 'LLC taxed as an S corporation',
  llc_p: 'LLC taxed as a partnership',
  other: 'Other',
};

export const W8BENE_ENTITY_TYPES = [
  'corporation',
  'partnership',
  'simple_trust',
  'grantor_trust',
  'complex_trust',
  'estate',
  'disregarded_entity',
  'tax_exempt_organization',
  'private_foundation',
] as const;
export const W8BENE_CHAPTER4_STATUSES = [
  'active_nffe',
  'passive_nffe',
  'publicly_traded_nffe',
  'participating_ffi',
  'exempt_beneficial_owner',
] as const;

const text = (max: number, message: string) =>
  safeText({ error: message }).trim().min(1, message).max(max, `Use at most ${max} characters.`);
const optionalText = (max: number) =>
  safeText()
    .trim()
    .max(max, `Use at most ${max} characters.`)
    .optional()
    .transform((value) => (value ? value : undefined));
const countrySchema = safeText({ error: TAX_MESSAGES.country })
  .trim()
  .toUpperCase()
  .refine(isCountryCode, TAX_MESSAGES.country);

export const taxAddressSchema = z.object({
  street: text(200, TAX_MESSAGES.street),
  city: text(120, TAX_MESSAGES.city),
  region: optionalText(120),
  postalCode: optionalText(20),
  country: countrySchema,
});
export type TaxAddress = z.infer<typeof taxAddressSchema>;

const PO_BOX = /\b(p\.?\s*o\.?\s*box|post\s+office\s+box|c\/o|in\s+care\s+of)\b/i;
/** A W-8 address: outside the United States (a US address invalidates a W-8). */
const foreignAddressSchema = taxAddressSchema.refine((address) => address.country !== 'US', {
  message: TAX_MESSAGES.usAddressOnW8,
  path: ['country'],
});

const sameName = (a: string, b: string) =>
  a.trim().replace(/\s+/g, ' ').toLowerCase() === b.trim().replace(/\s+/g, ' ').toLowerCase();

export const treatyClaimSchema = z.object({
  country: countrySchema,
  article: text(40, TAX_MESSAGES.treatyArticle),
  ratePercent: safeText({ error: TAX_MESSAGES.treatyRate })
    .trim()
    .regex(/^\d{1,2}(\.\d{1,2})?$/, TAX_MESSAGES.treatyRate)
    .refine((value) => Number(value) <= 30, TAX_MESSAGES.treatyRate),
  conditions: optionalText(500),
});
export type TreatyClaim = z.infer<typeof treatyClaimSchema>;

export const w9FormSchema = z
  .object({
    kind: z.literal('w9'),
    name: text(200, TAX_MESSAGES.name),
    businessName: optionalText(200),
    classification: z.enum(W9_CLASSIFICATIONS, { error: TAX_MESSAGES.classification }),
    tinType: z.enum(['ssn', 'ein'], { error: 'Choose SSN or EIN.' }),
    tin: safeText({ error: TAX_MESSAGES.ssn }).trim(),
    address: taxAddressSchema,
    /** Item 2 crossed out: the IRS notified the payee that backup withholding applies. */
    isSubjectToBackupWithholding: z.boolean().default(false),
    /** Signed the Part II certification; a W-9 may be given with its TIN only (uncertified). */
    isCertified: z.boolean(),
    signatureName: safeText().trim().max(200).default(''),
  })
  .superRefine((form, ctx) => {
    const isValid = form.tinType === 'ein' ? isEin(form.tin) : isSsn(form.tin) || isItin(form.tin);
    if (!isValid) {
      ctx.addIssue({
        code: 'custom',
        path: ['tin'],
        message: form.tinType === 'ein' ? TAX_MESSAGES.ein : TAX_MESSAGES.ssn,
      });
    }
    if (form.isCertified && !sameName(form.signatureName, form.name)) {
      ctx.addIssue({ code: 'custom', path: ['signatureName'], message: TAX_MESSAGES.signature });
    }
  });

export const w8benFormSchema = z
  .object({
    kind: z.literal('w8ben'),
    name: text(200, TAX_MESSAGES.name),
    citizenship: countrySchema,
    permanentAddress: foreignAddressSchema,
    mailingAddress: foreignAddressSchema.optional(),
    usTin: optionalText(11),
    foreignTin: optionalText(40),
    isForeignTinNotRequired: z.boolean().default(false),
    dateOfBirth: safeText({ error: TAX_MESSAGES.dateOfBirth })
      .trim()
      .regex(/^\d{4}-\d{2}-\d{2}$/, TAX_MESSAGES.dateOfBirth),
    treaty: treatyClaimSchema.optional(),
    signatureName: text(200, TAX_MESSAGES.signature),
    hasCapacity: z.literal(true, { error: TAX_MESSAGES.capacity }),
  })
  .superRefine((form, ctx) => w8Checks(form, ctx));

export const w8beneFormSchema = z
  .object({
    kind: z.literal('w8bene'),
    name: text(200, 'Enter the name of the organization.'),
    countryOfOrganization: countrySchema,
    entityType: z.enum(W8BENE_ENTITY_TYPES, { error: TAX_MESSAGES.status }),
    chapter4Status: z.enum(W8BENE_CHAPTER4_STATUSES, { error: TAX_MESSAGES.chapter4 }),
    permanentAddress: foreignAddressSchema,
    mailingAddress: foreignAddressSchema.optional(),
    usTin: optionalText(11),
    foreignTin: optionalText(40),
    isForeignTinNotRequired: z.boolean().default(false),
    treaty: treatyClaimSchema
      .extend({ limitationOnBenefits: text(200, 'Choose the limitation on benefits provision met.') })
      .optional(),
    signatureName: text(200, TAX_MESSAGES.signer),
    hasCapacity: z.literal(true, { error: TAX_MESSAGES.capacity }),
  })
  .superRefine((form, ctx) => w8Checks(form, ctx));

function w8Checks(
  form: {
    permanentAddress: TaxAddress;
    foreignTin?: string;
    isForeignTinNotRequired: boolean;
    treaty?: TreatyClaim;
  } & ({ kind: 'w8ben'; name: string; signatureName: string } | { kind: 'w8bene' }),
  ctx: z.RefinementCtx,
) {
  if (PO_BOX.test(form.permanentAddress.street)) {
    ctx.addIssue({ code: 'custom', path: ['permanentAddress', 'street'], message: TAX_MESSAGES.poBox });
  }
  if (!form.foreignTin && !form.isForeignTinNotRequired) {
    ctx.addIssue({ code: 'custom', path: ['foreignTin'], message: TAX_MESSAGES.foreignTin });
  }
  if (form.treaty && form.treaty.country !== form.permanentAddress.country) {
    ctx.addIssue({ code: 'custom', path: ['treaty', 'country'], message: TAX_MESSAGES.treatyCountry });
  }
  if (form.kind === 'w8ben' && !sameName(form.signatureName, form.name)) {
    ctx.addIssue({ code: 'custom', path: ['signatureName'], message: TAX_MESSAGES.signature });
  }
}

export const taxFormSchema = z.discriminatedUnion('kind', [w9FormSchema, w8benFormSchema, w8beneFormSchema]);
export type TaxFormInput = z.input<typeof taxFormSchema>;
export type TaxForm = z.infer<typeof taxFormSchema>;
export type TaxFormKind = TaxForm['kind'];
export const TAX_FORM_LABELS: Record<TaxFormKind, string> = {
  w9: 'Form W-9',
  w8ben: 'Form W-8BEN',
  w8bene: 'Form W-8BEN-E',
};

/** The interview's first answer, kept so a declared foreign payee without a valid W-8 is withheld at 30%. */
export const taxResidencySchema = z.object({
  isUsPerson: z.boolean({ error: 'Answer whether you are a US person.' }),
});

// ---------------------------------------------------------------- status and decisions

export const TAX_FORM_STATUSES = ['active', 'superseded', 'invalidated'] as const;
export type TaxFormStatus = (typeof TAX_FORM_STATUSES)[number];

/** What the artist's page and the admin list show: where the account stands, in plain words. */
export type TaxStanding = {
  state:
    | 'none'
    | 'w9_certified'
    | 'w9_uncertified'
    | 'w9_backup'
    | 'w8_valid'
    | 'w8_expiring'
    | 'w8_expired'
    | 'w8_invalid'
    | 'foreign_no_form';
  /** One sentence for the payee: what applies to their payouts. */
  summary: string;
  form: null | {
    id: string;
    kind: TaxFormKind;
    signedAt: string;
    signatureName: string;
    tinMasked: string;
    country: string | null;
    treatyRatePercent: string | null;
    expiresOn: string | null;
    sha256: string;
  };
};

export const treatyRateSchema = z.object({
  country: countrySchema,
  incomeCode: z.literal(ROYALTY_INCOME_CODE).default(ROYALTY_INCOME_CODE),
  ratePercent: safeText({ error: TAX_MESSAGES.treatyRate })
    .trim()
    .regex(/^\d{1,2}(\.\d{1,2})?$/, TAX_MESSAGES.treatyRate)
    .refine((value) => Number(value) <= 30, TAX_MESSAGES.treatyRate),
  article: text(40, TAX_MESSAGES.treatyArticle),
  effectiveFrom: safeText({ error: 'Enter the date the rate applies from (YYYY-MM-DD).' }).regex(
    /^\d{4}-\d{2}-\d{2}$/,
    'Enter the date the rate applies from (YYYY-MM-DD).',
  ),
});
export type TreatyRateInput = z.input<typeof treatyRateSchema>;
export type TreatyRate = z.infer<typeof treatyRateSchema> & { id: string; effectiveTo: string | null };

/** The non-US regime: a payee's VAT/GST registration, printed on their self-billing invoices. */
export const vatRegistrationSchema = z.object({
  vatNumber: safeText({ error: 'Enter the VAT or GST number.' })
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9][A-Z0-9 .-]{3,30}$/, 'Enter the VAT or GST number, such as DE123456789.'),
  ratePercent: safeText({ error: 'Enter the VAT rate in percent, from 0 to 30.' })
    .trim()
    .regex(/^\d{1,2}(\.\d{1,2})?$/, 'Enter the VAT rate in percent, from 0 to 30.')
    .refine((value) => Number(value) <= 30, 'Enter the VAT rate in percent, from 0 to 30.'),
});
export type VatRegistration = z.infer<typeof vatRegistrationSchema>;

export const TAX_REPORT_FORMS = ['1099-misc', '1042-s'] as const;
export type TaxReportForm = (typeof TAX_REPORT_FORMS)[number];
