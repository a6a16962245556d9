/**
 * Live updates, server side: one LISTEN on 'profile_changes' per instance (the database triggers of
 * migration 0001 NOTIFY it from the same transaction as any change to a profile or its roles), fanned
 * out to the open GET /api/events streams of that user on this instance. Works the same on PGlite and
 * on PostgreSQL, where every instance listens, so a change made anywhere reaches every open tab.
 */
import type { Database } from '../../db/client';
import type { Logger } from '../../lib/logger';

export const PROFILE_CHANGES_CHANNEL = 'profile_changes';

export type ProfileSubscriber = {
  /** Something about this user's account changed; `changed` names the column groups. */
  onChange: (changed: string[]) => void;
  /** Notifications may have been missed (the listening connection was re-established): send the state again. */
  onResync: () => void;
  /** The server is shutting down: end the stream. */
  onClose: () => void;
};

export type ProfileEventHub = {
  /** Starts listening on first use; returns a function that removes the subscriber. */
  subscribe: (userId: string, subscriber: ProfileSubscriber) => Promise<() => void>;
  /** Number of open subscriptions (for tests and benchmarks). */
  size: () => number;
  /** Ends every stream and stops listening; called before the database closes. */
  stop: () => Promise<void>;
};

/**
 * A row trigger names one user (`userId`, roles); the statement trigger on profiles names up to 100
 * (`userIds`); a balance batch of more than 100 users says `allUsers` (migration 0024): every open
 * stream re-reads its own account.
 */
type Notification = { userIds: string[] | 'all'; changed: string[] };

function parseNotification(payload: string): Notification | null {
  try {
    const value = JSON.parse(payload) as {
      userId?: unknown;
      userIds?: unknown;
      allUsers?: unknown;
      changed?: unknown;
    };
    const userIds =
      value.allUsers === true
        ? 'all'
        : typeof value.userId === 'string'
          ? [value.userId]
          : Array.isArray(value.userIds)
            ? value.userIds.filter((item): item is string => typeof item === 'string')
            : null;
    if (!userIds) return null;
    const changed = Array.isArray(value.changed)
      ? value.changed.filter((item): item is string => typeof item === 'string')
      : [];
    return { userIds, changed };
  } catch {
    return null;
  }
}

export function createProfileEventHub(database: Pick<Database, 'listen'>, logger: Logger): ProfileEventHub {
  const subscribers = new Map<string, Set<ProfileSubscriber>>();
  let listening: Promise<() => Promise<void>> | null = null;
  let isStopped = false;
  let stopping: Promise<void> | null = null;

  const deliver = (payload: string) => {
    const notification = parseNotification(payload);
    if (!notification) {
      logger.warn({ payload }, 'ignored a malformed profile_changes notification');
      return;
    }
    if (notification.userIds === 'all') {
      for (const set of subscribers.values())
        for (const subscriber of set) subscriber.onChange(notification.changed);
      return;
    }
    for (const userId of notification.userIds) {
      for (const subscriber of subscribers.get(userId) ?? []) subscriber.onChange(notification.changed);
    }
  };

  const resyncAll = () => {
    for (const set of subscribers.values()) for (const subscriber of set) subscriber.onResync();
  };

  const ensureListening = () => {
    if (!listening) {
      listening = database.listen(PROFILE_CHANGES_CHANNEL, deliver, resyncAll);
      // A failed start is retried by the next subscriber rather than remembered forever.
      listening.catch(() => {
        listening = null;
      });
    }
    return listening;
  };

  return {
    async subscribe(userId, subscriber) {
      if (isStopped) throw new Error('live updates are stopped');
      await ensureListening();
      if (isStopped) {
        subscriber.onClose();
        return () => undefined;
      }
      const set = subscribers.get(userId) ?? new Set<ProfileSubscriber>();
      set.add(subscriber);
      subscribers.set(userId, set);
      return () => {
        set.delete(subscriber);
        if (set.size === 0 && subscribers.get(userId) === set) subscribers.delete(userId);
      };
    },
    size() {
      let count = 0;
      for (const set of subscribers.values()) count += set.size;
      return count;
    },
    stop() {
      // Called at the start of a shutdown and again before the database closes: both wait for one stop.
      stopping ??= (async () => {
        isStopped = true;
        for (const set of subscribers.values()) for (const subscriber of set) subscriber.onClose();
        subscribers.clear();
        const current = listening;
        listening = null;
        if (current) {
          const unlisten = await current.catch(() => null);
          await unlisten?.();
        }
      })();
      return stopping;
    },
  };
}
