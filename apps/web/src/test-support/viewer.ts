/**
 * The signed-in viewer a route test answers GET /api/me with: Ada, acting for account `accountId` (her
 * own, `u1`, unless given) in `role`, on `plan` (the account's).
 */
import type { MeResponse } from '@tunedrop/shared';
import type { AccountRole } from '@tunedrop/shared/schemas/team-roles';

export function viewerOf({
  plan = 'basic',
  accountId = 'u1',
  role = 'owner',
}: {
  plan?: MeResponse['profile']['plan'];
  accountId?: string;
  role?: AccountRole;
} = {}): MeResponse {
  return {
    user: { id: 'u1', email: 'ada@example.com', name: 'Ada', emailVerified: true, twoFactorEnabled: false },
    profile: {
      plan,
      fullName: 'Ada Artist',
      artistName: 'Ada',
      banned: false,
      banReason: null,
      subscriptionStatus: 'active',
      subscriptionEnd: null,
    },
    roles: [],
    isPayee: false,
    account: { id: accountId, role },
  };
}
