/**
 * Admin Settings: payouts (issue 38). The providers behind one interface (bank-csv always on; PayPal, Stripe
 * Connect and Wise with their credentials and API base URL, encrypted at rest and shown back masked), each
 * with "Test connection"; the monthly run's day and what an artist's withdrawal request becomes.
 */
import {
  PAYOUT_PROVIDER_LABELS,
  type PayoutSettings,
  type ProviderSettingsView,
  payoutSettingsSchema,
  type WithdrawalMode,
} from '@tunedrop/shared/schemas/payouts';
import { CheckCircle2, PlugZap, XCircle } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Field, Input, Select } from '../../../components/ui/input';
import { SettingsCard } from '../../../components/ui/settings-card';
import { notify } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api';
import { formatDateTime } from '../../../lib/format';
import { usePayoutSettings, useSavePayoutSchedule, useTestProvider } from '../api/admin-payouts';
import { PROVIDER_FORMS, ProviderCredentialsForm } from './admin-provider-form';

export function AdminPayoutSettingsCard() {
  const settings = usePayoutSettings();
  return (
    <SettingsCard
      title="Payouts"
      description="The providers that pay artists and payees, and when payout runs happen."
      query={settings}
      loadError="Failed to load the payout settings."
      testId="payout-settings"
    >
      {(data) => (
        <div className="space-y-6">
          {data.providers.map((provider) => (
            <ProviderSection key={provider.provider} provider={provider} />
          ))}
          <ScheduleForm key={JSON.stringify(data.schedule)} schedule={data.schedule} />
        </div>
      )}
    </SettingsCard>
  );
}

function TestResult({ provider }: { provider: ProviderSettingsView }) {
  if (!provider.lastTest) return <p className="text-xs text-zinc-400">Not tested yet.</p>;
  const Icon = provider.lastTest.ok ? CheckCircle2 : XCircle;
  return (
    <p
      className={`flex items-center gap-1 text-xs ${provider.lastTest.ok ? 'text-emerald-300' : 'text-red-300'}`}
      data-testid={`provider-test-${provider.provider}`}
    >
      <Icon aria-hidden className="size-3.5" />
      {provider.lastTest.ok ? 'Connected' : 'Failed'}: {provider.lastTest.message} (
      {formatDateTime(provider.lastTest.at)})
    </p>
  );
}

/** What the masked hint shows the end of (settings.ts hintOf). */
const CREDENTIALS_HINT_LABELS = {
  'bank-csv': 'originator',
  paypal: 'client ID',
  stripe: 'secret key',
  wise: 'profile',
} as const;

function ProviderSection({ provider }: { provider: ProviderSettingsView }) {
  const test = useTestProvider();
  const label = PAYOUT_PROVIDER_LABELS[provider.provider];
  const onTest = () =>
    test.mutate(provider.provider, {
      onSuccess: (answer) =>
        answer.ok ? notify.success(answer.message, label) : notify.error(answer.message, label),
      onError: (failure) => notify.error(errorMessage(failure, 'The connection test failed.')),
    });
  return (
    <section
      className="space-y-2 rounded-lg border border-ink-700 p-4"
      aria-label={label}
      data-testid={`provider-${provider.provider}`}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-semibold text-white">{label}</h3>
        <span className="text-xs text-zinc-300">
          {provider.enabled ? 'Enabled' : 'Off'}
          {provider.credentialsHint
            ? ` · ${CREDENTIALS_HINT_LABELS[provider.provider]} ${provider.credentialsHint}`
            : ''}
        </span>
      </div>
      {provider.provider === 'bank-csv' ? (
        <p className="text-sm text-zinc-400">
          Always available: each run makes a payout file for your bank; mark it paid by uploading the bank's
          confirmation or by hand on the run's page.
        </p>
      ) : (
        <ProviderCredentialsForm spec={PROVIDER_FORMS[provider.provider]} provider={provider} />
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="outline" size="sm" onClick={onTest} disabled={test.isPending}>
          <PlugZap aria-hidden className="size-4" /> Test connection
        </Button>
        <TestResult provider={provider} />
      </div>
    </section>
  );
}

function ScheduleForm({ schedule }: { schedule: PayoutSettings }) {
  const save = useSavePayoutSchedule();
  const [day, setDay] = useState(schedule.scheduleDay === null ? '' : String(schedule.scheduleDay));
  const [mode, setMode] = useState<WithdrawalMode>(schedule.withdrawalMode);
  const [error, setError] = useState<string | null>(null);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = payoutSettingsSchema.safeParse({
      scheduleDay: day.trim() === '' ? null : Number(day),
      withdrawalMode: mode,
    });
    if (!parsed.success) {
      setError('Enter a day of the month from 1 to 28, or leave it empty to run payouts by hand.');
      return;
    }
    setError(null);
    save.mutate(parsed.data, {
      onSuccess: () => notify.success('Payout schedule saved.'),
      onError: (failure) => setError(errorMessage(failure, 'Failed to save the payout schedule.')),
    });
  };
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-3 sm:grid-cols-2" aria-label="Payout schedule">
      <Field
        id="payout-day"
        label="Monthly run on day"
        hint="1 to 28; empty: runs only by hand."
        error={error ?? undefined}
      >
        <Input
          id="payout-day"
          inputMode="numeric"
          value={day}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'payout-day-error' : 'payout-day-hint'}
          onChange={(event) => setDay(event.target.value)}
        />
      </Field>
      <Field id="payout-mode" label="An artist's withdrawal request">
        <Select
          id="payout-mode"
          value={mode}
          onChange={(event) => setMode(event.target.value as WithdrawalMode)}
        >
          <option value="next_run">Waits for the next run</option>
          <option value="immediate">Is paid at once, in a run of its own</option>
        </Select>
      </Field>
      <div className="sm:col-span-2">
        <Button type="submit" size="sm" disabled={save.isPending}>
          Save payout schedule
        </Button>
      </div>
    </form>
  );
}
