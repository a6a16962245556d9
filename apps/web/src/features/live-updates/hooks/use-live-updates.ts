/**
 * Live updates in the browser: one EventSource on GET /api/events while someone is signed in. Each
 * event carries the user's account as it now is; the viewer (plan, subscription, gate, roles) and the
 * Current Plan answer are updated in place, and other queries on screen are re-read. After a drop the
 * browser reconnects by itself; when it gives up (the server was down) we retry with backoff, and the
 * first event after any reconnection is treated as a catch-up.
 */
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { type SubscriptionInfo, subscriptionInfoQueryKey } from '@tunedrop/shared/schemas/billing-texts';
import { type LiveProfileEvent, parseLiveProfileEvent } from '@tunedrop/shared/schemas/live-updates';
import { useEffect } from 'react';
import { type Viewer, viewerQueryKey } from '../../../lib/viewer';

const MAX_RETRY_MS = 30_000;

export function applyLiveProfile(queryClient: QueryClient, event: LiveProfileEvent, isCatchUp: boolean) {
  queryClient.setQueryData<Viewer | null>(viewerQueryKey, (old) => {
    if (!old) return old;
    // Only the fields the viewer already has: /api/me decides its shape.
    const profile: Record<string, unknown> = { ...old.profile };
    for (const [key, value] of Object.entries(event.profile)) if (key in profile) profile[key] = value;
    return { ...old, profile: profile as Viewer['profile'], roles: event.roles as Viewer['roles'] };
  });
  queryClient.setQueryData<SubscriptionInfo>(subscriptionInfoQueryKey, (old) =>
    old
      ? {
          ...old,
          subscription_status: event.profile.subscriptionStatus,
          subscription_end: event.profile.subscriptionEnd,
          plan: event.profile.plan,
          pending_plan: event.profile.pendingPlan,
          cancel_at_period_end: event.profile.cancelAtPeriodEnd,
          has_subscription: old.has_subscription || event.profile.subscriptionStatus !== 'inactive',
        }
      : old,
  );
  if (event.changed.length > 0 || isCatchUp) {
    // Balances, plan limits and lists elsewhere may follow from the change: re-read what is on screen.
    void queryClient.invalidateQueries({
      predicate: (query) => {
        const [head] = query.queryKey;
        return head !== viewerQueryKey[0] && head !== 'app-config' && head !== subscriptionInfoQueryKey[0];
      },
    });
  }
}

function parse(message: MessageEvent<string>): LiveProfileEvent | null {
  try {
    return parseLiveProfileEvent(JSON.parse(message.data));
  } catch {
    return null;
  }
}

/** Keeps this tab's account state live while `userId` is signed in. */
export function useLiveUpdates(userId: string | undefined) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!userId || typeof EventSource === 'undefined') return;
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    let hasConnected = false;
    let isStopped = false;

    const connect = () => {
      source = new EventSource('/api/events');
      source.addEventListener('ready', (message) => {
        failures = 0;
        const event = parse(message as MessageEvent<string>);
        if (event) applyLiveProfile(queryClient, event, hasConnected);
        hasConnected = true;
      });
      source.addEventListener('profile', (message) => {
        const event = parse(message as MessageEvent<string>);
        if (event) applyLiveProfile(queryClient, event, false);
      });
      source.onerror = () => {
        // CONNECTING: the browser is already retrying. CLOSED: it gave up (an error answer), so we retry,
        // and re-read the viewer in case the session ended (the layouts then redirect by themselves).
        if (source?.readyState !== EventSource.CLOSED || isStopped) return;
        source.close();
        void queryClient.invalidateQueries({ queryKey: viewerQueryKey });
        const delay = Math.min(MAX_RETRY_MS, 1000 * 2 ** failures);
        failures += 1;
        retry = setTimeout(connect, delay);
      };
    };

    connect();
    return () => {
      isStopped = true;
      clearTimeout(retry);
      source?.close();
    };
  }, [userId, queryClient]);
}
