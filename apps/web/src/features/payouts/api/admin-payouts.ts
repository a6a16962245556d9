/**
 * Admin payouts (issue 38): provider settings and test connection, the schedule, preview, runs, one run
 * with its items, the bank confirmation, marking by hand, polling PayPal, resuming and paying again.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  PayoutProviderId,
  PayoutSettings,
  ProviderSettingsInput,
} from '@tunedrop/shared/schemas/payouts';
import { client, unwrap } from '../../../lib/api';

const settingsKey = ['admin', 'payouts', 'settings'] as const;
const runsKey = ['admin', 'payouts', 'runs'] as const;
const runKey = (id: string) => ['admin', 'payouts', 'run', id] as const;

export function usePayoutSettings() {
  return useQuery({
    queryKey: settingsKey,
    queryFn: () => unwrap(client.admin.payouts.settings.$get()),
  });
}

export function useSaveProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (json: ProviderSettingsInput) => unwrap(client.admin.payouts.providers.$put({ json })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: settingsKey }),
  });
}

export function useTestProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (provider: PayoutProviderId) =>
      unwrap(client.admin.payouts.providers[':provider'].test.$post({ param: { provider } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: settingsKey }),
  });
}

export function useSavePayoutSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (json: PayoutSettings) => unwrap(client.admin.payouts.schedule.$put({ json })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: settingsKey }),
  });
}

/** The preview is read when the admin asks for it, and again each time. */
export function usePayoutPreview(isEnabled: boolean) {
  return useQuery({
    queryKey: ['admin', 'payouts', 'preview'],
    queryFn: () => unwrap(client.admin.payouts.preview.$get()),
    enabled: isEnabled,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}

export function usePayoutRuns() {
  return useQuery({ queryKey: runsKey, queryFn: () => unwrap(client.admin.payouts.runs.$get()) });
}

export function useStartPayoutRun() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(client.admin.payouts.runs.$post()),
    onSettled: () => queryClient.invalidateQueries({ queryKey: runsKey }),
  });
}

/** A run being planned or sent, or with payouts still on their way, is read again every few seconds. */
export function usePayoutRun(id: string) {
  return useQuery({
    queryKey: runKey(id),
    queryFn: () => unwrap(client.admin.payouts.runs[':id'].$get({ param: { id } })),
    refetchInterval: (query) =>
      query.state.data && (query.state.data.state === 'planned' || query.state.data.state === 'sending')
        ? 2_000
        : false,
  });
}

function useRunMutation<T, R>(runId: string, call: (input: T) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: runKey(runId) });
      void queryClient.invalidateQueries({ queryKey: runsKey });
    },
  });
}

export function usePollRun(runId: string) {
  return useRunMutation(runId, () =>
    unwrap(client.admin.payouts.runs[':id'].poll.$post({ param: { id: runId } })),
  );
}

export function useResumeRun(runId: string) {
  return useRunMutation(runId, () =>
    unwrap(client.admin.payouts.runs[':id'].resume.$post({ param: { id: runId } })),
  );
}

export function useUploadConfirmation(runId: string) {
  return useRunMutation(runId, (csv: string) =>
    unwrap(client.admin.payouts.runs[':id'].confirmation.$post({ param: { id: runId }, json: { csv } })),
  );
}

export function useMarkItem(runId: string) {
  return useRunMutation(runId, (input: { itemId: string; outcome: 'paid' | 'returned'; reason: string }) =>
    unwrap(
      client.admin.payouts.items[':id'].mark.$post({
        param: { id: input.itemId },
        json: { outcome: input.outcome, reason: input.reason },
      }),
    ),
  );
}

export function useRetryItem(runId: string) {
  return useRunMutation(runId, (itemId: string) =>
    unwrap(client.admin.payouts.items[':id'].retry.$post({ param: { id: itemId } })),
  );
}
