/** GET /api/me: who is signed in. One declaration for the server (which answers it) and the web (which reads it). */
import type { Plan, Role, SubscriptionStatus } from '../constants';
import type { AccountRole } from '../schemas/team';

export type MeUser = {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
  twoFactorEnabled: boolean;
};

export type MeProfile = {
  plan: Plan;
  fullName: string;
  artistName: string;
  banned: boolean;
  banReason: string | null;
  subscriptionStatus: SubscriptionStatus;
  /** ISO 8601 instant, or null when the subscription has no end date. */
  subscriptionEnd: string | null;
};

export type MeResponse = {
  user: MeUser;
  profile: MeProfile;
  roles: Role[];
  /** A payee (record 175): never subscribed, bound to a split invitation; no plan is put to them. */
  isPayee: boolean;
  /** The acting account (record 202): the viewer's own (role owner) or one they are a member of; `profile` is its. */
  account: { id: string; role: AccountRole };
};
