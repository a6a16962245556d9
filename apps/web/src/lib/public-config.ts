/**
 * GET /api/config (support address, social links) for the public pages' footer and legal pages, without
 * TanStack Query (record 209): the prerendered pages' bundle then carries no query library. Fetched once
 * per page load and kept, as `useAppConfig` does with `staleTime: Infinity`; one retry on failure. The
 * first render (the prerendered markup, then hydration) has no config yet.
 */
import { useSyncExternalStore } from 'react';
import { client, unwrap } from './api';

const fetchConfig = () => unwrap(client.config.$get());
export type PublicConfig = Awaited<ReturnType<typeof fetchConfig>>;

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
