/**
 * Keeps open tabs in step with sign-in and sign-out: the tab that signs in or out announces it on a
 * BroadcastChannel, and every other tab drops what it cached for the previous user and re-reads the
 * viewer (the session cookie is shared, so the server already knows). Layouts then redirect by themselves.
 */
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { viewerQueryKey } from './viewer-key';

type AuthEvent = { kind: 'signed-in' | 'signed-out' };

const CHANNEL_NAME = 'tunedrop:auth';

/** Set in sessionStorage by sign-out; /login then skips its redirect of signed-in users once (spec 01 §2). */
export const SIGNED_OUT_FLAG = 'tunedrop:signed-out';
const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL_NAME);

/** Tells the other tabs of this browser that the session changed. */
export function announceAuthChange(kind: AuthEvent['kind']): void {
  channel?.postMessage({ kind } satisfies AuthEvent);
}

/** Forgets every cached answer that belonged to the previous viewer (public settings stay). */
export function dropUserData(queryClient: QueryClient): void {
  queryClient.removeQueries({
    predicate: (query) => query.queryKey[0] !== 'app-config' && query.queryKey[0] !== viewerQueryKey[0],
  });
}

/** After a sign-in or sign-out (here or in another tab): the viewer is re-read, or known to be nobody. */
export function applyAuthEvent(queryClient: QueryClient, event: AuthEvent): void {
  dropUserData(queryClient);
  if (event.kind === 'signed-out') queryClient.setQueryData(viewerQueryKey, null);
  else void queryClient.resetQueries({ queryKey: viewerQueryKey });
}

/** Listens for the other tabs' announcements; mounted once, above the router. */
export function AuthSync() {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (typeof BroadcastChannel === 'undefined') return;
    const listener = new BroadcastChannel(CHANNEL_NAME);
    listener.onmessage = (message: MessageEvent<AuthEvent>) => {
      if (message.data?.kind === 'signed-in' || message.data?.kind === 'signed-out') {
        applyAuthEvent(queryClient, message.data);
      }
    };
    return () => listener.close();
  }, [queryClient]);
  return null;
}
