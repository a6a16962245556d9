/** User Management (spec 02 §2, §5, §6, §8): tabs, search and paging, role grants, bans. */
import { z } from 'zod';
import type { Plan, Role, SubscriptionStatus } from '../constants';
import type { PageInfo } from '../paging';
import { multilineText, safeText } from '../text';

export const USER_TABS = [
  { id: 'all', label: 'All' },
  { id: 'basic', label: 'Basic' },
  { id: 'pro', label: 'Pro' },
  // Payees hold no plan (record 175): counted here, not under Basic (issue 27).
  { id: 'payees', label: 'Payee' },
  // Team-only members and staff without a subscription hold no plan either (record 274): counted apart.
  { id: 'team', label: 'Team members' },
  { id: 'staff', label: 'Staff' },
  { id: 'banned', label: 'Banned' },
  { id: 'free_access', label: 'Free Access' },
  { id: 'moderators', label: 'Moderators' },
] as const;
export type UserTab = (typeof USER_TABS)[number]['id'];

export const USERS_PAGE_SIZE = 20;

export const adminUsersQuerySchema = z.object({
  q: safeText().trim().max(200).optional().default(''),
  tab: z
    .enum(['all', 'basic', 'pro', 'payees', 'team', 'staff', 'banned', 'free_access', 'moderators'])
    .default('all'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
export type AdminUsersQuery = z.infer<typeof adminUsersQuerySchema>;

/** The roles an admin may grant or revoke here; the admin role itself is managed with the CLI. */
export const GRANTABLE_ROLES = ['free_access', 'moderator'] as const;
export type GrantableRole = (typeof GRANTABLE_ROLES)[number];

export const ADMIN_USERS_TEXTS = {
  banReasonRequired: {
    title: 'Ban reason required',
    description: 'Please provide a reason for banning this user.',
  },
  cannotBanSelf: 'You cannot ban yourself.',
  adminRoleNotHere: 'The admin role is granted and revoked with the command line (role:grant, role:revoke).',
  userNotFound: 'User not found.',
} as const;

export const banSchema = z.object({
  reason: multilineText({ message: ADMIN_USERS_TEXTS.banReasonRequired.description })
    .trim()
    .min(1, ADMIN_USERS_TEXTS.banReasonRequired.description)
    .max(500),
});

export type AdminUser = {
  id: string;
  email: string;
  fullName: string;
  artistName: string;
  plan: Plan;
  /** Shown as "Payee" instead of the plan (record 175). */
  isPayee: boolean;
  /** The team account a person who never subscribed joined (record 230): shown instead of a plan. */
  teamOf: string | null;
  roles: Role[];
  banned: boolean;
  banReason: string | null;
  bannedAt: string | null;
  subscriptionStatus: SubscriptionStatus;
  subscriptionEnd: string | null;
  balanceCents: number;
  releaseCount: number;
  createdAt: string;
};

export type UserTabCounts = Record<UserTab, number>;

/** `total`: users in the selected tab (with the search applied). */
export type AdminUsersPage = PageInfo & {
  users: AdminUser[];
  counts: UserTabCounts;
};
