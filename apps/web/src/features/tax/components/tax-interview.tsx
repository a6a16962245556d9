/**
 * The tax interview (issue 38): US person? then individual or entity? picks Form W-9, W-8BEN or W-8BEN-E;
 * the answers are checked with the same shared schema the server parses, the certification is shown word for
 * word, and the typed name signs it.
 */
import { COUNTRIES } from '@tunedrop/shared/schemas/release-availability';
import {
  type TaxFormInput,
  taxFormSchema,
  W8BENE_CHAPTER4_STATUSES,
  W8BENE_ENTITY_TYPES,
  W9_CLASSIFICATION_LABELS,
  W9_CLASSIFICATIONS,
} from '@tunedrop/shared/schemas/tax';
import {
  W8BEN_CAPACITY,
  W8BEN_CERTIFICATION,
  W8BENE_CAPACITY,
  W8BENE_CERTIFICATION,
  W9_CERTIFICATION,
  W9_ELECTRONIC_CONSENT,
  W9_ITEM_2_INSTRUCTION,
} from '@tunedrop/shared/schemas/tax-certifications';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Field, Input, Select } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';
import { ApiError, errorMessage } from '../../../lib/api';
import { useDeclareResidency, useSignTaxForm } from '../api/tax-standing';

type Kind = 'w9' | 'w8ben' | 'w8bene';
type Values = Record<string, string>;
const COUNTRY_OPTIONS = Object.entries(COUNTRIES).sort(([, a], [, b]) => a.localeCompare(b));

function CountrySelect({
  id,
  value,
  onChange,
}: {
  id: string;
  value: string;
  onChange: (v: string) => void;
}) {
  return (
    <Select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
      <option value="">Choose a country</option>
      {COUNTRY_OPTIONS.map(([code, name]) => (
        <option key={code} value={code}>
          {name}
        </option>
      ))}
    </Select>
  );
}

function Certification({ text }: { text: string }) {
  return (
    <div
      className="max-h-60 overflow-y-auto rounded border border-zinc-700 p-3 text-xs whitespace-pre-line text-zinc-300"
      data-testid="tax-certification"
    >
      {text}
    </div>
  );
}

const optional = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);

function build(kind: Kind, v: Values, flags: Record<string, boolean>): TaxFormInput {
  const address = (prefix: string) => ({
    street: v[`${prefix}street`] ?? '',
    city: v[`${prefix}city`] ?? '',
    region: optional(v[`${prefix}region`]),
    postalCode: optional(v[`${prefix}postalCode`]),
    country: v[`${prefix}country`] ?? '',
  });
  const treaty = flags.treaty
    ? { country: v.country ?? '', article: v.article ?? '', ratePercent: v.ratePercent ?? '' }
    : undefined;
  if (kind === 'w9') {
    return {
      kind,
      name: v.name ?? '',
      businessName: optional(v.businessName),
      classification: (v.classification ?? 'individual') as (typeof W9_CLASSIFICATIONS)[number],
      tinType: (v.tinType ?? 'ssn') as 'ssn' | 'ein',
      tin: v.tin ?? '',
      address: { ...address(''), country: 'US' },
      isSubjectToBackupWithholding: flags.backup ?? false,
      isCertified: flags.certify ?? false,
      signatureName: v.signatureName ?? '',
    };
  }
  const common = {
    name: v.name ?? '',
    permanentAddress: address(''),
    foreignTin: optional(v.foreignTin),
    isForeignTinNotRequired: flags.noForeignTin ?? false,
    signatureName: v.signatureName ?? '',
    hasCapacity: (flags.capacity ?? false) as true,
  };
  if (kind === 'w8ben') {
    return {
      kind,
      ...common,
      citizenship: v.citizenship ?? '',
      dateOfBirth: v.dateOfBirth ?? '',
      ...(treaty ? { treaty } : {}),
    };
  }
  return {
    kind,
    ...common,
    countryOfOrganization: v.countryOfOrganization ?? '',
    entityType: (v.entityType ?? '') as (typeof W8BENE_ENTITY_TYPES)[number],
    chapter4Status: (v.chapter4Status ?? '') as (typeof W8BENE_CHAPTER4_STATUSES)[number],
    ...(treaty ? { treaty: { ...treaty, limitationOnBenefits: v.lob ?? '' } } : {}),
  };
}

