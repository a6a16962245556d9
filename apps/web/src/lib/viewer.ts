/** Who is signed in (GET /api/me): user, profile, roles. Shared by layouts, gates and features. */

import { useQuery } from '@tanstack/react-query';
import {
  hasProFeatures,
  hasRole,
  isStaff,
  type Plan,
  passesSubscriptionGate,
  type Role,
  type SubscriptionStatus,
} from '@tunedrop/shared';
import { ApiError, api } from './api';

export type Viewer = {
  user: { id: string; email: string; name: string; emailVerified: boolean; twoFactorEnabled?: boolean };
  profile: {
    plan: Plan;
    fullName: string;
    artistName: string;
    banned: boolean;
    banReason: string | null;
    subscriptionStatus: SubscriptionStatus;
    subscriptionEnd: string | null;
  };
  roles: Role[];
};

export const viewerQueryKey = ['viewer'] as const;

export async function fetchViewer(): Promise<Viewer | null> {
  try {
    return await api<Viewer>('/api/me');
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export function useViewer() {
  return useQuery({ queryKey: viewerQueryKey, queryFn: fetchViewer, staleTime: 30_000 });
}

export function viewerFacts(viewer: Viewer) {
  const roles = viewer.roles;
  return {
    isAdmin: hasRole(roles, 'admin'),
    isModerator: hasRole(roles, 'moderator'),
    isStaff: isStaff(roles),
    hasFreeAccess: hasRole(roles, 'admin') || hasRole(roles, 'free_access'),
    isPro: hasProFeatures(viewer.profile.plan, roles),
    passesGate: passesSubscriptionGate({
      subscriptionStatus: viewer.profile.subscriptionStatus,
      subscriptionEnd: viewer.profile.subscriptionEnd,
      roles,
    }),
  };
}
