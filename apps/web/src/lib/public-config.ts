/**
 * GET /api/config (support address, social links) for the public pages' footer and legal pages, without
 * TanStack Query (record 209): the prerendered pages' bundle then carries no query library. Fetched once
 * per page load and kept, as `useAppConfig` does with `staleTime: Infinity`; one retry on failure. The
 * first render (the prerendered markup, then hydration) has no config yet.
 */
import { useSyncExternalStore } from 'react';
import type { client, unwrap } from './api';

/** GET /api/config's 2xx body, as `unwrap(client.config.$get())` types it from the server's route. */
export type PublicConfig = Awaited<ReturnType<typeof unwrap<Awaited<ReturnType<typeof client.config.$get>>>>>;

/**
 * A plain fetch rather than the typed client: the marketing pages then load no hono/client (about 2 KB
 * gzip, record 216). Same request (same-origin cookies); any non-2xx answer is a failure, as unwrap's.
 */
async function fetchConfig(): Promise<PublicConfig> {
  const response = await fetch('/api/config', { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`GET /api/config answered ${response.status}`);
  // The server's route gives this body its type (PublicConfig above), as unwrap does for the client.
  return (await response.json()) as PublicConfig;
}

let config: PublicConfig | undefined;
let request: Promise<void> | undefined;
const listeners = new Set<() => void>();

/** Fetches the config (one retry) and tells the subscribed components; a failure lets a later mount ask again. */
function load(): Promise<void> {
  return fetchConfig()
    .catch(fetchConfig)
    .then(
      (value) => {
        config = value;
        for (const notify of listeners) notify();
      },
      () => {
        request = undefined;
      },
    );
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!request) request = load();
  return () => listeners.delete(listener);
}

export function usePublicConfig(): { data: PublicConfig | undefined } {
  const data = useSyncExternalStore(
    subscribe,
    () => config,
    () => undefined,
  );
  return { data };
}
