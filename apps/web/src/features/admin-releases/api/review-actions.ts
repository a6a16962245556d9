/** The decisions of release review (approve, reject, unapprove, unreject, takedown, delete, ban, unban). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ADMIN_RELEASE_MESSAGES } from '@tunedrop/shared/schemas/admin-releases';
import { client, unwrap } from '../../../lib/api';
import { adminReleasesKeys } from './keys';

export type ReviewAction =
  | 'approve'
  | 'reject'
  | 'unapprove'
  | 'unreject'
  | 'takedown_approve'
  | 'takedown_reject'
  | 'delete'
  | 'ban'
  | 'unban';

/** Spec 02 §8: the destructive toast of each failed action. */
export const ACTION_FAILED: Record<ReviewAction, string> = {
  approve: ADMIN_RELEASE_MESSAGES.approveFailed,
  reject: ADMIN_RELEASE_MESSAGES.rejectFailed,
  unapprove: ADMIN_RELEASE_MESSAGES.unapproveFailed,
  unreject: ADMIN_RELEASE_MESSAGES.unrejectFailed,
  takedown_approve: ADMIN_RELEASE_MESSAGES.takedownApproveFailed,
  takedown_reject: ADMIN_RELEASE_MESSAGES.takedownRejectFailed,
  delete: ADMIN_RELEASE_MESSAGES.deleteFailed,
  ban: ADMIN_RELEASE_MESSAGES.banFailed,
  unban: ADMIN_RELEASE_MESSAGES.unbanFailed,
};

export const ACTION_DONE: Record<ReviewAction, string> = {
  approve: ADMIN_RELEASE_MESSAGES.approved,
  reject: ADMIN_RELEASE_MESSAGES.rejected,
  unapprove: ADMIN_RELEASE_MESSAGES.unapproved,
  unreject: ADMIN_RELEASE_MESSAGES.unrejected,
  takedown_approve: ADMIN_RELEASE_MESSAGES.takedownApproved,
  takedown_reject: ADMIN_RELEASE_MESSAGES.takedownRejected,
  delete: ADMIN_RELEASE_MESSAGES.deleted,
  ban: ADMIN_RELEASE_MESSAGES.banned,
  unban: ADMIN_RELEASE_MESSAGES.unbanned,
};

export function useReviewAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      action,
      releaseId,
      reason,
    }: {
      action: ReviewAction;
      releaseId: string;
      reason?: string;
    }): Promise<unknown> => {
      const release = client.admin.releases[':id'];
      const param = { id: releaseId };
      switch (action) {
        case 'approve':
          return unwrap(release.approve.$post({ param }));
        case 'reject':
          return unwrap(release.reject.$post({ param, json: { reason: reason ?? '' } }));
        case 'unapprove':
          return unwrap(release.unapprove.$post({ param }));
        case 'unreject':
          return unwrap(release.unreject.$post({ param }));
        case 'takedown_approve':
          return unwrap(release.takedown.approve.$post({ param }));
        case 'takedown_reject':
          return unwrap(release.takedown.reject.$post({ param }));
        case 'delete':
          return unwrap(release.$delete({ param }));
        case 'ban':
          return unwrap(release.uploader.ban.$post({ param, json: { reason: reason ?? '' } }));
        case 'unban':
          return unwrap(release.uploader.unban.$post({ param }));
      }
    },
    // Success or conflict, the cards and counts are refetched so a stale card is replaced.
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminReleasesKeys.all }),
  });
}
