/**
 * GET /api/events: a Server-Sent Events stream of the signed-in user's own account. It opens with a
 * `ready` event carrying the current state (so a reconnecting tab catches up on anything it missed),
 * then sends a `profile` event after every committed change, and a comment line as a heartbeat.
 * Lives in the billing module (it reads profiles, roles and sessions); infra/events only fans out the
 * database's notifications (profile-events.ts) and knows no business rule (record 092).
 */
import type { LiveProfileEvent } from '@tunedrop/shared/schemas/billing';
import { eq, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { DbOrTx } from '../../db/client';
import { profiles, userRoles } from '../../db/schema';
import type { AppEnv } from '../../lib/context';

const HEARTBEAT_MS = 25_000;
/** How often a long-lived stream checks that its session still exists (sign-out elsewhere ends it). */
const SESSION_CHECK_EVERY_BEATS = 12;
/** Tells EventSource how long to wait before reconnecting after a drop. */
const RETRY_MS = 2_000;

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
      plan: profile.plan as LiveProfileEvent['profile']['plan'],
      pendingPlan: profile.pendingPlan as LiveProfileEvent['profile']['pendingPlan'],
      subscriptionStatus: profile.subscriptionStatus as LiveProfileEvent['profile']['subscriptionStatus'],
      subscriptionEnd: profile.subscriptionEnd?.toISOString() ?? null,
    },
    roles: Array.isArray(roles) ? roles : [],
  };
}

export function streamProfileEvents(c: Context<AppEnv>, userId: string): Response {
  const { db, events, auth, logger } = c.var.deps;
  const requestHeaders = c.req.raw.headers;
  c.header('X-Accel-Buffering', 'no');
  return streamSSE(
    c,
    async (stream) => {
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
    },
    async (error) => {
      logger.warn({ err: error, userId }, 'live update stream failed');
    },
  );
}
