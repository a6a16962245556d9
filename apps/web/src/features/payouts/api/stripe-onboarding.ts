/** The account's Stripe Connect onboarding (issue 38, record 281): its state, a fresh link, Stripe as method. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api';
import { payoutsQueryKey } from './payouts';

const onboardingKey = ['payouts', 'stripe'] as const;

export function useStripeOnboarding() {
  return useQuery({ queryKey: onboardingKey, queryFn: () => unwrap(client.payouts.stripe.$get()) });
}

/** The link is single-use and expires within minutes: made on the click, followed at once. */
export function useStripeOnboardingLink() {
  return useMutation({
    mutationFn: () => unwrap(client.payouts.stripe.onboarding.$post()),
    onSuccess: ({ url }) => window.location.assign(url),
  });
}

export function useStripeForPayouts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(client.payouts.stripe.use.$post()),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: onboardingKey });
      void queryClient.invalidateQueries({ queryKey: payoutsQueryKey });
      void queryClient.invalidateQueries({ queryKey: ['wallet'] });
    },
  });
}
