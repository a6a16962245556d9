/**
 * Route loaders that start a page's reads as soon as the router matches it (issue 29, record 210): on the
 * first load they run beside the lazy route chunks instead of after them (the layout waited for its chunk,
 * then for /api/me, before the page asked for its data), and on a click or a hover (preloadPath) they run
 * beside the page's chunk. They only fill the query cache and never hold the navigation: each returns at
 * once, and the page reads the same queries (same keys and functions) with useQuery.
 */
import type { QueryClient } from '@tanstack/react-query';
import { matchRoutes, type RouteObject } from 'react-router';
import { reviewReleasesQuery } from '../features/admin-releases';
import { dashboardStatsQuery } from '../features/dashboard';
import { myReleasesQuery } from '../features/releases';
import { appConfigQuery } from '../lib/app-config';
import { artistProfilesQuery } from '../lib/artist-profiles';
import { viewerQuery } from '../lib/viewer';
import { queryClient } from './query-client';

type Prefetch = (url: URL, client: QueryClient) => void;

/** A prefetch read as fresh for a few seconds: hovering again does not read it again. */
const FRESH_FOR_MS = 10_000;

/** The route's `loader` and its `handle.prefetch` (what preloadPath calls on hover). */
function prefetching(prefetch: Prefetch): Pick<RouteObject, 'loader' | 'handle'> {
  return {
    loader: ({ request }) => {
      prefetch(new URL(request.url), queryClient);
      return null;
    },
    handle: { prefetch },
  };
}

/** `?q=` and `?page=` as the list kit reads them (components/ui/use-list-params.ts). */
function listParams(url: URL): { q: string; page: number } {
  return {
    q: (url.searchParams.get('q') ?? '').trim(),
    page: Math.max(1, Math.floor(Number(url.searchParams.get('page'))) || 1),
  };
}

export const loaders = {
  /** Both layouts wait for the viewer before they render their page. */
  dashboardLayout: prefetching((_url, client) => {
    void client.prefetchQuery({ ...viewerQuery, staleTime: FRESH_FOR_MS });
    void client.prefetchQuery({ ...artistProfilesQuery, staleTime: FRESH_FOR_MS });
  }),
  adminLayout: prefetching((_url, client) => {
    void client.prefetchQuery({ ...viewerQuery, staleTime: FRESH_FOR_MS });
  }),
  dashboardHome: prefetching((_url, client) => {
    void client.prefetchQuery({ ...dashboardStatsQuery, staleTime: FRESH_FOR_MS });
    void client.prefetchQuery(appConfigQuery);
  }),
  /** My Songs' first read: before the profiles are known the page lists every profile's releases. */
  songs: prefetching((url, client) => {
    // A state filter is checked by the page; leave those reads to it.
    if (url.searchParams.get('state')) return;
    const filters = { q: listParams(url).q, status: '' as const };
    void client.prefetchInfiniteQuery({ ...myReleasesQuery(filters), staleTime: FRESH_FOR_MS });
  }),
  /** Release review opens on the Pending tab; another tab is checked by the page, which reads it itself. */
  adminReleases: prefetching((url, client) => {
    if (url.searchParams.get('tab')) return;
    const { q, page } = listParams(url);
    void client.prefetchQuery({ ...reviewReleasesQuery('pending', q, page), staleTime: FRESH_FOR_MS });
  }),
};

let registeredRoutes: RouteObject[] = [];

/** main.tsx hands over the app's routes, so layouts can preload a path without importing the router. */
export function registerRoutes(routes: RouteObject[]): void {
  registeredRoutes = routes;
}

/**
 * Starts what a link's page needs before it is followed (pointer over it, or keyboard focus): the lazy
 * chunks of every matching route and their prefetches. A chunk's import() is cached by the browser, so the
 * router's own lazy call later finds it loaded.
 */
export function preloadPath(to: string): void {
  const url = new URL(to, globalThis.location?.origin ?? 'http://localhost');
  for (const { route } of matchRoutes(registeredRoutes, url.pathname) ?? []) {
    const prefetch = (route.handle as { prefetch?: Prefetch } | undefined)?.prefetch;
    prefetch?.(url, queryClient);
    if (typeof route.lazy === 'function') void route.lazy().catch(() => undefined);
  }
}
