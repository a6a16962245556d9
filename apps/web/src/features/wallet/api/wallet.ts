/** The wallet API: the summary query, payment settings, withdrawal request and cancel mutations. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PaymentSettings } from '@tunedrop/shared/schemas/wallet';
import { client, unwrap } from '../../../lib/api';

export const walletQueryKey = ['wallet'] as const;

export function useWallet() {
  return useQuery({ queryKey: walletQueryKey, queryFn: () => unwrap(client.wallet.$get()) });
}

export function useSavePaymentSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: PaymentSettings) =>
      unwrap(client.wallet['payment-settings'].$put({ json: settings })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: walletQueryKey }),
  });
}

export function useRequestWithdrawal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (amount: string) => unwrap(client.wallet.withdrawals.$post({ json: { amount } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: walletQueryKey }),
  });
}

export function useCancelWithdrawal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(client.wallet.withdrawals[':id'].cancel.$post({ param: { id } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: walletQueryKey }),
  });
}

/** Mails the owner a new link for the change of payout details waiting for confirmation (record 314). */
export function useResendPayoutConfirmation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(client.wallet['payment-settings'].resend.$post()),
    onSettled: () => queryClient.invalidateQueries({ queryKey: walletQueryKey }),
  });
}

/** Confirms a change of payout details with the mailed link's token (the owner only, once). */
export function useConfirmPayoutDetails() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) =>
      unwrap(client.wallet['payment-settings'].confirm.$post({ json: { token } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: walletQueryKey }),
  });
}
