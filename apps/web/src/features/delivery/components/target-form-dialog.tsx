/** Add or edit a delivery target: name, URL (sftp://, s3://, file://), DPID, platforms, profile, credentials. */
import { PLATFORMS, type PlatformId } from '@tunedrop/shared';
import {
  type DeliveryTargetView,
  dpidSchema,
  hostKeySchema,
  TARGET_PROFILE_LABELS,
  TARGET_PROFILES,
  type TargetInput,
  type TargetPatch,
  targetInputSchema,
  targetPlatformsSchema,
  targetUrlScheme,
} from '@tunedrop/shared/schemas/delivery';
import { useEffect, useMemo, useState } from 'react';
import { z } from 'zod';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Field, FieldError, Input, Select, Textarea } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';
import { ApiError, errorMessage } from '../../../lib/api';
import { useZodForm } from '../../../lib/use-zod-form';
import { useSaveDeliveryTarget } from '../api/targets';

/**
 * The form's view of the shared target rules: the same field schemas, but credentials are text boxes
 * where empty means "none" (adding) or "keep the stored one" (editing), since they are never sent back.
 */
function targetFormSchema(isEdit: boolean) {
  const optionalText = z.string().trim();
  return z.object({
    name: targetInputSchema.shape.name,
    url: isEdit ? z.union([z.literal(''), targetInputSchema.shape.url]) : targetInputSchema.shape.url,
    dpid: dpidSchema,
    platforms: targetPlatformsSchema,
    profile: z.enum(TARGET_PROFILES),
    enabled: z.boolean(),
    privateKey: z.string().max(20_000),
    hostKey: hostKeySchema,
    s3Endpoint: z.union([
      z.literal(''),
      z.string().trim().url('Enter the endpoint as a URL, e.g. https://s3.example.com'),
    ]),
    s3Region: optionalText.max(100),
    s3AccessKeyId: optionalText.max(200),
    s3SecretAccessKey: z.string().max(500),
  });
}
type FormValues = z.input<ReturnType<typeof targetFormSchema>>;
type FormOutput = z.output<ReturnType<typeof targetFormSchema>>;
type FieldName = keyof FormValues;

const emptyValues: FormValues = {
  name: '',
  url: '',
  dpid: '',
  platforms: 'all',
  profile: 'release',
  enabled: true,
  privateKey: '',
  hostKey: '',
  s3Endpoint: '',
  s3Region: '',
  s3AccessKeyId: '',
  s3SecretAccessKey: '',
};

/**
 * `isHostKeyEdited`: when editing, the host key goes only if the admin changed it (a new address with the
 * old fingerprint left in the box would pin the old server's key; the server forgets it instead).
 */
function toBody(values: FormOutput, isEdit: boolean, isHostKeyEdited: boolean): TargetInput | TargetPatch {
  const isSftp = targetUrlScheme(values.url) === 'sftp' || (isEdit && !values.url);
  const s3 = {
    ...(values.s3Endpoint ? { endpoint: values.s3Endpoint } : {}),
    ...(values.s3Region ? { region: values.s3Region } : {}),
    ...(values.s3AccessKeyId ? { accessKeyId: values.s3AccessKeyId } : {}),
    ...(values.s3SecretAccessKey ? { secretAccessKey: values.s3SecretAccessKey } : {}),
  };
  return {
    name: values.name,
    dpid: values.dpid,
    platforms: values.platforms,
    profile: values.profile,
    enabled: values.enabled,
    ...(values.url || !isEdit ? { url: values.url } : {}),
    ...(values.privateKey.trim() ? { privateKey: values.privateKey } : {}),
    ...(Object.keys(s3).length > 0 ? { s3 } : {}),
    ...(isSftp && (isEdit ? isHostKeyEdited : values.hostKey) ? { hostKey: values.hostKey } : {}),
  };
}

