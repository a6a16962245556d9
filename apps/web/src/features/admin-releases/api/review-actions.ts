/** The decisions of release review (approve, reject, unapprove, unreject, takedown, delete, ban, unban). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ADMIN_RELEASE_MESSAGES } from '@tunedrop/shared/schemas/admin-releases';
import { api } from '../../../lib/api';
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

const ENDPOINTS: Record<ReviewAction, { path: (id: string) => string; method: 'POST' | 'DELETE' }> = {
  approve: { path: (id) => `/api/admin/releases/${id}/approve`, method: 'POST' },
  reject: { path: (id) => `/api/admin/releases/${id}/reject`, method: 'POST' },
  unapprove: { path: (id) => `/api/admin/releases/${id}/unapprove`, method: 'POST' },
  unreject: { path: (id) => `/api/admin/releases/${id}/unreject`, method: 'POST' },
  takedown_approve: { path: (id) => `/api/admin/releases/${id}/takedown/approve`, method: 'POST' },
  takedown_reject: { path: (id) => `/api/admin/releases/${id}/takedown/reject`, method: 'POST' },
  delete: { path: (id) => `/api/admin/releases/${id}`, method: 'DELETE' },
  ban: { path: (id) => `/api/admin/releases/${id}/uploader/ban`, method: 'POST' },
  unban: { path: (id) => `/api/admin/releases/${id}/uploader/unban`, method: 'POST' },
};

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
    }) => {
      const endpoint = ENDPOINTS[action];
      return api<unknown>(endpoint.path(releaseId), {
        method: endpoint.method,
        ...(reason !== undefined ? { body: { reason } } : {}),
      });
    },
    // Success or conflict, the cards and counts are refetched so a stale card is replaced.
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminReleasesKeys.all }),
  });
}
