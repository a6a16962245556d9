/**
 * A team with roles (issue 27, decision record 202): an account's owner invites members by email with a
 * role; a person may belong to several accounts and switches between them. Shapes shared by the server
 * routes (apps/server/src/modules/team) and the web (apps/web/src/features/team).
 *
 * Routes served:
 *   GET    /api/accounts                         (user, personal) → AccountsResponse (own + memberships)
 *   PUT    /api/accounts/current                 (user, personal) switchAccountSchema → AccountsResponse
 *   GET    /api/team                             (user, read)     → TeamResponse
 *   POST   /api/team/invitations                 (user, owner)    inviteMemberSchema → TeamResponse (201)
 *   DELETE /api/team/invitations/:id             (user, owner)    → TeamResponse
 *   PUT    /api/team/members/:userId             (user, owner)    changeRoleSchema → TeamResponse
 *   DELETE /api/team/members/:userId             (user, owner)    → TeamResponse
 *   POST   /api/team/transfer                    (user, owner)    transferOwnershipSchema → TeamResponse
 *   POST   /api/team/leave                       (user, read)     leaveAccountSchema → AccountsResponse (own)
 *   GET    /api/team-invitations/:token          (public)         → TeamInvitationView
 *   POST   /api/team-invitations/:token/accept   (user, personal) → AccountsResponse
 */
import { z } from 'zod';
import { safeText } from '../text';
import { type AccountRole, MEMBER_ROLES, type MemberRole } from './team-roles';

export * from './team-roles';

export const inviteMemberSchema = z.object({
  email: safeText().trim().toLowerCase().email('Enter a valid email address.').max(254),
  role: z.enum(MEMBER_ROLES, { message: 'Choose a role.' }),
});
export type InviteMemberInput = z.infer<typeof inviteMemberSchema>;

export const changeRoleSchema = z.object({ role: z.enum(MEMBER_ROLES, { message: 'Choose a role.' }) });
export type ChangeRoleInput = z.infer<typeof changeRoleSchema>;

export const transferOwnershipSchema = z.object({ userId: safeText().min(1).max(100) });
export type TransferOwnershipInput = z.infer<typeof transferOwnershipSchema>;

/** Names the account the member means to leave: another tab may have switched the acting one since. */
export const leaveAccountSchema = z.object({ accountId: safeText().min(1).max(100) });
export type LeaveAccountInput = z.infer<typeof leaveAccountSchema>;

export const switchAccountSchema = z.object({ accountId: safeText().min(1).max(100) });
export type SwitchAccountInput = z.infer<typeof switchAccountSchema>;

export type AccountSummary = {
  /** The owner's user id: the account's id. */
  id: string;
  name: string;
  role: AccountRole;
  isCurrent: boolean;
};
export type AccountsResponse = { items: AccountSummary[] };

export type TeamMember = {
  userId: string;
  name: string;
  email: string;
  role: AccountRole;
  joinedAt: string | null;
};
export type TeamInvitationRow = { id: string; email: string; role: MemberRole; expiresAt: string };
export type TeamResponse = {
  accountName: string;
  viewerRole: AccountRole;
  members: TeamMember[];
  invitations: TeamInvitationRow[];
  /** Members and pending invitations the plan allows besides the owner. */
  limit: number;
};

export type TeamInvitationView = {
  accountName: string;
  role: MemberRole;
  email: string;
  status: 'pending' | 'accepted' | 'expired' | 'withdrawn';
  acceptance: {
    status: 'ready' | 'signed_out' | 'other_account' | 'unverified' | 'owner';
    message: string | null;
  };
};
