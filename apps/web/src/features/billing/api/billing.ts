/** Billing requests: create-checkout, check-subscription, customer-portal and the payment sandbox. */
import { useQuery } from '@tanstack/react-query';
import type { Plan } from '@tunedrop/shared';
import { type SandboxPortalAction, subscriptionInfoQueryKey } from '@tunedrop/shared/schemas/billing';
import { client, unwrap } from '../../../lib/api';

export function createCheckout(input: { plan: Plan; successUrl: string; cancelUrl: string }) {
  return unwrap(client.billing['create-checkout'].$post({ json: input }));
}

export function checkSubscription() {
  return unwrap(client.billing['check-subscription'].$post());
}

/** The account page's subscription state, reconciled with the provider when it loads. */
export function useSubscriptionInfo(isEnabled: boolean) {
  return useQuery({
    queryKey: subscriptionInfoQueryKey,
    queryFn: checkSubscription,
    enabled: isEnabled,
    staleTime: 60_000,
  });
}

export function openCustomerPortal() {
  return unwrap(client.billing['customer-portal'].$post());
}

export const sandboxCheckoutQueryKey = (id: string) => ['billing', 'sandbox-checkout', id] as const;

export function useSandboxCheckout(id: string) {
  return useQuery({
    queryKey: sandboxCheckoutQueryKey(id),
    queryFn: () =>
      unwrap(client.billing.sandbox.checkouts[':id'].$get({ param: { id: encodeURIComponent(id) } })),
    retry: false,
  });
}

export function paySandboxCheckout(id: string) {
  return unwrap(client.billing.sandbox.checkouts[':id'].pay.$post({ param: { id: encodeURIComponent(id) } }));
}

export function cancelSandboxCheckout(id: string) {
  return unwrap(
    client.billing.sandbox.checkouts[':id'].cancel.$post({ param: { id: encodeURIComponent(id) } }),
  );
}

export const sandboxPortalQueryKey = ['billing', 'sandbox-portal'] as const;

export function useSandboxPortal(isEnabled: boolean) {
  return useQuery({
    queryKey: sandboxPortalQueryKey,
    queryFn: () => unwrap(client.billing.sandbox.portal.$get()),
    enabled: isEnabled,
    retry: false,
  });
}

export function sandboxPortalAction(action: SandboxPortalAction) {
  return unwrap(client.billing.sandbox.portal.$post({ json: action }));
}
