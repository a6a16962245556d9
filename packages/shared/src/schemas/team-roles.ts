/**
 * The team's roles, what each may do, and the team's texts (decision records 202, 205), without zod: the
 * dashboard's first load reads `roleAllows` and `ROLE_LABELS` to show only the buttons a role can use, and
 * zod would add 24 KB gzip to it (issue 29, record 210). `schemas/team.ts` re-exports everything here.
 */
import type { Plan } from '../constants';

export const ACCOUNT_ROLES = ['owner', 'admin', 'catalog', 'finance', 'viewer'] as const;
export type AccountRole = (typeof ACCOUNT_ROLES)[number];
/** The owner is the account holder alone; these are the roles an invitation can give. */
export const MEMBER_ROLES = ['admin', 'catalog', 'finance', 'viewer'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/**
 * What a route needs of the caller's role on the acting account (record 325). 'personal' routes act for
 * the person whatever account is chosen (their own profile, support, split shares they accepted).
 */
export const ACCOUNT_NEEDS = ['personal', 'read', 'catalog', 'finance', 'owner'] as const;
export type AccountNeed = (typeof ACCOUNT_NEEDS)[number];

/** Record 325: each role's permissions. Every member reads the account's data except billing. */
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

/** Members besides the owner, pending invitations included (record 326). */
export const MEMBER_LIMITS: Record<Plan, number> = { basic: 2, pro: 10 };

/** Invitations (record 326): they expire, and mails are limited per account and per invited address. */
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
  // Changing a member's role (record 202; the Team page's dialog, issue 37).
  roleChangeSame: 'Choose a role other than the current one.',
  roleChanged: (name: string, role: string) => `${name} is now ${role}.`,
  roleChangeFailed: 'The role could not be changed.',
} as const;
