/** The wallet API: the summary query, payment settings, withdrawal request and cancel mutations. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  MaskedPaymentDetails,
  PaymentSettings,
  WalletSummary,
  WithdrawalSummary,
} from '@tunedrop/shared/schemas/wallet';
import { api } from '../../../lib/api';

export const walletQueryKey = ['wallet'] as const;

export function useWallet() {
  return useQuery({ queryKey: walletQueryKey, queryFn: () => api<WalletSummary>('/api/wallet') });
}

type Moved = WithdrawalSummary & { balanceCents: number; pendingBalanceCents: number };

export function useSavePaymentSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: PaymentSettings) =>
      api<{ paymentDetails: MaskedPaymentDetails }>('/api/wallet/payment-settings', {
        method: 'PUT',
        body: settings,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: walletQueryKey }),
  });
}

export function useRequestWithdrawal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (amount: string) =>
      api<Moved>('/api/wallet/withdrawals', { method: 'POST', body: { amount } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: walletQueryKey }),
  });
}

export function useCancelWithdrawal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<Moved>(`/api/wallet/withdrawals/${id}/cancel`, { method: 'POST' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: walletQueryKey }),
  });
}
