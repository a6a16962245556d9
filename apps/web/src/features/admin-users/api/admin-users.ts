/** User Management API: the paged list with tab counts, role grants, bans. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { GrantableRole, UserTab } from '@tunedrop/shared/schemas/admin-users';
import { client, unwrap } from '../../../lib/api';

export const adminUsersKey = ['admin-users'] as const;

export function useAdminUsers(params: { q: string; tab: UserTab; page: number }) {
  return useQuery({
    queryKey: [...adminUsersKey, params],
    queryFn: () =>
      unwrap(client.admin.users.$get({ query: { q: params.q, tab: params.tab, page: String(params.page) } })),
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
    mutationFn: (action: UserAction): Promise<unknown> => {
      if (action.kind === 'role') {
        const param = { id: action.userId, role: action.role };
        const roles = client.admin.users[':id'].roles[':role'];
        return unwrap(action.isGranted ? roles.$put({ param }) : roles.$delete({ param }));
      }
      if (action.kind === 'ban') {
        // The ban route reads its body itself (for its own error code), so the body has no declared type.
        return unwrap(
          client.admin.users[':id'].ban.$post(
            { param: { id: action.userId } },
            {
              init: {
                body: JSON.stringify({ reason: action.reason }),
                headers: { 'content-type': 'application/json' },
              },
            },
          ),
        );
      }
      return unwrap(client.admin.users[':id'].unban.$post({ param: { id: action.userId } }));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminUsersKey }),
  });
}
