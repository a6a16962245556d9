/**
 * Admin Settings, Wise (issue 38): the API token and profile id of the operator's Wise account, the public
 * key Wise signs webhooks with and the API base URL; encrypted at rest, the token never shown back.
 */
import { type ProviderSettingsView, providerSettingsInputSchema } from '@tunedrop/shared/schemas/payouts';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Field, Input, Textarea } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api';
import { useSaveProvider } from '../api/admin-payouts';

export function WiseSettingsForm({ provider }: { provider: ProviderSettingsView }) {
  const save = useSaveProvider();
  const [isEnabled, setIsEnabled] = useState(provider.enabled);
  const [input, setInput] = useState({
    apiToken: '',
    profileId: '',
    webhookPublicKey: '',
    baseUrl: provider.baseUrl ?? '',
  });
  const [error, setError] = useState<string | null>(null);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const hasNewCredentials = input.apiToken.trim() !== '' || input.profileId.trim() !== '';
    const parsed = providerSettingsInputSchema.safeParse({
      provider: 'wise',
      enabled: isEnabled,
      ...(hasNewCredentials
        ? {
            credentials: {
              apiToken: input.apiToken,
              profileId: input.profileId,
              webhookPublicKey: input.webhookPublicKey,
            },
          }
        : {}),
      ...(input.baseUrl.trim() ? { baseUrl: input.baseUrl.trim() } : {}),
    });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Check the Wise settings.');
      return;
    }
    setError(null);
    save.mutate(parsed.data, {
      onSuccess: () => {
        notify.success('Wise settings saved.');
        setInput((old) => ({ ...old, apiToken: '', profileId: '', webhookPublicKey: '' }));
      },
      onError: (failure) => setError(errorMessage(failure, 'Failed to save the Wise settings.')),
    });
  };
  const set = (name: keyof typeof input) => (event: { target: { value: string } }) =>
    setInput((old) => ({ ...old, [name]: event.target.value }));
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-3" aria-label="Wise settings">
      <label className="flex items-center gap-2 text-sm text-zinc-200">
        <input type="checkbox" checked={isEnabled} onChange={(event) => setIsEnabled(event.target.checked)} />
        Pay Wise payees through Wise
      </label>
      <p className="text-xs text-zinc-400">
        In the UK and EEA, Wise asks for your own approval to fund transfers: runs then stop at "Created —
        fund it in Wise", and Wise's events mark each payout paid once you fund it there.
      </p>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field
          id="wise-apiToken"
          label="API token"
          hint={
            provider.hasCredentials
              ? 'Leave the token and profile ID empty to keep the saved ones.'
              : undefined
          }
        >
          <Input
            id="wise-apiToken"
            type="password"
            autoComplete="off"
            value={input.apiToken}
            aria-describedby={provider.hasCredentials ? 'wise-apiToken-hint' : undefined}
            onChange={set('apiToken')}
          />
        </Field>
        <Field id="wise-profileId" label="Profile ID">
          <Input
            id="wise-profileId"
            inputMode="numeric"
            autoComplete="off"
            value={input.profileId}
            onChange={set('profileId')}
          />
        </Field>
        <Field id="wise-baseUrl" label="API base URL" hint="Empty: Wise live (https://api.wise.com).">
          <Input
            id="wise-baseUrl"
            autoComplete="off"
            value={input.baseUrl}
            aria-describedby="wise-baseUrl-hint"
            onChange={set('baseUrl')}
          />
        </Field>
        <Field
          id="wise-webhookPublicKey"
          label="Webhook public key (PEM)"
          hint="Wise's public key for webhook signatures, from Wise's webhook documentation."
        >
          <Textarea
            id="wise-webhookPublicKey"
            rows={3}
            value={input.webhookPublicKey}
            aria-describedby="wise-webhookPublicKey-hint"
            onChange={set('webhookPublicKey')}
          />
        </Field>
      </div>
      {error ? (
        <p role="alert" className="text-sm text-red-300">
          {error}
        </p>
      ) : null}
      <Button type="submit" size="sm" disabled={save.isPending}>
        Save Wise settings
      </Button>
    </form>
  );
}
