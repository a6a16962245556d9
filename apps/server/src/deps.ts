/** What every module receives: configuration, database, auth, infrastructure. Built once in main.ts. */
import type { Config } from './config';
import type { Database, Db } from './db/client';
import type { ProfileEventHub } from './infra/events/profile-events';
import type { MailTransport } from './infra/mail/mail';
import type { Storage } from './infra/storage/storage';
import type { Logger } from './lib/logger';
import type { Auth } from './modules/auth/auth';

export type Deps = {
  config: Config;
  database: Database;
  db: Db;
  auth: Auth;
  storage: Storage;
  mailTransport: MailTransport;
  logger: Logger;
  /** Asks the mail worker to deliver now (a no-op when no worker runs, as in some tests). */
  wakeMail: () => void;
  /** Live updates: fans the database's profile_changes notifications out to open GET /api/events streams. */
  events: ProfileEventHub;
  /** The job engine (lib/jobs.ts) once the system runs one: readiness and /metrics read its state. */
  jobs?: JobEngineStatus;
};

/** What readiness and /metrics read of the job engine (lib/jobs.ts's JobEngine has these). */
export type JobEngineStatus = {
  isReady(): boolean;
  counts(): Promise<{ queue: string; state: string; count: number }[]>;
};