export function TaxInterview({ onDone }: { onDone: () => void }) {
  const [isUs, setIsUs] = useState<boolean | null>(null);
  const [isEntity, setIsEntity] = useState<boolean | null>(null);
  const kind: Kind | null =
    isUs === true ? 'w9' : isUs === false && isEntity !== null ? (isEntity ? 'w8bene' : 'w8ben') : null;
  const declare = useDeclareResidency();
  const answer = (value: boolean) => {
    setIsUs(value);
    declare.mutate(value);
  };
  return (
    <div className="space-y-4" data-testid="tax-interview">
      <fieldset className="space-y-1 text-sm text-zinc-200">
        <legend className="font-medium text-white">
          Are you a US person (a US citizen, a US resident alien, or a US company)?
        </legend>
        <label className="flex items-center gap-2">
          <input type="radio" name="tax-us-person" checked={isUs === true} onChange={() => answer(true)} />{' '}
          Yes, I am a US person
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" name="tax-us-person" checked={isUs === false} onChange={() => answer(false)} />{' '}
          No, I am not a US person
        </label>
      </fieldset>
      {isUs === false ? (
        <fieldset className="space-y-1 text-sm text-zinc-200">
          <legend className="font-medium text-white">Are you paid as an individual or as a company?</legend>
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name="tax-entity"
              checked={isEntity === false}
              onChange={() => setIsEntity(false)}
            />{' '}
            As an individual
          </label>
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name="tax-entity"
              checked={isEntity === true}
              onChange={() => setIsEntity(true)}
            />{' '}
            As a company or other entity
          </label>
        </fieldset>
      ) : null}
      {kind ? <TaxFormFields key={kind} kind={kind} onDone={onDone} /> : null}
    </div>
  );
}

