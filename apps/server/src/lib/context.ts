/** Hono context variables shared by every router. */
import type { Role } from '@tunedrop/shared';
import type { Deps } from '../deps';

export type SessionUser = { id: string; email: string; name: string; emailVerified: boolean };

export type Viewer = {
  user: SessionUser;
  sessionId: string;
  profile: {
    plan: string;
    fullName: string;
    artistName: string;
    banned: boolean;
    banReason: string | null;
    subscriptionStatus: string;
    subscriptionEnd: Date | null;
  };
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
