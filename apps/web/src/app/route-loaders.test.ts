import type { RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dashboardStatsQuery } from '../features/dashboard';
import { viewerQuery } from '../lib/viewer';
import { queryClient } from './query-client';
import { loaders, preloadPath, registerRoutes } from './route-loaders';

let requested: string[] = [];

beforeEach(() => {
  requested = [];
  queryClient.clear();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      requested.push(String(input));
      const body = String(input).startsWith('/api/me/stats') ? { totalReleases: 3 } : {};
      return new Response(JSON.stringify(body), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

type Loader = (args: { request: Request; params: object; context: unknown }) => unknown;
const run = (entry: Pick<RouteObject, 'loader'>, url: string) =>
  (entry.loader as Loader)({ request: new Request(url), params: {}, context: undefined });

describe('route loaders', () => {
  it("start the dashboard home's reads together and return at once, filling the page's queries", async () => {
    expect(run(loaders.dashboardLayout, 'http://app.test/dashboard')).toBeNull();
    expect(run(loaders.dashboardHome, 'http://app.test/dashboard')).toBeNull();
    await vi.waitFor(() => expect(requested).toHaveLength(4));
    expect([...requested].sort()).toEqual([
      '/api/artist-profiles',
      '/api/config',
      '/api/me',
      '/api/me/stats',
    ]);
    await vi.waitFor(() =>
      expect(queryClient.getQueryData(dashboardStatsQuery.queryKey)).toEqual({ totalReleases: 3 }),
    );
    expect(queryClient.getQueryData(viewerQuery.queryKey)).toEqual({});
  });

  it('read My Songs with the search of the URL, and leave a state filter to the page', async () => {
    run(loaders.songs, 'http://app.test/dashboard/songs?q=moon');
    await vi.waitFor(() => expect(requested).toEqual(['/api/releases?limit=20&q=moon']));
    await vi.waitFor(() => expect(queryClient.isFetching()).toBe(0));
    requested = [];
    run(loaders.songs, 'http://app.test/dashboard/songs?state=live');
    // A read the loader starts is in flight at once (the query is fetching when run returns): none is.
    expect(queryClient.isFetching()).toBe(0);
    expect(requested).toEqual([]);
  });

  it('do not read again what was just read', async () => {
    run(loaders.dashboardHome, 'http://app.test/dashboard');
    await vi.waitFor(() => expect(queryClient.getQueryData(dashboardStatsQuery.queryKey)).toBeDefined());
    await vi.waitFor(() => expect(queryClient.isFetching()).toBe(0));
    requested = [];
    run(loaders.dashboardHome, 'http://app.test/dashboard');
    expect(queryClient.isFetching()).toBe(0);
    expect(requested).toEqual([]);
  });
});

describe('preloadPath', () => {
  it("loads the matching routes' chunks and starts their reads", async () => {
    const lazy = vi.fn(async () => ({}));
    registerRoutes([
      {
        path: 'dashboard',
        ...loaders.dashboardLayout,
        lazy,
        children: [{ index: true, ...loaders.dashboardHome }],
      },
    ]);
    preloadPath('/dashboard');
    expect(lazy).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(requested).toContain('/api/me/stats'));
    expect(requested).toContain('/api/me');
  });
});
