/**
 * GET /api/events: a Server-Sent Events stream of the signed-in user's own account. It opens with a
 * `ready` event carrying the current state (so a reconnecting tab catches up on anything it missed),
 * then sends a `profile` event after every committed change, and a comment line as a heartbeat.
 * The live-updates module owns it (record 169; it reads profiles, roles and sessions); infra/events only
 * fans out the database's notifications (profile-events.ts) and knows no business rule (record 092).
 */
import type { LiveProfileEvent } from '@tunedrop/shared/schemas/live-updates';
import { eq, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import { type SSEStreamingApi, streamSSE } from 'hono/streaming';
import type { DbOrTx } from '../../db/client';
import { profiles, userRoles } from '../../db/schema';
import type { AppEnv } from '../../lib/context';
import { AppError } from '../../lib/errors';

const HEARTBEAT_MS = 25_000;
/** How often a long-lived stream checks that its session still exists (sign-out elsewhere ends it). */
const SESSION_CHECK_EVERY_BEATS = 12;
/** Tells EventSource how long to wait before reconnecting after a drop. */
const RETRY_MS = 2_000;

/**
 * Open streams per session and per server instance (issue 22, finding 14: one session held 1,000).
 * A browser shares one session across its tabs and opens one stream per tab; 10 covers any sensible
 * number of tabs. Each stream holds a socket and a subscription, so an instance takes at most 5,000.
 */
export const LIVE_STREAM_LIMITS = { perSession: 10, perInstance: 5_000 } as const;
export const LIVE_STREAM_MESSAGES = {
  perSession:
    'Too many live-update connections are open for this session. Close some Tunedrop tabs and reload this one.',
  perInstance: 'The server has too many live-update connections open. Please reload the page in a minute.',
} as const;

/** Counts open streams in this process: a stream is a socket on this instance, so the count is its own. */
export function createStreamSlots(limits: { perSession: number; perInstance: number }) {
  const bySession = new Map<string, number>();
  let total = 0;
  return {
    /** A release function for a new stream, or which limit refused it. */
    acquire(sessionId: string): { release: () => void } | { refused: 'perSession' | 'perInstance' } {
      const open = bySession.get(sessionId) ?? 0;
      if (open >= limits.perSession) return { refused: 'perSession' };
      if (total >= limits.perInstance) return { refused: 'perInstance' };
      bySession.set(sessionId, open + 1);
      total += 1;
      let isReleased = false;
      return {
        release() {
          if (isReleased) return;
          isReleased = true;
          total -= 1;
          const left = (bySession.get(sessionId) ?? 1) - 1;
          if (left > 0) bySession.set(sessionId, left);
          else bySession.delete(sessionId);
        },
      };
    },
    get total() {
      return total;
    },
  };
}

const slotsByEvents = new WeakMap<object, ReturnType<typeof createStreamSlots>>();
/** One count per running system (tests start several in one process). */
function streamSlots(events: object) {
  let slots = slotsByEvents.get(events);
  if (!slots) {
    slots = createStreamSlots(LIVE_STREAM_LIMITS);
    slotsByEvents.set(events, slots);
  }
  return slots;
}

export async function loadLiveProfile(
  db: DbOrTx,
  userId: string,
): Promise<Omit<LiveProfileEvent, 'changed'> | null> {
  // One round trip: a stream re-reads this after every change.
  const rows = await db
    .select({
      plan: profiles.plan,
      pendingPlan: profiles.pendingPlan,
      subscriptionStatus: profiles.subscriptionStatus,
      subscriptionEnd: profiles.subscriptionEnd,
      cancelAtPeriodEnd: profiles.cancelAtPeriodEnd,
      balanceCents: profiles.balanceCents,
      pendingBalanceCents: profiles.pendingBalanceCents,
      totalEarningsCents: profiles.totalEarningsCents,
      fullName: profiles.fullName,
      artistName: profiles.artistName,
      banned: profiles.banned,
      banReason: profiles.banReason,
      roles: sql<string[]>`coalesce((select array_agg(${userRoles.role} order by ${userRoles.role})
        from ${userRoles} where ${userRoles.userId} = ${profiles.id}), '{}')`,
    })
    .from(profiles)
    .where(eq(profiles.id, userId))
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  const { roles, ...profile } = row;
  return {
    profile: {
      ...profile,
      subscriptionEnd: profile.subscriptionEnd?.toISOString() ?? null,
    },
    roles: Array.isArray(roles) ? roles : [],
  };
}

export function streamProfileEvents(c: Context<AppEnv>, userId: string, sessionId: string): Response {
  const { db, events, auth, logger } = c.var.deps;
  const requestHeaders = c.req.raw.headers;
  const slot = streamSlots(events).acquire(sessionId);
  if ('refused' in slot) {
    c.header('Retry-After', '60');
    throw new AppError('too_many_streams', LIVE_STREAM_MESSAGES[slot.refused], 429);
  }
  c.header('X-Accel-Buffering', 'no');
  return streamSSE(
    c,
    async (stream) => {
      try {
        await runStream(stream);
      } finally {
        slot.release();
      }
    },
    async (error) => {
      logger.warn({ err: error, userId }, 'live update stream failed');
    },
  );

  async function runStream(stream: SSEStreamingApi) {
    let isOpen = true;
    let wake: (() => void) | null = null;
    const close = () => {
      isOpen = false;
      wake?.();
    };
    // One read at a time, in order, so a slower read never overwrites a newer state.
    let queue: Promise<void> = Promise.resolve();
    const send = (event: 'ready' | 'profile', changed: string[]) => {
      queue = queue
        .then(async () => {
          if (!isOpen) return;
          const state = await loadLiveProfile(db, userId);
          if (!state) return close();
          const body: LiveProfileEvent = { changed, ...state };
          await stream.writeSSE({ event, data: JSON.stringify(body), retry: RETRY_MS });
        })
        .catch((error) => {
          logger.warn({ err: error, userId }, 'live update could not be sent');
          close();
        });
      return queue;
    };
    // Subscribe before reading the first state, so no change can fall between the two.
    const unsubscribe = await events.subscribe(userId, {
      onChange: (changed) => void send('profile', changed),
      onResync: () => void send('profile', []),
      onClose: close,
    });
    stream.onAbort(close);
    try {
      await send('ready', []);
      let beats = 0;
      while (isOpen && !stream.aborted) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, HEARTBEAT_MS).unref();
        });
        wake = null;
        if (!isOpen || stream.aborted) break;
        await stream.write(': keep-alive\n\n');
        beats += 1;
        if (beats % SESSION_CHECK_EVERY_BEATS === 0) {
          const session = await auth.api.getSession({ headers: requestHeaders });
          if (!session || session.user.id !== userId) break;
        }
      }
    } finally {
      isOpen = false;
      unsubscribe();
      await queue;
    }
  }
}
