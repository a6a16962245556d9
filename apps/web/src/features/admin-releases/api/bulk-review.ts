/** POST /api/admin/releases/bulk-review: approve or reject the selected pending releases (issue 26). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BulkReviewAction, BulkReviewResult } from '@tunedrop/shared/schemas/admin-releases';
import { client, unwrap } from '../../../lib/api';
import { adminReleasesKeys } from './keys';

export function useBulkReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      ids,
      action,
      reason,
    }: {
      ids: string[];
      action: BulkReviewAction;
      reason?: string;
    }): Promise<BulkReviewResult> =>
      unwrap(
        client.admin.releases['bulk-review'].$post({
          json: { ids, action, ...(reason !== undefined ? { reason } : {}) },
        }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminReleasesKeys.all }),
  });
}
