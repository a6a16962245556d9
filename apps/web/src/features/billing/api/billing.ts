/** Billing requests: create-checkout, check-subscription, customer-portal and the payment sandbox. */
import { useQuery } from '@tanstack/react-query';
import type { Plan } from '@tunedrop/shared';
import {
  type CreateCheckoutResult,
  type PortalResult,
  type SandboxCheckout,
  type SandboxPortalAction,
  type SandboxRedirect,
  type SubscriptionInfo,
  subscriptionInfoQueryKey,
} from '@tunedrop/shared/schemas/billing';
import { api } from '../../../lib/api';

export function createCheckout(input: { plan: Plan; successUrl: string; cancelUrl: string }) {
  return api<CreateCheckoutResult>('/api/billing/create-checkout', { method: 'POST', body: input });
}

export function checkSubscription() {
  return api<SubscriptionInfo>('/api/billing/check-subscription', { method: 'POST' });
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
  return api<PortalResult>('/api/billing/customer-portal', { method: 'POST' });
}

export const sandboxCheckoutQueryKey = (id: string) => ['billing', 'sandbox-checkout', id] as const;

export function useSandboxCheckout(id: string) {
  return useQuery({
    queryKey: sandboxCheckoutQueryKey(id),
    queryFn: () => api<SandboxCheckout>(`/api/billing/sandbox/checkouts/${encodeURIComponent(id)}`),
    retry: false,
  });
}

export function paySandboxCheckout(id: string) {
  return api<SandboxRedirect>(`/api/billing/sandbox/checkouts/${encodeURIComponent(id)}/pay`, {
    method: 'POST',
  });
}

export function cancelSandboxCheckout(id: string) {
  return api<SandboxRedirect>(`/api/billing/sandbox/checkouts/${encodeURIComponent(id)}/cancel`, {
    method: 'POST',
  });
}

export const sandboxPortalQueryKey = ['billing', 'sandbox-portal'] as const;

export function useSandboxPortal(isEnabled: boolean) {
  return useQuery({
    queryKey: sandboxPortalQueryKey,
    queryFn: () => api<SubscriptionInfo>('/api/billing/sandbox/portal'),
    enabled: isEnabled,
    retry: false,
  });
}

export function sandboxPortalAction(action: SandboxPortalAction) {
  return api<SubscriptionInfo>('/api/billing/sandbox/portal', { method: 'POST', body: action });
}
