/** Admin Settings: the operator's time zone, in which reply-by times of new support messages are counted. */
import {
  SUPPORT_MESSAGES,
  type SupportSettingsView,
  supportSettingsSchema,
} from '@tunedrop/shared/schemas/support';
import { Save } from 'lucide-react';
import { useEffect } from 'react';
import { Button } from '../../../components/ui/button';
import { Field, Input } from '../../../components/ui/input';
import { SettingsCard } from '../../../components/ui/settings-card';
import { notify } from '../../../components/ui/toast';
import { ApiError, errorMessage } from '../../../lib/api';
import { useZodForm } from '../../../lib/use-zod-form';
import { useSaveSupportSettings, useSupportSettings } from '../api/support-settings';

export function SupportSettingsCard() {
  const settings = useSupportSettings();
  return (
    <SettingsCard
      title="Support"
      description="Reply-by times of support messages count business days (Monday to Friday) in this time zone. A change applies to messages sent after it."
      query={settings}
      loadError="Failed to load the support settings."
    >
      {(data) => <TimeZoneForm settings={data} />}
    </SettingsCard>
  );
}

function TimeZoneForm({ settings }: { settings: SupportSettingsView }) {
  const save = useSaveSupportSettings();
  const form = useZodForm(supportSettingsSchema, { defaultValues: { timeZone: settings.timeZone } });
  const error = form.formState.errors.timeZone?.message;
  useEffect(() => form.reset({ timeZone: settings.timeZone }), [settings, form]);

  const onSubmit = form.handleSubmit((values) =>
    save.mutate(values, {
      onSuccess: () => notify.success(SUPPORT_MESSAGES.timeZoneSaved),
      onError: (failure) => {
        if (failure instanceof ApiError && failure.fields?.timeZone)
          form.setError('timeZone', { message: failure.fields.timeZone });
        notify.error(errorMessage(failure, 'Failed to save the time zone.'));
      },
    }),
  );

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <Field
        id="support-timeZone"
        label="Operator time zone"
        error={error}
        hint={
          settings.source === 'default'
            ? 'Not set: UTC is used. An IANA name such as Europe/Berlin or America/New_York.'
            : 'An IANA name such as Europe/Berlin or America/New_York.'
        }
      >
        <Input
          id="support-timeZone"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'support-timeZone-error' : undefined}
          autoComplete="off"
          spellCheck={false}
          {...form.register('timeZone')}
        />
      </Field>
      <Button type="submit" disabled={save.isPending || !form.formState.isDirty}>
        <Save aria-hidden className="size-4" /> Save time zone
      </Button>
    </form>
  );
}
