/** POST /api/builder/releases: the one request that creates the release from the uploaded files. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReleaseSubmissionInput, SubmittedRelease } from '@tunedrop/shared/schemas/builder';
import { api } from '../../../lib/api';

export function useSubmitRelease() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (submission: ReleaseSubmissionInput) =>
      api<{ release: SubmittedRelease; isRepeat: boolean }>('/api/builder/releases', {
        method: 'POST',
        body: submission,
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['releases'] });
    },
  });
}
