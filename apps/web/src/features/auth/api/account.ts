/** Requests of the accounts feature: sign-up, verification resend, profile update, dashboard stats. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Plan } from '@tunedrop/shared';
import type { EmailOnlyInput, ProfileInput, SignupInput } from '@tunedrop/shared/schemas/auth';
import { api } from '../../../lib/api';
import { viewerQueryKey } from '../../../lib/viewer';

export function signUp(input: SignupInput) {
  return api<{ email: string; plan: Plan }>('/api/auth/signup', { method: 'POST', body: input });
}

export function resendVerification(input: EmailOnlyInput) {
  return api<{ status: true }>('/api/auth/resend-verification', { method: 'POST', body: input });
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ProfileInput) =>
      api<{ profile: ProfileInput }>('/api/me/profile', { method: 'PATCH', body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: viewerQueryKey }),
  });
}

export function useDashboardStats() {
  return useQuery({
    queryKey: ['me', 'stats'],
    queryFn: () => api<{ totalReleases: number }>('/api/me/stats'),
  });
}
