/**
 * Admin Settings: payouts (issue 38). The providers behind one interface (bank-csv always on; PayPal with
 * its REST app's credentials, webhook id and API base URL, encrypted at rest and shown back masked), each
 * with "Test connection"; the monthly run's day and what an artist's withdrawal request becomes.
 */
import {
  PAYOUT_PROVIDER_LABELS,
  type PayoutSettings,
  type ProviderSettingsView,
  payoutSettingsSchema,
  providerSettingsInputSchema,
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
import {
  usePayoutSettings,
  useSavePayoutSchedule,
  useSaveProvider,
  useTestProvider,
} from '../api/admin-payouts';
import { WiseSettingsForm } from './admin-wise-settings-form';

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
            ? ` · ${provider.provider === 'wise' ? 'profile' : 'client ID'} ${provider.credentialsHint}`
            : ''}
        </span>
      </div>
      {provider.provider === 'bank-csv' ? (
        <p className="text-sm text-zinc-400">
          Always available: each run makes a payout file for your bank; mark it paid by uploading the bank's
          confirmation or by hand on the run's page.
        </p>
      ) : provider.provider === 'wise' ? (
        <WiseSettingsForm provider={provider} />
      ) : (
        <PaypalForm provider={provider} />
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

function PaypalForm({ provider }: { provider: ProviderSettingsView }) {
  const save = useSaveProvider();
  const [isEnabled, setIsEnabled] = useState(provider.enabled);
  const [input, setInput] = useState({
    clientId: '',
    clientSecret: '',
    webhookId: '',
    baseUrl: provider.baseUrl ?? '',
  });
  const [error, setError] = useState<string | null>(null);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const hasNewCredentials = input.clientId.trim() !== '' || input.clientSecret.trim() !== '';
    const parsed = providerSettingsInputSchema.safeParse({
      provider: 'paypal',
      enabled: isEnabled,
      ...(hasNewCredentials
        ? {
            credentials: {
              clientId: input.clientId,
              clientSecret: input.clientSecret,
              webhookId: input.webhookId,
            },
          }
        : {}),
      ...(input.baseUrl.trim() ? { baseUrl: input.baseUrl.trim() } : {}),
    });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Check the PayPal settings.');
      return;
    }
    setError(null);
    save.mutate(parsed.data, {
      onSuccess: () => {
        notify.success('PayPal settings saved.');
        setInput((old) => ({ ...old, clientId: '', clientSecret: '', webhookId: '' }));
      },
      onError: (failure) => setError(errorMessage(failure, 'Failed to save the PayPal settings.')),
    });
  };
  const field = (name: keyof typeof input, label: string, hint?: string) => (
    <Field id={`paypal-${name}`} label={label} hint={hint}>
      <Input
        id={`paypal-${name}`}
        type={name === 'clientSecret' ? 'password' : 'text'}
        autoComplete="off"
        value={input[name]}
        aria-describedby={hint ? `paypal-${name}-hint` : undefined}
        onChange={(event) => setInput((old) => ({ ...old, [name]: event.target.value }))}
      />
    </Field>
  );
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-3" aria-label="PayPal settings">
      <label className="flex items-center gap-2 text-sm text-zinc-200">
        <input type="checkbox" checked={isEnabled} onChange={(event) => setIsEnabled(event.target.checked)} />
        Pay PayPal payees through PayPal Payouts
      </label>
      <div className="grid gap-3 sm:grid-cols-2">
        {field(
          'clientId',
          'Client ID',
          provider.hasCredentials ? 'Leave both empty to keep the saved credentials.' : undefined,
        )}
        {field('clientSecret', 'Client secret')}
        {field('webhookId', 'Webhook ID')}
        {field('baseUrl', 'API base URL', 'Empty: PayPal live (https://api-m.paypal.com).')}
      </div>
      {error ? (
        <p role="alert" className="text-sm text-red-300">
          {error}
        </p>
      ) : null}
      <Button type="submit" size="sm" disabled={save.isPending}>
        Save PayPal settings
      </Button>
    </form>
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
