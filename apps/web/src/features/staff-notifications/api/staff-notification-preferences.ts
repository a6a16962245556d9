/** A staff user's notification choices (GET/PUT /api/staff-notifications/preferences, record 179). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { StaffNotificationPreferencesInput } from '@tunedrop/shared/schemas/staff-notifications';
import { client, unwrap } from '../../../lib/api';

const preferencesKey = ['staff-notifications', 'preferences'] as const;

export function useStaffNotificationPreferences() {
  return useQuery({
    queryKey: preferencesKey,
    queryFn: () => unwrap(client['staff-notifications'].preferences.$get()),
  });
}

export function useSaveStaffNotificationPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (json: StaffNotificationPreferencesInput) =>
      unwrap(client['staff-notifications'].preferences.$put({ json })),
    onSuccess: (data) => queryClient.setQueryData(preferencesKey, data),
  });
}
