/**
 * Admin finance (record 189): the overview and the fees per plan (GET /api/admin/finance, /finance/fees).
 * An account's own fee is set on its user card (features/admin-users/api/account-fee.ts) and a report's
 * posting figures are shown on its import page (features/royalty-imports/api/posting-figures.ts): saving
 * the plans' fees refreshes the accounts' fees by the key they share.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FeeSettingsInput } from '@tunedrop/shared/schemas/finance';
import { client, unwrap } from '../../../lib/api';

export const financeKeys = {
  all: ['admin-finance'] as const,
  overview: () => [...financeKeys.all, 'overview'] as const,
  fees: () => [...financeKeys.all, 'fees'] as const,
  accountFee: (userId: string) => [...financeKeys.all, 'account-fee', userId] as const,
};

/** Where the overview's CSV downloads from (a plain link: the session cookie goes with it). */
export const FINANCE_CSV_URL = '/api/admin/finance/export.csv';

export function useFinanceOverview() {
  return useQuery({ queryKey: financeKeys.overview(), queryFn: () => unwrap(client.admin.finance.$get()) });
}

export function useFeeSettings() {
  return useQuery({ queryKey: financeKeys.fees(), queryFn: () => unwrap(client.admin.finance.fees.$get()) });
}

export function useSaveFeeSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (json: FeeSettingsInput) => unwrap(client.admin.finance.fees.$put({ json })),
    onSuccess: (data) => {
      queryClient.setQueryData(financeKeys.fees(), data);
      void queryClient.invalidateQueries({ queryKey: [...financeKeys.all, 'account-fee'] });
    },
  });
}
