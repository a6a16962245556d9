/** Hono context variables shared by every router. */
import type { MeProfile, MeUser, Role } from '@tunedrop/shared';
import type { Deps } from '../deps';

/** The signed-in user as GET /api/me answers it, read with the session in one query (lib/access.ts). */
export type SessionUser = MeUser;

/** The signed-in caller; GET /api/me answers it as `MeResponse` (packages/shared/src/api/me.ts). */
export type Viewer = {
  user: SessionUser;
  sessionId: string;
  profile: Omit<MeProfile, 'subscriptionEnd'> & { subscriptionEnd: Date | null };
  roles: Role[];
};

export type AppEnv = {
  Variables: {
    deps: Deps;
    /** Set by access(); null on public routes when nobody is signed in. */
    viewer: Viewer | null;
    requestId: string;
  };
};