function TaxFormFields({ kind, onDone }: { kind: Kind; onDone: () => void }) {
  const sign = useSignTaxForm();
  const [values, setValues] = useState<Values>(
    kind === 'w9' ? { tinType: 'ssn', classification: 'individual' } : {},
  );
  const [flags, setFlags] = useState<Record<string, boolean>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (name: string) => (value: string) => setValues((old) => ({ ...old, [name]: value }));
  const text = (
    name: string,
    label: ReactNode,
    props: { type?: string; hint?: string; autoComplete?: string } = {},
  ) => (
    <Field id={`tax-${name}`} label={label} error={errors[name]} hint={props.hint}>
      <Input
        id={`tax-${name}`}
        type={props.type ?? 'text'}
        autoComplete={props.autoComplete ?? 'off'}
        value={values[name] ?? ''}
        aria-invalid={errors[name] ? true : undefined}
        onChange={(event) => set(name)(event.target.value)}
      />
    </Field>
  );
  const box = (name: string, label: ReactNode) => (
    <label className="flex items-start gap-2 text-sm text-zinc-200">
      <input
        type="checkbox"
        className="mt-1"
        checked={flags[name] ?? false}
        onChange={(event) => setFlags((old) => ({ ...old, [name]: event.target.checked }))}
      />
      <span>{label}</span>
    </label>
  );
  const errorKey = (path: PropertyKey[]) =>
    path[0] === 'permanentAddress' || path[0] === 'address'
      ? String(path[1])
      : path[0] === 'treaty'
        ? String(path[1] === 'country' ? 'country' : path[1])
        : String(path[0]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const input = build(kind, values, flags);
    const parsed = taxFormSchema.safeParse(input);
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of parsed.error.issues) next[errorKey(issue.path)] ??= issue.message;
      setErrors(next);
      notify.error(parsed.error.issues[0]?.message ?? 'Check the form.');
      return;
    }
    setErrors({});
    sign.mutate(input, {
      onSuccess: () => {
        notify.success('Tax form signed.');
        onDone();
      },
      onError: (failure) => {
        if (failure instanceof ApiError && failure.fields) {
          const next: Record<string, string> = {};
          for (const [path, message] of Object.entries(failure.fields))
            next[errorKey(path.split('.'))] = message;
          setErrors(next);
        }
        notify.error(errorMessage(failure, 'Failed to sign the tax form.'));
      },
    });
  };

  const isW9 = kind === 'w9';
  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="space-y-4"
      aria-label={isW9 ? 'Form W-9' : kind === 'w8ben' ? 'Form W-8BEN' : 'Form W-8BEN-E'}
    >
      <h3 className="text-base font-semibold text-white">
        {isW9 ? 'Form W-9' : kind === 'w8ben' ? 'Form W-8BEN' : 'Form W-8BEN-E'}
      </h3>
      <div className="grid gap-3 sm:grid-cols-2">
        {text(
          'name',
          isW9
            ? 'Name (as shown on your income tax return)'
            : kind === 'w8ben'
              ? 'Name of the individual who is the beneficial owner'
              : 'Name of the organization',
        )}
        {isW9 ? (
          <>
            {text('businessName', 'Business name (optional)')}
            <Field id="tax-classification" label="Federal tax classification" error={errors.classification}>
              <Select
                id="tax-classification"
                value={values.classification ?? ''}
                onChange={(event) => set('classification')(event.target.value)}
              >
                {W9_CLASSIFICATIONS.map((code) => (
                  <option key={code} value={code}>
                    {W9_CLASSIFICATION_LABELS[code]}
                  </option>
                ))}
              </Select>
            </Field>
            <Field id="tax-tinType" label="Taxpayer identification number type">
              <Select
                id="tax-tinType"
                value={values.tinType ?? 'ssn'}
                onChange={(event) => set('tinType')(event.target.value)}
              >
                <option value="ssn">Social security number (or ITIN)</option>
                <option value="ein">Employer identification number</option>
              </Select>
            </Field>
            {text('tin', 'Taxpayer identification number', { hint: 'SSN 123-45-6789 or EIN 12-3456789' })}
          </>
        ) : kind === 'w8ben' ? (
          <>
            <Field id="tax-citizenship" label="Country of citizenship" error={errors.citizenship}>
              <CountrySelect
                id="tax-citizenship"
                value={values.citizenship ?? ''}
                onChange={set('citizenship')}
              />
            </Field>
            {text('dateOfBirth', 'Date of birth', { type: 'date' })}
          </>
        ) : (
          <>
            <Field
              id="tax-countryOfOrganization"
              label="Country of incorporation or organization"
              error={errors.countryOfOrganization}
            >
              <CountrySelect
                id="tax-countryOfOrganization"
                value={values.countryOfOrganization ?? ''}
                onChange={set('countryOfOrganization')}
              />
            </Field>
            <Field id="tax-entityType" label="Entity type (chapter 3 status)" error={errors.entityType}>
              <Select
                id="tax-entityType"
                value={values.entityType ?? ''}
                onChange={(event) => set('entityType')(event.target.value)}
              >
                <option value="">Choose</option>
                {W8BENE_ENTITY_TYPES.map((code) => (
                  <option key={code} value={code}>
                    {code.replace(/_/g, ' ')}
                  </option>
                ))}
              </Select>
            </Field>
            <Field id="tax-chapter4Status" label="FATCA status (chapter 4)" error={errors.chapter4Status}>
              <Select
                id="tax-chapter4Status"
                value={values.chapter4Status ?? ''}
                onChange={(event) => set('chapter4Status')(event.target.value)}
              >
                <option value="">Choose</option>
                {W8BENE_CHAPTER4_STATUSES.map((code) => (
                  <option key={code} value={code}>
                    {code.replace(/_/g, ' ').replace('nffe', 'NFFE').replace('ffi', 'FFI')}
                  </option>
                ))}
              </Select>
            </Field>
          </>
        )}
        {text(
          'street',
          isW9 ? 'Address (number, street, apt.)' : 'Permanent residence address (street; no P.O. box)',
        )}
        {text('city', 'City or town')}
        {text('region', isW9 ? 'State' : 'State or province (optional)')}
        {text('postalCode', isW9 ? 'ZIP code' : 'Postal code (optional)')}
        {isW9 ? null : (
          <Field id="tax-country" label="Country of permanent residence" error={errors.country}>
            <CountrySelect id="tax-country" value={values.country ?? ''} onChange={set('country')} />
          </Field>
        )}
        {isW9 ? null : text('foreignTin', 'Foreign tax identifying number')}
      </div>
      {isW9 ? (
        box(
          'backup',
          `The IRS has notified me that I am subject to backup withholding (item 2 is crossed out). ${W9_ITEM_2_INSTRUCTION}`,
        )
      ) : (
        <>
          {box('noForeignTin', 'My country of residence does not require a foreign tax identifying number.')}
          {box(
            'treaty',
            'Claim tax treaty benefits on royalties (income code 12) as a resident of the country above.',
          )}
          {flags.treaty ? (
            <div className="grid gap-3 sm:grid-cols-2">
              {text('article', 'Treaty article and paragraph', { hint: 'For example 12(1)' })}
              {text('ratePercent', 'Treaty rate of withholding (%)')}
              {kind === 'w8bene' ? text('lob', 'Limitation on benefits provision met') : null}
            </div>
          ) : null}
        </>
      )}
      <Certification
        text={
          isW9
            ? `${W9_CERTIFICATION}\n${W9_ELECTRONIC_CONSENT}`
            : kind === 'w8ben'
              ? W8BEN_CERTIFICATION
              : W8BENE_CERTIFICATION
        }
      />
      {isW9
        ? box(
            'certify',
            'I certify under penalties of perjury the statements above (sign the certification).',
          )
        : box('capacity', kind === 'w8ben' ? W8BEN_CAPACITY : W8BENE_CAPACITY)}
      {errors.hasCapacity ? <p className="text-sm text-red-400">{errors.hasCapacity}</p> : null}
      {text('signatureName', 'Type your full name to sign', { autoComplete: 'name' })}
      <Button type="submit" disabled={sign.isPending}>
        Sign {isW9 ? 'Form W-9' : kind === 'w8ben' ? 'Form W-8BEN' : 'Form W-8BEN-E'}
      </Button>
    </form>
  );
}
