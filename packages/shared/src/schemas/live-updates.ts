/** Live updates (GET /api/events, modules/live-updates): the event the stream sends and the browser parses. */
import { z } from 'zod';
import { PLANS, type Plan, SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '../constants';

/** What GET /api/events sends with each `profile` event: the signed-in user's own account, as now. */
export type LiveProfile = {
  plan: Plan;
  pendingPlan: Plan | null;
  subscriptionStatus: SubscriptionStatus;
  subscriptionEnd: string | null;
  cancelAtPeriodEnd: boolean;
  balanceCents: number;
  pendingBalanceCents: number;
  totalEarningsCents: number;
  fullName: string;
  artistName: string;
  banned: boolean;
  banReason: string | null;
};

export type LiveProfileEvent = {
  /** Column groups that changed ('plan', 'subscription_status', 'balance_cents', 'roles', …); empty on connect. */
  changed: string[];
  profile: LiveProfile;
  roles: string[];
};

export const liveProfileEventSchema = z.object({
  changed: z.array(z.string()),
  profile: z.object({
    plan: z.enum(PLANS),
    pendingPlan: z.enum(PLANS).nullable(),
    subscriptionStatus: z.enum(SUBSCRIPTION_STATUSES),
    subscriptionEnd: z.string().nullable(),
    cancelAtPeriodEnd: z.boolean(),
    balanceCents: z.number(),
    pendingBalanceCents: z.number(),
    totalEarningsCents: z.number(),
    fullName: z.string(),
    artistName: z.string(),
    banned: z.boolean(),
    banReason: z.string().nullable(),
  }),
  roles: z.array(z.string()),
});