export function TargetFormDialog({
  target,
  open,
  onOpenChange,
}: {
  /** null adds a new target. */
  target: DeliveryTargetView | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const isEdit = target !== null;
  const save = useSaveDeliveryTarget();
  const schema = useMemo(() => targetFormSchema(isEdit), [isEdit]);
  const form = useZodForm(schema, { defaultValues: emptyValues });
  /** The server's refusal (an unreachable enabled target, issue 26), shown in the dialog; the form keeps its values. */
  const [refusal, setRefusal] = useState<string | null>(null);
  const { errors } = form.formState;
  const platforms = form.watch('platforms');
  const url = form.watch('url');
  const profile = form.watch('profile');
  const isAll = platforms === 'all';
  const scheme = targetUrlScheme(url) ?? (url ? null : (target?.scheme ?? null));

  useEffect(() => {
    if (!open) return;
    setRefusal(null);
    form.reset(
      target
        ? {
            ...emptyValues,
            name: target.name,
            dpid: target.dpid,
            platforms: target.platforms,
            profile: target.profile,
            enabled: target.enabled,
            hostKey: target.hostKeyFingerprint ?? '',
          }
        : emptyValues,
    );
  }, [open, target, form]);

  const onSubmit = form.handleSubmit((values) => {
    const isHostKeyEdited = Boolean(form.formState.dirtyFields.hostKey);
    const variables = target
      ? { id: target.id, body: toBody(values, true, isHostKeyEdited) as TargetPatch }
      : { id: null, body: toBody(values, false, false) as TargetInput };
    setRefusal(null);
    save.mutate(variables, {
      onSuccess: (saved) => {
        notify.success(isEdit ? 'Target updated' : 'Target added', saved.name);
        onOpenChange(false);
      },
      onError: (error) => {
        if (error instanceof ApiError && error.fields) {
          for (const [name, message] of Object.entries(error.fields))
            if (name in form.getValues()) form.setError(name as FieldName, { message });
        }
        if (error instanceof ApiError && error.code === 'target_unreachable') {
          setRefusal(error.message);
          return;
        }
        notify.error(errorMessage(error, 'Failed to save the target'));
      },
    });
  });

  const fieldProps = (name: FieldName) => ({
    id: `target-${name}`,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `target-${name}-error` : undefined,
  });

  const selected: PlatformId[] = Array.isArray(platforms) ? platforms : [];
  const togglePlatform = (id: PlatformId, isChecked: boolean) =>
    form.setValue('platforms', isChecked ? [...selected, id] : selected.filter((item) => item !== id), {
      shouldDirty: true,
      shouldValidate: form.formState.isSubmitted,
    });

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!save.isPending) onOpenChange(next);
      }}
      title={target ? `Edit ${target.name}` : 'Add delivery target'}
      description="An aggregator serving every platform, or one store serving some."
      className="max-w-2xl"
    >
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <Field id="target-name" label="Name" error={errors.name?.message}>
          <Input {...fieldProps('name')} {...form.register('name')} placeholder="Aggregator" />
        </Field>
        <Field
          id="target-url"
          label="URL"
          error={errors.url?.message}
          hint={
            target
              ? `Now ${target.urlMasked}. Leave empty to keep the address and its credentials.`
              : 'sftp://user:password@host:22/path, s3://bucket/prefix or file:///absolute/folder'
          }
        >
          <Input
            {...fieldProps('url')}
            {...form.register('url')}
            autoComplete="off"
            spellCheck={false}
            placeholder={target ? 'Unchanged' : 'sftp://user:password@host:22/incoming'}
          />
        </Field>
        {scheme === 'sftp' || scheme === null ? (
          <Field
            id="target-privateKey"
            label="SFTP private key (optional)"
            error={errors.privateKey?.message}
            hint={
              target?.hasPrivateKey
                ? 'A key is stored. Paste a new one to replace it; leave empty to keep it.'
                : 'OpenSSH or PEM key text, instead of or besides a password in the URL. Stored encrypted.'
            }
          >
            <Textarea
              {...fieldProps('privateKey')}
              {...form.register('privateKey')}
              rows={3}
              spellCheck={false}
              autoComplete="off"
              className="font-mono text-xs"
              placeholder="-----BEGIN OPENSSH PRIVATE KEY-----"
            />
            <label className="mt-2 inline-flex cursor-pointer items-center gap-2 text-xs text-zinc-300">
              <span className="underline">Load the key from a file</span>
              <input
                type="file"
                className="sr-only"
                aria-label="SFTP private key file"
                onChange={async (event) => {
                  const file = event.target.files?.[0];
                  if (!file) return;
                  form.setValue('privateKey', await file.text(), { shouldDirty: true, shouldValidate: true });
                  event.target.value = '';
                }}
              />
            </label>
          </Field>
        ) : null}
        {scheme === 'sftp' ? (
          <Field
            id="target-hostKey"
            label="Host key fingerprint (optional)"
            error={errors.hostKey?.message}
            hint={
              target?.hostKeyFingerprint
                ? 'The key this server must answer with. Change it only when the store confirms a new key; empty learns it again at the next connection.'
                : 'SHA256:… as the store gives it (ssh-keygen -lf key.pub). Empty: the key seen at the first connection is recorded, and a different key later is refused.'
            }
          >
            <Input
              {...fieldProps('hostKey')}
              {...form.register('hostKey')}
              autoComplete="off"
              spellCheck={false}
              className="font-mono text-xs"
              placeholder="SHA256:…"
            />
          </Field>
        ) : null}
        {scheme === 's3' ? (
          <fieldset className="space-y-3 rounded-lg border border-ink-700 p-3">
            <legend className="px-1 text-sm font-medium text-zinc-200">Own S3 settings (optional)</legend>
            <p className="text-xs text-zinc-400">
              {target?.hasOwnS3Credentials
                ? 'Own credentials are stored; fill these in only to replace them.'
                : "Leave empty to use the server's S3_* settings."}
            </p>
            <div className="grid gap-3 sm:grid-cols-2">
              <Field id="target-s3Endpoint" label="Endpoint" error={errors.s3Endpoint?.message}>
                <Input {...fieldProps('s3Endpoint')} {...form.register('s3Endpoint')} autoComplete="off" />
              </Field>
              <Field id="target-s3Region" label="Region" error={errors.s3Region?.message}>
                <Input {...fieldProps('s3Region')} {...form.register('s3Region')} autoComplete="off" />
              </Field>
              <Field id="target-s3AccessKeyId" label="Access key id" error={errors.s3AccessKeyId?.message}>
                <Input
                  {...fieldProps('s3AccessKeyId')}
                  {...form.register('s3AccessKeyId')}
                  autoComplete="off"
                />
              </Field>
              <Field
                id="target-s3SecretAccessKey"
                label="Secret access key"
                error={errors.s3SecretAccessKey?.message}
              >
                <Input
                  {...fieldProps('s3SecretAccessKey')}
                  {...form.register('s3SecretAccessKey')}
                  type="password"
                  autoComplete="new-password"
                />
              </Field>
            </div>
          </fieldset>
        ) : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            id="target-dpid"
            label="Recipient party id (DPID)"
            error={errors.dpid?.message}
            hint="The store's or aggregator's DDEX Party ID."
          >
            <Input
              {...fieldProps('dpid')}
              {...form.register('dpid')}
              autoCapitalize="characters"
              placeholder="PADPIDA2013042401U"
            />
          </Field>
          <Field
            id="target-profile"
            label="Choreography profile"
            error={errors.profile?.message}
            hint={
              profile === 'youtube'
                ? "YouTube's DPID is PADPIDA2013020802I. It gets YouTube Music's Art Tracks and the tracks opted in to Content ID (YouTube_ContentID is added as a recipient)."
                : undefined
            }
          >
            <Select
              {...fieldProps('profile')}
              aria-describedby={
                errors.profile
                  ? 'target-profile-error'
                  : profile === 'youtube'
                    ? 'target-profile-hint'
                    : undefined
              }
              {...form.register('profile')}
            >
              {TARGET_PROFILES.map((profile) => (
                <option key={profile} value={profile}>
                  {TARGET_PROFILE_LABELS[profile]}
                </option>
              ))}
            </Select>
          </Field>
        </div>
        <fieldset aria-describedby={errors.platforms ? 'target-platforms-error' : undefined}>
          <legend className="mb-2 text-sm font-medium text-zinc-200">Platforms served</legend>
          <div className="flex flex-wrap gap-4 text-sm text-zinc-200">
            <label className="flex items-center gap-2">
              <input
                type="radio"
                name="target-platform-mode"
                checked={isAll}
                onChange={() => form.setValue('platforms', 'all', { shouldDirty: true })}
              />
              All platforms (aggregator)
            </label>
            <label className="flex items-center gap-2">
              <input
                type="radio"
                name="target-platform-mode"
                checked={!isAll}
                onChange={() => form.setValue('platforms', [], { shouldDirty: true })}
              />
              Selected platforms
            </label>
          </div>
          {!isAll ? (
            <div className="mt-3 grid grid-cols-2 gap-2 sm:grid-cols-3">
              {PLATFORMS.map((platform) => (
                <label key={platform.id} className="flex items-center gap-2 text-sm text-zinc-300">
                  <input
                    type="checkbox"
                    checked={selected.includes(platform.id)}
                    onChange={(event) => togglePlatform(platform.id, event.target.checked)}
                  />
                  {platform.name}
                </label>
              ))}
            </div>
          ) : null}
          <FieldError id="target-platforms-error">{errors.platforms?.message}</FieldError>
        </fieldset>
        <label className="flex items-center gap-2 text-sm text-zinc-200">
          <input type="checkbox" {...form.register('enabled')} />
          Enabled: new approvals are delivered to this target
        </label>
        {isEdit ? null : (
          <p className="-mt-2 text-xs text-zinc-400">
            An enabled target is tested first and not added if it cannot be reached.
          </p>
        )}
        {refusal ? (
          <p
            role="alert"
            className="rounded-lg border border-red-500/40 bg-red-500/10 p-3 text-sm text-red-300"
          >
            {refusal}
          </p>
        ) : null}
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending
              ? target
                ? 'Saving...'
                : 'Testing and saving...'
              : target
                ? 'Save target'
                : 'Add target'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
