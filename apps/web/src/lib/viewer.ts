/** Who is signed in (GET /api/me): user, profile, roles. Shared by layouts, gates and features. */

import { queryOptions, useQuery } from '@tanstack/react-query';
import { hasProFeatures, hasRole, isStaff, type MeResponse, passesSubscriptionGate } from '@tunedrop/shared';
import { isTeamMemberOf } from '@tunedrop/shared/schemas/member-locks';
import { type AccountNeed, roleAllows } from '@tunedrop/shared/schemas/team-roles';
import { ApiError, client, unwrap } from './api';
import { viewerQueryKey } from './viewer-key';

/** GET /api/me's answer, declared once in packages/shared (api/me.ts). */
export type Viewer = MeResponse;

export { viewerQueryKey };

export async function fetchViewer(): Promise<Viewer | null> {
  try {
    return await unwrap(client.me.$get());
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

/** The viewer's query, read by useViewer and started early by the route loaders (app/route-loaders.ts). */
export const viewerQuery = queryOptions({
  queryKey: viewerQueryKey,
  queryFn: fetchViewer,
  staleTime: 30_000,
});

export function useViewer() {
  return useQuery(viewerQuery);
}

/**
 * What the viewer's role on the acting account allows (record 205), asked of the same `roleAllows` table
 * the server's `access(rule, need)` checks: buttons and links a role cannot use are not shown. The server
 * still refuses; nothing is allowed before /api/me has answered.
 */
export function useAccountCan(): (need: AccountNeed) => boolean {
  const { data: viewer } = useViewer();
  return (need) => (viewer ? roleAllows(viewer.account.role, need) : false);
}

export function viewerFacts(viewer: Viewer) {
  const roles = viewer.roles;
  return {
    isAdmin: hasRole(roles, 'admin'),
    isModerator: hasRole(roles, 'moderator'),
    isStaff: isStaff(roles),
    hasFreeAccess: hasRole(roles, 'admin') || hasRole(roles, 'free_access'),
    isPro: hasProFeatures(viewer.profile.plan, roles),
    /** A payee (record 175): no plan is put to them; their first page is Royalties, not the gate. */
    isPayee: viewer.isPayee,
    /** Acting for someone else's account as a team member (record 230): plans and prices are the owner's. */
    isTeamMember: isTeamMemberOf(viewer),
    passesGate: passesSubscriptionGate({
      subscriptionStatus: viewer.profile.subscriptionStatus,
      subscriptionEnd: viewer.profile.subscriptionEnd,
      roles,
    }),
  };
}
