/** Requests of the accounts feature: sign-up, verification resend, profile update. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EmailOnlyInput, ProfileInput, SignupInput } from '@tunedrop/shared/schemas/auth';
import { client, unwrap } from '../../../lib/api';
import { viewerQueryKey } from '../../../lib/viewer';

export function signUp(input: SignupInput) {
  return unwrap(client.auth.signup.$post({ json: input }));
}

export function resendVerification(input: EmailOnlyInput) {
  return unwrap(client.auth['resend-verification'].$post({ json: input }));
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ProfileInput) => unwrap(client.me.profile.$patch({ json: input })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: viewerQueryKey }),
  });
}
