/**
 * Admin Settings, one payout provider's credentials (issue 38): PayPal, Stripe Connect and Wise share this
 * form, each described by a spec (its fields, which of them make a new set of credentials, its texts).
 * Credentials are encrypted at rest and never shown back, so empty key fields keep the saved ones.
 */
import { type ProviderSettingsView, providerSettingsInputSchema } from '@tunedrop/shared/schemas/payouts';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Field, Input, Textarea } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api';
import { useSaveProvider } from '../api/admin-payouts';

type CredentialField = {
  name: string;
  label: string;
  kind?: 'secret' | 'numeric' | 'multiline';
  hint?: string;
};

export type ProviderFormSpec = {
  provider: 'paypal' | 'stripe' | 'wise';
  /** The provider's name in the form's texts ("Save PayPal settings"). */
  name: string;
  enableLabel: string;
  note?: string;
  fields: CredentialField[];
  /** Typing any of these sends a new set of credentials; all empty keeps the saved set. */
  keyFields: string[];
  keepHint: string;
  baseUrlHint: string;
};

export const PROVIDER_FORMS: Record<ProviderFormSpec['provider'], ProviderFormSpec> = {
  paypal: {
    provider: 'paypal',
    name: 'PayPal',
    enableLabel: 'Pay PayPal payees through PayPal Payouts',
    fields: [
      { name: 'clientId', label: 'Client ID' },
      { name: 'clientSecret', label: 'Client secret', kind: 'secret' },
      { name: 'webhookId', label: 'Webhook ID' },
    ],
    keyFields: ['clientId', 'clientSecret'],
    keepHint: 'Leave both empty to keep the saved credentials.',
    baseUrlHint: 'Empty: PayPal live (https://api-m.paypal.com).',
  },
  stripe: {
    provider: 'stripe',
    name: 'Stripe',
    enableLabel: 'Pay Stripe payees through Stripe Connect',
    note: 'Point your Stripe webhook endpoints (the platform and Connect events) at /api/payouts/webhooks/stripe; artists connect their own Stripe account from their Payouts page.',
    fields: [
      { name: 'secretKey', label: 'Secret key', kind: 'secret' },
      { name: 'webhookSecret', label: 'Webhook signing secret', kind: 'secret' },
      {
        name: 'connectWebhookSecret',
        label: 'Connect webhook signing secret',
        kind: 'secret',
        hint: 'Only when Connect events go to a second endpoint.',
      },
    ],
    keyFields: ['secretKey'],
    keepHint: 'Leave the secret key empty to keep the saved credentials.',
    baseUrlHint: 'Empty: Stripe live (https://api.stripe.com).',
  },
  wise: {
    provider: 'wise',
    name: 'Wise',
    enableLabel: 'Pay Wise payees through Wise',
    note: 'In the UK and EEA, Wise asks for your own approval to fund transfers: runs then stop at "Created — fund it in Wise", and Wise\'s events mark each payout paid once you fund it there.',
    fields: [
      { name: 'apiToken', label: 'API token', kind: 'secret' },
      { name: 'profileId', label: 'Profile ID', kind: 'numeric' },
      {
        name: 'webhookPublicKey',
        label: 'Webhook public key (PEM)',
        kind: 'multiline',
        hint: "Wise's public key for webhook signatures, from Wise's webhook documentation.",
      },
    ],
    keyFields: ['apiToken', 'profileId'],
    keepHint: 'Leave the token and profile ID empty to keep the saved ones.',
    baseUrlHint: 'Empty: Wise live (https://api.wise.com).',
  },
};

const emptyCredentials = (spec: ProviderFormSpec) =>
  Object.fromEntries(spec.fields.map((field) => [field.name, ''])) as Record<string, string>;

export function ProviderCredentialsForm({
  spec,
  provider,
}: {
  spec: ProviderFormSpec;
  provider: ProviderSettingsView;
}) {
  const save = useSaveProvider();
  const [isEnabled, setIsEnabled] = useState(provider.enabled);
  const [credentials, setCredentials] = useState(() => emptyCredentials(spec));
  const [baseUrl, setBaseUrl] = useState(provider.baseUrl ?? '');
  const [error, setError] = useState<string | null>(null);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const hasNewCredentials = spec.keyFields.some((name) => (credentials[name] ?? '').trim() !== '');
    const parsed = providerSettingsInputSchema.safeParse({
      provider: spec.provider,
      enabled: isEnabled,
      ...(hasNewCredentials ? { credentials } : {}),
      ...(baseUrl.trim() ? { baseUrl: baseUrl.trim() } : {}),
    });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? `Check the ${spec.name} settings.`);
      return;
    }
    setError(null);
    save.mutate(parsed.data, {
      onSuccess: () => {
        notify.success(`${spec.name} settings saved.`);
        setCredentials(emptyCredentials(spec));
      },
      onError: (failure) => setError(errorMessage(failure, `Failed to save the ${spec.name} settings.`)),
    });
  };
  const fieldId = (name: string) => `${spec.provider}-${name}`;
  const input = (field: CredentialField) => {
    const id = fieldId(field.name);
    const hint = field.name === spec.keyFields[0] && provider.hasCredentials ? spec.keepHint : field.hint;
    const onChange = (event: { target: { value: string } }) =>
      setCredentials((old) => ({ ...old, [field.name]: event.target.value }));
    return (
      <Field key={field.name} id={id} label={field.label} hint={hint}>
        {field.kind === 'multiline' ? (
          <Textarea
            id={id}
            rows={3}
            value={credentials[field.name]}
            aria-describedby={hint ? `${id}-hint` : undefined}
            onChange={onChange}
          />
        ) : (
          <Input
            id={id}
            type={field.kind === 'secret' ? 'password' : 'text'}
            inputMode={field.kind === 'numeric' ? 'numeric' : undefined}
            autoComplete="off"
            value={credentials[field.name]}
            aria-describedby={hint ? `${id}-hint` : undefined}
            onChange={onChange}
          />
        )}
      </Field>
    );
  };
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-3" aria-label={`${spec.name} settings`}>
      <label className="flex items-center gap-2 text-sm text-zinc-200">
        <input type="checkbox" checked={isEnabled} onChange={(event) => setIsEnabled(event.target.checked)} />
        {spec.enableLabel}
      </label>
      {spec.note ? <p className="text-xs text-zinc-400">{spec.note}</p> : null}
      <div className="grid gap-3 sm:grid-cols-2">
        {spec.fields.map(input)}
        <Field id={fieldId('baseUrl')} label="API base URL" hint={spec.baseUrlHint}>
          <Input
            id={fieldId('baseUrl')}
            autoComplete="off"
            value={baseUrl}
            aria-describedby={`${fieldId('baseUrl')}-hint`}
            onChange={(event) => setBaseUrl(event.target.value)}
          />
        </Field>
      </div>
      {error ? (
        <p role="alert" className="text-sm text-red-300">
          {error}
        </p>
      ) : null}
      <Button type="submit" size="sm" disabled={save.isPending}>
        Save {spec.name} settings
      </Button>
    </form>
  );
}
