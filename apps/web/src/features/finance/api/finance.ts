/**
 * Admin finance (record 189): the overview, the fees per plan and per account, a report's posting figures
 * (GET /api/admin/finance, /finance/fees, /users/:id/fee, /royalties/imports/:id/figures).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AccountFeeInput, FeeSettingsInput } from '@tunedrop/shared/schemas/finance';
import { client, unwrap } from '../../../lib/api';

export const financeKeys = {
  all: ['admin-finance'] as const,
  overview: () => [...financeKeys.all, 'overview'] as const,
  fees: () => [...financeKeys.all, 'fees'] as const,
  accountFee: (userId: string) => [...financeKeys.all, 'account-fee', userId] as const,
  figures: (importId: string, posted: boolean) => [...financeKeys.all, 'figures', importId, posted] as const,
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

export function useAccountFee(userId: string, enabled = true) {
  return useQuery({
    queryKey: financeKeys.accountFee(userId),
    queryFn: () => unwrap(client.admin.users[':id'].fee.$get({ param: { id: userId } })),
    enabled,
  });
}

export function useSaveAccountFee(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (json: AccountFeeInput) =>
      unwrap(client.admin.users[':id'].fee.$put({ param: { id: userId }, json })),
    onSuccess: (data) => queryClient.setQueryData(financeKeys.accountFee(userId), data),
  });
}

/** The confirmation's figures (computed before posting) and the result's (read after), same shape. */
export function usePostingFigures(importId: string, posted: boolean, enabled: boolean) {
  return useQuery({
    queryKey: financeKeys.figures(importId, posted),
    queryFn: () => unwrap(client.admin.royalties.imports[':id'].figures.$get({ param: { id: importId } })),
    enabled,
  });
}
