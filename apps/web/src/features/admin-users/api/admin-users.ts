/** User Management API: the paged list with tab counts, role grants, bans. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminUsersPage, GrantableRole, UserTab } from '@tunedrop/shared/schemas/admin-users';
import { api } from '../../../lib/api';

export const adminUsersKey = ['admin-users'] as const;

export function useAdminUsers(params: { q: string; tab: UserTab; page: number }) {
  return useQuery({
    queryKey: [...adminUsersKey, params],
    queryFn: () => api<AdminUsersPage>('/api/admin/users', { query: params }),
    placeholderData: keepPreviousData,
  });
}

export type UserAction =
  | { kind: 'role'; userId: string; role: GrantableRole; isGranted: boolean }
  | { kind: 'ban'; userId: string; reason: string }
  | { kind: 'unban'; userId: string };

export function useUserAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: UserAction) => {
      if (action.kind === 'role') {
        return api(`/api/admin/users/${action.userId}/roles/${action.role}`, {
          method: action.isGranted ? 'PUT' : 'DELETE',
        });
      }
      if (action.kind === 'ban') {
        return api(`/api/admin/users/${action.userId}/ban`, {
          method: 'POST',
          body: { reason: action.reason },
        });
      }
      return api(`/api/admin/users/${action.userId}/unban`, { method: 'POST' });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminUsersKey }),
  });
}
