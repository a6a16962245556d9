/** POST /api/builder/releases: the one request that creates the release from the uploaded files. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReleaseSubmissionInput } from '@tunedrop/shared/schemas/builder';
import { client, unwrap } from '../../../lib/api';

export function useSubmitRelease() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (submission: ReleaseSubmissionInput) =>
      unwrap(client.builder.releases.$post({ json: submission })),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['releases'] });
    },
  });
}
