/**
 * Account page, staff only: how each kind of staff mail reaches this user (at once, daily digest, off).
 * The server lists only the kinds the user's roles receive; each change is saved at once.
 */
import {
  STAFF_NOTIFICATION_MODE_LABELS,
  STAFF_NOTIFICATION_MODES,
  type StaffNotificationMode,
  type StaffNotificationPreference,
} from '@tunedrop/shared/schemas/staff-notifications';
import { Field, Select } from '../../../components/ui/input';
import { SettingsCard } from '../../../components/ui/settings-card';
import { notify } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api';
import { useViewer, viewerFacts } from '../../../lib/viewer';
import {
  useSaveStaffNotificationPreferences,
  useStaffNotificationPreferences,
} from '../api/staff-notification-preferences';

/** Renders nothing for an account without a staff role. */
export function StaffNotificationsCard() {
  const { data: viewer } = useViewer();
  if (!viewer || !viewerFacts(viewer).isStaff) return null;
  return <PreferencesCard />;
}

function PreferencesCard() {
  const preferences = useStaffNotificationPreferences();
  return (
    <SettingsCard
      title="Notifications"
      description="Staff mails about what needs you. A daily digest comes once a day (07:00 UTC) and only when something happened."
      query={preferences}
      loadError="Failed to load your notification settings."
    >
      {(data) => (
        <div className="grid gap-4 sm:grid-cols-2">
          {data.preferences.map((preference) => (
            <PreferenceField key={preference.kind} preference={preference} />
          ))}
        </div>
      )}
    </SettingsCard>
  );
}

function PreferenceField({ preference }: { preference: StaffNotificationPreference }) {
  const save = useSaveStaffNotificationPreferences();
  const id = `staff-notification-${preference.kind}`;
  return (
    <Field id={id} label={preference.label}>
      <Select
        id={id}
        value={preference.mode}
        disabled={save.isPending}
        onChange={(event) => {
          // The options are the modes listed below.
          const mode = event.target.value as StaffNotificationMode;
          save.mutate(
            { preferences: [{ kind: preference.kind, mode }] },
            {
              onSuccess: () => notify.success(`${preference.label}: ${STAFF_NOTIFICATION_MODE_LABELS[mode]}`),
              onError: (failure) => notify.error(errorMessage(failure, 'Failed to save the setting.')),
            },
          );
        }}
      >
        {STAFF_NOTIFICATION_MODES.map((mode) => (
          <option key={mode} value={mode}>
            {STAFF_NOTIFICATION_MODE_LABELS[mode]}
          </option>
        ))}
      </Select>
    </Field>
  );
}
