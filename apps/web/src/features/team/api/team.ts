/** Team with roles (issue 27, record 202): the accounts a person acts for, the team and its invitations. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InviteMemberInput, MemberRole } from '@tunedrop/shared/schemas/team';
import { client, unwrap } from '../../../lib/api';
import { viewerQueryKey } from '../../../lib/viewer-key';

export const teamKeys = {
  accounts: ['accounts'] as const,
  team: ['team'] as const,
  invitation: (token: string) => ['team-invitation', token] as const,
};

export function useAccounts() {
  return useQuery({ queryKey: teamKeys.accounts, queryFn: () => unwrap(client.accounts.$get()) });
}

/** Switching reloads the dashboard: every cached answer belonged to the previous account. */
export function useSwitchAccount() {
  return useMutation({
    mutationFn: (accountId: string) => unwrap(client.accounts.current.$put({ json: { accountId } })),
    onSuccess: () => window.location.assign('/dashboard'),
  });
}

export function useTeam() {
  return useQuery({ queryKey: teamKeys.team, queryFn: () => unwrap(client.team.$get()) });
}

export function useInviteMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (json: InviteMemberInput) => unwrap(client.team.invitations.$post({ json })),
    onSuccess: (data) => queryClient.setQueryData(teamKeys.team, data),
  });
}

export function useWithdrawTeamInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(client.team.invitations[':id'].$delete({ param: { id } })),
    onSuccess: (data) => queryClient.setQueryData(teamKeys.team, data),
  });
}

export function useChangeMemberRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { userId: string; role: MemberRole }) =>
      unwrap(
        client.team.members[':userId'].$put({ param: { userId: input.userId }, json: { role: input.role } }),
      ),
    onSuccess: (data) => queryClient.setQueryData(teamKeys.team, data),
  });
}

export function useRemoveMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => unwrap(client.team.members[':userId'].$delete({ param: { userId } })),
    onSuccess: (data) => queryClient.setQueryData(teamKeys.team, data),
  });
}

export function useTeamInvitation(token: string) {
  return useQuery({
    queryKey: teamKeys.invitation(token),
    queryFn: () => unwrap(client['team-invitations'][':token'].$get({ param: { token } })),
    retry: false,
  });
}

export function useAcceptTeamInvitation(token: string) {
  return useMutation({
    mutationFn: () => unwrap(client['team-invitations'][':token'].accept.$post({ param: { token } })),
  });
}

/** Hands the account to a member (record 205); the viewer is an Admin from now on, so /api/me is read again. */
export function useTransferOwnership() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => unwrap(client.team.transfer.$post({ json: { userId } })),
    onSuccess: async (data) => {
      queryClient.setQueryData(teamKeys.team, data);
      await queryClient.invalidateQueries({ queryKey: viewerQueryKey });
      await queryClient.invalidateQueries({ queryKey: teamKeys.accounts });
    },
  });
}

/**
 * Leaves the acting account (record 205). The server clears the account cookie: every cached answer was
 * that account's, so all of them are read again, now for the person's own account.
 */
export function useLeaveAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (accountId: string) => unwrap(client.team.leave.$post({ json: { accountId } })),
    onSuccess: () => queryClient.resetQueries(),
  });
}
