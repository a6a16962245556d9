/**
 * /dashboard/api-keys, Account → API keys (issue 40, record 290): the account's keys for the public API
 * v1 with their scopes, expiry and last use; making one (its key shown once, to copy) and revoking one,
 * each revocation asked first. The server admits the account's owner and team admins only.
 */
import {
  API_KEY_EXPIRY_DAYS,
  API_KEY_TEXTS,
  API_SCOPE_LABELS,
  API_SCOPES,
  type ApiKeyView,
  type ApiScope,
  createApiKeySchema,
} from '@tunedrop/shared/schemas/api-keys';
import { KeyRound } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card, PageLoader } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { Field, FieldError, Input, Select } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api';
import { formatDate } from '../../../lib/format';
import { usePageTitle } from '../../../lib/use-page-title';
import { useViewer } from '../../../lib/viewer';
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from '../api/api-keys';

const ASSIGNABLE = (isAdmin: boolean) => API_SCOPES.filter((scope) => scope !== 'admin:*' || isAdmin);

export default function ApiKeysPage() {
  usePageTitle('API keys');
  const { data: viewer } = useViewer();
  const keys = useApiKeys();
  const create = useCreateApiKey();
  const revoke = useRevokeApiKey();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiScope[]>([]);
  const [expiry, setExpiry] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [shown, setShown] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyView | null>(null);
  const isAdmin = viewer?.roles.includes('admin') ?? false;

  if (keys.isPending) return <PageLoader />;
  if (keys.isError)
    return (
      <p role="alert" className="text-zinc-300">
        {keys.error.message}
      </p>
    );

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = createApiKeySchema.safeParse({
      name,
      scopes,
      expiresInDays: expiry ? Number(expiry) : null,
    });
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) found[String(issue.path[0])] ??= issue.message;
      setErrors(found);
      return;
    }
    setErrors({});
    create.mutate(parsed.data, {
      onSuccess: (data) => {
        setShown(data.key);
        setName('');
        setScopes([]);
        notify.success(`API key “${data.created.name}” created.`);
      },
      onError: (error) => notify.error(errorMessage(error, 'The key could not be created.')),
    });
  };
  const toggle = (scope: ApiScope) =>
    setScopes((current) =>
      current.includes(scope) ? current.filter((s) => s !== scope) : [...current, scope],
    );
  const confirmRevoke = () => {
    if (!revoking) return;
    const revoked = revoking.name;
    revoke.mutate(revoking.id, {
      onSuccess: () => {
        setRevoking(null);
        notify.success(`API key “${revoked}” revoked.`);
      },
      onError: (error) => {
        setRevoking(null);
        notify.error(errorMessage(error, 'The key could not be revoked.'));
      },
    });
  };

  return (
    <div className="space-y-6">
      <div className="flex items-center gap-3">
        <KeyRound aria-hidden className="size-7 text-brand-400" />
        <h1 className="text-2xl font-bold text-white">API keys</h1>
      </div>
      <p className="text-zinc-300">
        Keys let your other systems use the Tunedrop API at <code className="text-white">/api/v1</code> (the{' '}
        <a className="text-brand-300 underline" href="/api/v1/reference">
          API reference
        </a>{' '}
        and its{' '}
        <a className="text-brand-300 underline" href="/api/v1/openapi.json">
          OpenAPI document
        </a>
        ). A key acts for this account with your role here, only within its scopes.
      </p>

      {shown ? (
        <Card className="space-y-2 border-amber-500/40" data-testid="new-api-key">
          <h2 className="text-lg font-semibold text-white">Your new key</h2>
          <p className="text-sm text-amber-200">{API_KEY_TEXTS.shownOnce}</p>
          <Input readOnly aria-label="New API key" value={shown} onFocus={(e) => e.currentTarget.select()} />
          <div className="flex gap-2">
            <Button
              variant="outline"
              size="sm"
              onClick={() => {
                void navigator.clipboard?.writeText(shown).then(() => notify.success('Key copied.'));
              }}
            >
              Copy key
            </Button>
            <Button variant="outline" size="sm" onClick={() => setShown(null)}>
              Done
            </Button>
          </div>
        </Card>
      ) : null}

      <Card className="space-y-4">
        <h2 className="text-lg font-semibold text-white">Create a key</h2>
        <form className="space-y-4" onSubmit={onSubmit} noValidate>
          <Field id="api-key-name" label="Name" error={errors.name}>
            <Input id="api-key-name" value={name} maxLength={80} onChange={(e) => setName(e.target.value)} />
          </Field>
          <fieldset aria-describedby="api-key-scopes-error">
            <legend className="mb-1 text-sm font-medium text-zinc-200">Scopes</legend>
            <div className="grid gap-2 sm:grid-cols-2">
              {ASSIGNABLE(isAdmin).map((scope) => (
                <label key={scope} className="flex items-start gap-2 text-sm text-zinc-200">
                  <input
                    type="checkbox"
                    className="mt-1"
                    checked={scopes.includes(scope)}
                    onChange={() => toggle(scope)}
                  />
                  <span>
                    <code className="text-white">{scope}</code>
                    <span className="block text-zinc-400">{API_SCOPE_LABELS[scope]}</span>
                  </span>
                </label>
              ))}
            </div>
            <FieldError id="api-key-scopes-error">{errors.scopes}</FieldError>
          </fieldset>
          <Field id="api-key-expiry" label="Expires" error={errors.expiresInDays}>
            <Select id="api-key-expiry" value={expiry} onChange={(e) => setExpiry(e.target.value)}>
              <option value="">Never (until revoked)</option>
              {API_KEY_EXPIRY_DAYS.map((days) => (
                <option key={days} value={String(days)}>
                  In {days} days
                </option>
              ))}
            </Select>
          </Field>
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? 'Creating...' : 'Create key'}
          </Button>
        </form>
      </Card>

      <Card className="space-y-3">
        <h2 className="text-lg font-semibold text-white">Keys</h2>
        {keys.data.keys.length === 0 ? (
          <p className="text-zinc-400">No API keys yet.</p>
        ) : (
          <ul className="divide-y divide-ink-800" data-testid="api-keys">
            {keys.data.keys.map((key) => (
              <li key={key.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
                <div className="min-w-0 space-y-1">
                  <p className="text-white">
                    {key.name} <code className="text-sm text-zinc-400">{key.start}…</code>
                  </p>
                  <p className="text-sm text-zinc-400">{key.scopes.join(', ')}</p>
                  <p className="text-xs text-zinc-400">
                    Created {formatDate(key.createdAt)} by {key.createdBy} ·{' '}
                    {key.lastUsedAt ? `Last used ${formatDate(key.lastUsedAt)}` : 'Never used'} ·{' '}
                    {key.expiresAt ? `Expires ${formatDate(key.expiresAt)}` : 'No expiry'}
                  </p>
                </div>
                {key.revokedAt ? (
                  <span className="text-sm text-zinc-400">Revoked {formatDate(key.revokedAt)}</span>
                ) : (
                  <Button
                    variant="outline"
                    size="sm"
                    aria-label={`Revoke ${key.name}`}
                    onClick={() => setRevoking(key)}
                  >
                    Revoke
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </Card>

      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => {
          if (!open) setRevoking(null);
        }}
        title="Revoke API key"
        description={
          revoking ? `Revoke “${revoking.name}”? Systems using it are refused from the next request.` : ''
        }
        confirmLabel="Revoke key"
        onConfirm={confirmRevoke}
        isDestructive
        isPending={revoke.isPending}
      />
    </div>
  );
}
