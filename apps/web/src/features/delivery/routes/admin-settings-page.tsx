/**
 * /admin/settings (admin only, issue 15): the codes the operator assigns at approval (ISRC registrant,
 * UPC/GS1 company prefix) and the DDEX sender that signs every delivered message.
 */
import {
  DELIVERY_MESSAGES,
  type DeliverySettingsView,
  type SettingsInput,
  settingsInputSchema,
} from '@tunedrop/shared/schemas/delivery';
import { AlertTriangle, Save } from 'lucide-react';
import { useEffect } from 'react';
import { Button } from '../../../components/ui/button';
import { Card, PageLoader } from '../../../components/ui/card';
import { Field, Input } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';
import { ApiError, errorMessage } from '../../../lib/api';
import { usePageTitle } from '../../../lib/use-page-title';
import { useZodForm } from '../../../lib/use-zod-form';
import { useDeliverySettings, useSaveDeliverySettings } from '../api/settings';

type FieldName = keyof SettingsInput;

export default function AdminSettingsPage() {
  usePageTitle('Settings');
  const settings = useDeliverySettings();

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-3xl font-bold text-white">Settings</h1>
        <p className="mt-1 text-sm text-zinc-400">
          The codes given to releases at approval and the sender named in every DDEX message.
        </p>
      </div>
      {settings.isPending ? (
        <PageLoader />
      ) : settings.isError ? (
        <Card className="space-y-3 text-center">
          <p className="text-zinc-300">{errorMessage(settings.error, 'Failed to load settings')}</p>
          <Button variant="outline" onClick={() => settings.refetch()}>
            Try again
          </Button>
        </Card>
      ) : (
        <>
          <NeedsCodesNotice settings={settings.data} />
          <SettingsForm settings={settings.data} />
        </>
      )}
    </div>
  );
}

/** Why some approved releases have no codes yet, and what gives them codes. */
function NeedsCodesNotice({ settings }: { settings: DeliverySettingsView }) {
  const isConfigured = Boolean(settings.isrcRegistrant && settings.upcPrefix);
  const count = settings.needsCodesCount;
  if (isConfigured && count === 0) return null;
  return (
    <section
      aria-labelledby="needs-codes-title"
      className="flex gap-3 rounded-xl border border-amber-500/40 bg-amber-500/10 p-4 text-amber-100"
      data-testid="needs-codes-notice"
    >
      <AlertTriangle aria-hidden className="mt-0.5 size-5 shrink-0 text-amber-300" />
      <div className="space-y-1 text-sm">
        <h2 id="needs-codes-title" className="font-semibold text-amber-200">
          {count > 0
            ? `${count} approved ${count === 1 ? 'release needs' : 'releases need'} codes`
            : 'Codes are not configured'}
        </h2>
        <p>
          Approval gives every track an ISRC and the release a UPC. Without an ISRC registrant and a UPC
          prefix, approval still works, but the release waits in “needs codes” and is not delivered to any
          store until it has its codes.
        </p>
        <p>
          {isConfigured
            ? 'Some releases still have no codes (for example when the UPC prefix ran out of room). Save the settings again, or run npm run cli -- codes:backfill, to give them codes and queue their deliveries.'
            : 'Enter both below and save: every waiting release then gets its codes at once and is queued for delivery.'}
        </p>
      </div>
    </section>
  );
}

