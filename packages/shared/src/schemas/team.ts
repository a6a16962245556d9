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
import type { Plan } from '../constants';
import { safeText } from '../text';

export const ACCOUNT_ROLES = ['owner', 'admin', 'catalog', 'finance', 'viewer'] as const;
export type AccountRole = (typeof ACCOUNT_ROLES)[number];
/** The owner is the account holder alone; these are the roles an invitation can give. */
export const MEMBER_ROLES = ['admin', 'catalog', 'finance', 'viewer'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/**
 * What a route needs of the caller's role on the acting account (record 202). 'personal' routes act for
 * the person whatever account is chosen (their own profile, support, split shares they accepted).
 */
export const ACCOUNT_NEEDS = ['personal', 'read', 'catalog', 'finance', 'owner'] as const;
export type AccountNeed = (typeof ACCOUNT_NEEDS)[number];

/** Record 202: each role's permissions. Every member reads the account's data except billing. */
export const ROLE_PERMISSIONS: Record<AccountRole, readonly AccountNeed[]> = {
  owner: ['personal', 'read', 'catalog', 'finance', 'owner'],
  admin: ['personal', 'read', 'catalog', 'finance'],
  catalog: ['personal', 'read', 'catalog'],
  finance: ['personal', 'read', 'finance'],
  viewer: ['personal', 'read'],
};

/** The one check of a role against a need: the server's access middleware and the web's buttons use it. */
export function roleAllows(role: AccountRole, need: AccountNeed): boolean {
  return ROLE_PERMISSIONS[role].includes(need);
}

export const ROLE_LABELS: Record<AccountRole, string> = {
  owner: 'Owner',
  admin: 'Admin',
  catalog: 'Catalog',
  finance: 'Finance',
  viewer: 'Viewer',
};

export const ROLE_DESCRIPTIONS: Record<AccountRole, string> = {
  owner: 'Everything, including billing, the plan and the team.',
  admin: 'Everything except billing and the team.',
  catalog: 'Releases, uploads, edits, takedowns and splits.',
  finance: 'Royalties, statements, withdrawals and payment settings.',
  viewer: 'Read-only, analytics included.',
};

/** Members besides the owner, pending invitations included (record 202). */
export const MEMBER_LIMITS: Record<Plan, number> = { basic: 2, pro: 10 };

/** Invitations (record 202): they expire, and mails are limited per account and per invited address. */
export const TEAM_INVITATION_DAYS = 7;
export const TEAM_INVITATION_LIMITS = {
  perAccountHour: { windowSeconds: 3600, max: 10 },
  perAccountDay: { windowSeconds: 86_400, max: 20 },
  perAddressDay: { windowSeconds: 86_400, max: 3 },
} as const;

export const TEAM_TEXTS = {
  roleRefused: (role: string) => `Your role on this account (${role}) does not allow this.`,
  memberLimit: (limit: number, planName: string) =>
    `Your ${planName} plan allows ${limit} team members. Remove a member or upgrade to add more.`,
  ownAddress: 'You own this account; invite someone else.',
  alreadyMember: 'This person is already a member of the account.',
  alreadyInvited: 'This address already has a pending invitation.',
  invitationNotFound: 'This invitation does not exist or was withdrawn.',
  invitationExpired: 'This invitation has expired. Ask the account owner to invite you again.',
  invitationAccepted: 'This invitation has already been accepted.',
  invitationOtherAccount: (masked: string) =>
    `This invitation was sent to ${masked}. Sign in with that address to accept it.`,
  invitationUnverified: 'Verify your email address before accepting this invitation.',
  notAMember: 'You are not a member of that account.',
  memberNotFound: 'That member is not on this team.',
  limitAccount: (max: number, window: string, wait: string) =>
    `You can send at most ${max} team invitations per ${window}. Please wait ${wait} before inviting more people.`,
  limitAddress: (email: string, wait: string) =>
    `${email} has been invited too many times recently. Please wait ${wait} before inviting this address again.`,
  mailSubject: 'You have been invited to a team on Tunedrop',
  // Ownership transfer and leaving (record 205).
  transferNotMember: 'Ownership can only go to a member who has joined this account.',
  transferUnverified: 'The new owner must verify their email address first.',
  transferConfirm: (name: string) =>
    `Make ${name} the owner of this account? You will become an Admin, and billing and the team will be theirs.`,
  transferred: (name: string) => `${name} now owns this account. You are an Admin.`,
  ownerCannotLeave: 'You own this account. Transfer ownership to a member before leaving.',
  founderCannotLeave:
    'This account was created with your sign-in, so you cannot leave it. The owner can change your role.',
  founderCannotBeRemoved:
    'This account was created with this member’s sign-in, so they cannot be removed. Change their role instead.',
  leaveConfirm: (name: string) =>
    `Leave ${name}? You will no longer see or act for this account unless the owner invites you again.`,
  left: (name: string) => `You left ${name}.`,
  leaveOtherAccount: 'You are acting for another account now. Reload the page and try again.',
} as const;

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
