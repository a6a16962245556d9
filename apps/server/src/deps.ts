/**
 * What every module receives: configuration, database, auth, infrastructure. Built once in server.ts.
 * The request context carries the same set: lib/context.ts declares the part lib reads, and this file
 * adds the rest to it (declaration merging), so lib needs no import of a module or an adapter.
 */

import type { ProfileEventHub } from './infra/events/profile-events';
import type { MailTransport } from './infra/mail/mail';
import type { Storage } from './infra/storage/storage';
import type { RequestDeps } from './lib/context';
import type { Logger } from './lib/logger';
import type { Auth } from './modules/auth';

declare module './lib/context' {
  interface RequestDeps {
    auth: Auth;
    storage: Storage;
    mailTransport: MailTransport;
    logger: Logger;
    /** Asks the mail worker to deliver now (a no-op when no worker runs, as in some tests). */
    wakeMail: () => void;
    /** Live updates: fans the database's profile_changes notifications out to open GET /api/events streams. */
    events: ProfileEventHub;
  }
}

export type Deps = RequestDeps;