function SettingsForm({ settings }: { settings: DeliverySettingsView }) {
  const save = useSaveDeliverySettings();
  const form = useZodForm(settingsInputSchema, { defaultValues: toValues(settings) });
  const { errors, isDirty } = form.formState;

  // A save (here or in another tab) refreshes the query: show what the server kept.
  useEffect(() => form.reset(toValues(settings)), [settings, form]);

  const onSubmit = form.handleSubmit((values) =>
    save.mutate(values, {
      onSuccess: () => notify.success(DELIVERY_MESSAGES.settingsSaved),
      onError: (error) => {
        if (error instanceof ApiError && error.fields) {
          for (const [name, message] of Object.entries(error.fields))
            if (name in form.getValues()) form.setError(name as FieldName, { message });
        }
        notify.error(errorMessage(error, 'Failed to save settings'));
      },
    }),
  );

  const fieldProps = (name: FieldName) => ({
    id: `settings-${name}`,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `settings-${name}-error` : undefined,
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-6">
      <Card className="space-y-5">
        <div>
          <h2 className="text-lg font-semibold text-white">Codes</h2>
          <p className="text-sm text-zinc-400">
            Given at approval to tracks and releases that do not carry their own (Pro artists may supply
            theirs). Codes are never reused.
          </p>
        </div>
        <div className="grid gap-5 sm:grid-cols-2">
          <Field
            id="settings-isrcRegistrant"
            label="ISRC registrant code"
            error={errors.isrcRegistrant?.message}
            hint="Country and registrant, e.g. QZ-ABC. ISRCs read CC-XXX-YY-NNNNN."
          >
            <Input
              {...fieldProps('isrcRegistrant')}
              {...form.register('isrcRegistrant')}
              autoCapitalize="characters"
              placeholder="QZ-ABC"
            />
          </Field>
          <Field
            id="settings-upcPrefix"
            label="UPC / GS1 company prefix"
            error={errors.upcPrefix?.message}
            hint={
              settings.upcRemaining === null
                ? 'The 6 to 11 digits GS1 gave you; the rest of each UPC and its check digit are computed.'
                : `Room for ${settings.upcRemaining.toLocaleString('en-US')} more UPCs with this prefix.`
            }
          >
            <Input
              {...fieldProps('upcPrefix')}
              {...form.register('upcPrefix')}
              inputMode="numeric"
              placeholder="0123456"
            />
          </Field>
        </div>
      </Card>
      <Card className="space-y-5">
        <div>
          <h2 className="text-lg font-semibold text-white">DDEX sender</h2>
          <p className="text-sm text-zinc-400">The party named as sender in every ERN message.</p>
        </div>
        <div className="grid gap-5 sm:grid-cols-2">
          <Field
            id="settings-ddexSenderPartyId"
            label="Sender party id (DPID)"
            error={errors.ddexSenderPartyId?.message}
            hint={
              settings.sources.ddexSenderPartyId === 'default'
                ? `Not set: messages use the server default ${settings.ddexSenderPartyId} (DDEX_SENDER_PARTY_ID). Enter your own DPID to store it.`
                : 'Your DDEX Party ID, 18 characters: PADPIDA + 10 + check character.'
            }
          >
            <Input
              {...fieldProps('ddexSenderPartyId')}
              {...form.register('ddexSenderPartyId')}
              autoCapitalize="characters"
              placeholder={settings.ddexSenderPartyId}
            />
          </Field>
          <Field
            id="settings-ddexSenderName"
            label="Sender name"
            error={errors.ddexSenderName?.message}
            hint={
              settings.sources.ddexSenderName === 'default'
                ? `Not set: messages use the server default "${settings.ddexSenderName}" (DDEX_SENDER_NAME). Enter your own to store it.`
                : undefined
            }
          >
            <Input
              {...fieldProps('ddexSenderName')}
              {...form.register('ddexSenderName')}
              placeholder={settings.ddexSenderName}
            />
          </Field>
        </div>
      </Card>
      <div className="flex justify-end">
        <Button type="submit" disabled={save.isPending || !isDirty}>
          <Save aria-hidden className="size-4" /> {save.isPending ? 'Saving...' : 'Save Settings'}
        </Button>
      </div>
    </form>
  );
}

/** The form edits text; the shared schema turns an empty code into null (not configured). */
function toValues(settings: DeliverySettingsView): SettingsInput {
  return {
    isrcRegistrant: settings.isrcRegistrant ?? '',
    upcPrefix: settings.upcPrefix ?? '',
    // A server default is shown as the placeholder, never filled in as a value to be saved (issue 26).
    ddexSenderPartyId: settings.sources.ddexSenderPartyId === 'settings' ? settings.ddexSenderPartyId : '',
    ddexSenderName: settings.sources.ddexSenderName === 'settings' ? settings.ddexSenderName : '',
  };
}
