/** Hono context variables shared by every router. */
import type { MeProfile, MeUser, Role } from '@tunedrop/shared';
import type { AccountRole } from '@tunedrop/shared/schemas/team';
import type { Config } from '../config';
import type { Database, Db } from '../db/client';

/** What readiness and /metrics read of the job engine (lib/jobs.ts's JobEngine has these). */
export type JobEngineStatus = {
  isReady(): boolean;
  counts(): Promise<{ queue: string; state: string; count: number }[]>;
  ages(): Promise<{ queue: string; waitingSeconds: number; activeSeconds: number; expirySeconds: number }[]>;
};

/** Set by main on SIGTERM (record 217): readiness answers 503 from then on while the instance drains. */
export type ShutdownState = { isDraining: boolean };

/**
 * The services on every request's context (`c.var.deps`). lib declares here the ones it reads itself;
 * deps.ts, the composition root, adds the modules' and adapters' (auth, storage, mail, live events...)
 * to this interface by declaration merging. So lib imports no module and no adapter (the dependency
 * check of `npm run lint` holds it to that, record 168) while every route sees the whole set. lib code
 * that uses one of the added services takes it as a parameter of a type lib declares (SessionAuth in
 * access.ts, FileReader in file-response.ts), which the real service must satisfy.
 */
export interface RequestDeps {
  config: Config;
  database: Database;
  db: Db;
  /** The job engine once the system runs one: readiness and /metrics read its state. */
  jobs?: JobEngineStatus;
  shutdown?: ShutdownState;
}

/** The signed-in user as GET /api/me answers it, read with the session in one query (lib/access.ts). */
export type SessionUser = MeUser;

/** The signed-in caller; GET /api/me answers it as `MeResponse` (packages/shared/src/api/me.ts). */
export type Viewer = {
  user: SessionUser;
  sessionId: string;
  profile: Omit<MeProfile, 'subscriptionEnd'> & { subscriptionEnd: Date | null };
  roles: Role[];
  /**
   * The acting account (record 202): whose releases, balance and statements this request works on. `id` is
   * the account owner's user id, the viewer's own unless they switched to an account they are a member of;
   * then `profile` is that account's profile too. Account-scoped services take `account.id`; `user` stays
   * the person who acts (audit, created_by).
   */
  account: { id: string; role: AccountRole };
};

export type AppEnv = {
  Variables: {
    deps: RequestDeps;
    /** Set by access(); null on public routes when nobody is signed in. */
    viewer: Viewer | null;
    requestId: string;
  };
};
