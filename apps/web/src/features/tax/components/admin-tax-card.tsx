/** Admin Settings: the tax regime and policy, treaty rates, signed forms, the year-end CSVs and the self-billing invoices (issue 38). */
import {
  type NoW9Policy,
  TAX_FORM_LABELS,
  type TaxRegime,
  type TaxScope,
  taxSettingsSchema,
  treatyRateSchema,
} from '@tunedrop/shared/schemas/tax';
import { type FormEvent, useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card, PageLoader } from '../../../components/ui/card';
import { Field, Input, Select } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api';
import {
  useAdminTaxForms,
  useSaveTaxSettings,
  useSaveTreatyRate,
  useTaxSettings,
  useTreatyRates,
} from '../api/admin-tax';
import { AdminInvoices } from './admin-invoices';

function SettingsForm() {
  const settings = useTaxSettings();
  const save = useSaveTaxSettings();
  const [regime, setRegime] = useState<TaxRegime>('us_withholding_agent');
  const [policy, setPolicy] = useState<NoW9Policy>('block');
  const [scope, setScope] = useState<TaxScope>('us_territory');
  useEffect(() => {
    if (!settings.data) return;
    setRegime(settings.data.regime);
    setPolicy(settings.data.noW9Policy);
    setScope(settings.data.scope);
  }, [settings.data]);
  if (settings.isPending) return <PageLoader />;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = taxSettingsSchema.safeParse({ regime, noW9Policy: policy, scope });
    if (!parsed.success) return notify.error(parsed.error.issues[0]?.message ?? 'Check the settings.');
    save.mutate(parsed.data, {
      onSuccess: () => notify.success('Tax settings saved.'),
      onError: (failure) => notify.error(errorMessage(failure, 'Failed to save the tax settings.')),
    });
  };
  return (
    <form onSubmit={onSubmit} className="grid gap-3 sm:grid-cols-3">
      <Field id="tax-regime" label="Tax regime">
        <Select
          id="tax-regime"
          value={regime}
          onChange={(event) => setRegime(event.target.value as TaxRegime)}
        >
          <option value="us_withholding_agent">US withholding agent (W-9 / W-8, 1099-MISC, 1042-S)</option>
          <option value="non_us">Non-US (VAT/GST, self-billing invoices)</option>
        </Select>
      </Field>
      <Field id="tax-policy" label="US payee without a certified W-9">
        <Select
          id="tax-policy"
          value={policy}
          onChange={(event) => setPolicy(event.target.value as NoW9Policy)}
        >
          <option value="block">Block payouts</option>
          <option value="withhold">Withhold 24% (backup withholding)</option>
        </Select>
      </Field>
      <Field id="tax-scope" label="Lines subject to withholding">
        <Select id="tax-scope" value={scope} onChange={(event) => setScope(event.target.value as TaxScope)}>
          <option value="us_territory">Sales in US territory only</option>
          <option value="all">All lines</option>
        </Select>
      </Field>
      <div className="sm:col-span-3">
        <Button type="submit" disabled={save.isPending}>
          Save tax settings
        </Button>
      </div>
    </form>
  );
}

function TreatyRates() {
  const rates = useTreatyRates();
  const save = useSaveTreatyRate();
  const [input, setInput] = useState({ country: '', ratePercent: '', article: '', effectiveFrom: '' });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = treatyRateSchema.safeParse(input);
    if (!parsed.success) return notify.error(parsed.error.issues[0]?.message ?? 'Check the rate.');
    save.mutate(parsed.data, {
      onSuccess: () => notify.success('Treaty rate saved.'),
      onError: (failure) => notify.error(errorMessage(failure, 'Failed to save the treaty rate.')),
    });
  };
  const current = (rates.data?.rates ?? []).filter((rate) => rate.effectiveTo === null);
  return (
    <details>
      <summary className="cursor-pointer text-sm text-zinc-200">
        Treaty rates on royalties (income code 12): {current.length} countries
      </summary>
      <form onSubmit={onSubmit} className="mt-2 grid gap-2 sm:grid-cols-5">
        {(['country', 'ratePercent', 'article', 'effectiveFrom'] as const).map((name) => (
          <Field
            key={name}
            id={`treaty-${name}`}
            label={
              {
                country: 'Country (ISO code)',
                ratePercent: 'Rate (%)',
                article: 'Article',
                effectiveFrom: 'From (YYYY-MM-DD)',
              }[name]
            }
          >
            <Input
              id={`treaty-${name}`}
              value={input[name]}
              onChange={(event) => setInput((old) => ({ ...old, [name]: event.target.value }))}
            />
          </Field>
        ))}
        <div className="self-end">
          <Button type="submit" disabled={save.isPending}>
            Set rate
          </Button>
        </div>
      </form>
      <table className="mt-2 w-full text-left text-xs text-zinc-300">
        <thead>
          <tr>
            <th>Country</th>
            <th>Rate</th>
            <th>Article</th>
            <th>From</th>
          </tr>
        </thead>
        <tbody>
          {current.map((rate) => (
            <tr key={rate.id}>
              <td>{rate.country}</td>
              <td>{rate.ratePercent}%</td>
              <td>{rate.article}</td>
              <td>{rate.effectiveFrom}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

function SignedForms() {
  const forms = useAdminTaxForms();
  const thisYear = new Date().getUTCFullYear();
  // Last year's files by default (filed in January); this year's so far to check them before the year ends.
  const [year, setYear] = useState(thisYear - 1);
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-end gap-3 text-sm text-zinc-300">
        <Field id="tax-report-year" label="Tax year">
          <Select
            id="tax-report-year"
            value={String(year)}
            onChange={(event) => setYear(Number(event.target.value))}
          >
            {[thisYear, thisYear - 1, thisYear - 2, thisYear - 3].map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </Select>
        </Field>
        <p className="pb-2">
          Year-end files for {year}:{' '}
          <a className="underline" href={`/api/admin/tax/reports/${year}/1099-misc`}>
            1099-MISC (CSV)
          </a>{' '}
          ·{' '}
          <a className="underline" href={`/api/admin/tax/reports/${year}/1042-s`}>
            1042-S (CSV)
          </a>
        </p>
      </div>
      <table className="w-full text-left text-xs text-zinc-300" aria-label="Signed tax forms">
        <thead>
          <tr>
            <th>Account</th>
            <th>Form</th>
            <th>Status</th>
            <th>TIN</th>
            <th>Treaty rate</th>
            <th>Valid until</th>
            <th>PDF</th>
          </tr>
        </thead>
        <tbody>
          {(forms.data?.forms ?? []).map((form) => (
            <tr key={form.id}>
              <td>{form.email}</td>
              <td>{TAX_FORM_LABELS[form.kind]}</td>
              <td>{form.statusReason ? `${form.status} (${form.statusReason})` : form.status}</td>
              <td>{form.tinMasked}</td>
              <td>{form.treatyRatePercent === null ? '' : `${form.treatyRatePercent}%`}</td>
              <td>{form.expiresOn ?? ''}</td>
              <td>
                <a className="underline" href={`/api/admin/tax/forms/${form.id}/pdf`}>
                  PDF
                </a>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function AdminTaxCard() {
  return (
    <Card className="space-y-4" data-testid="admin-tax">
      <div>
        <h2 className="text-lg font-semibold text-white">Tax</h2>
        <p className="text-sm text-zinc-400">
          Withholding on payouts, the tax forms payees sign, and the year-end files.
        </p>
      </div>
      <SettingsForm />
      <TreatyRates />
      <SignedForms />
      <AdminInvoices />
    </Card>
  );
}
