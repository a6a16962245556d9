/** Every route declares who may call it: this lists them all and fails on any route without a rule. */

import type { AccountNeed } from '@tunedrop/shared/schemas/team';
import { describe, expect, it } from 'vitest';
import { createApp, enableTestFixtures } from '../app';
import type { Deps } from '../deps';
import { testFixturesRoutes } from '../modules/test-fixtures/routes';
import { ROUTE_TABLE } from '../test-support/route-table';
import { ACCESS_RULE, ACCOUNT_NEED, type AccessRule, GLOBAL_MIDDLEWARE } from './access';

type RouteEntry = { method: string; path: string; handler: unknown };

export function listRoutes(): {
  method: string;
  path: string;
  rule: AccessRule | null;
  account: AccountNeed | null;
}[] {
  enableTestFixtures(testFixturesRoutes);
  const app = createApp({
    config: { appUrl: 'http://localhost:3000', NODE_ENV: 'test', E2E_FIXTURES_TOKEN: 'listing' },
  } as unknown as Deps);
  const groups = new Map<string, unknown[]>();
  for (const route of app.routes as RouteEntry[]) {
    const key = `${route.method} ${route.path}`;
    groups.set(key, [...(groups.get(key) ?? []), route.handler]);
  }
  const listed: { method: string; path: string; rule: AccessRule | null; account: AccountNeed | null }[] = [];
  for (const [key, handlers] of groups) {
    const isGlobalOnly = handlers.every(
      (handler) => (handler as Record<symbol, unknown>)[GLOBAL_MIDDLEWARE] === true,
    );
    if (isGlobalOnly) continue;
    const [method = '', path = ''] = key.split(' ');
    if (!path.startsWith('/api/')) continue;
    const marked = handlers.find(
      (handler) => (handler as Record<symbol, unknown>)[ACCESS_RULE] !== undefined,
    ) as Record<symbol, string> | undefined;
    listed.push({
      method,
      path,
      rule: (marked?.[ACCESS_RULE] as AccessRule | undefined) ?? null,
      account: (marked?.[ACCOUNT_NEED] as AccountNeed | undefined) ?? null,
    });
  }
  return listed;
}

describe('route access', () => {
  it('every API route declares an access rule', () => {
    const routes = listRoutes().filter((route) => route.path !== '/api/*');
    expect(routes.length).toBeGreaterThan(0);
    const missing = routes
      .filter((route) => route.rule === null)
      .map((route) => `${route.method} ${route.path}`);
    expect(missing).toEqual([]);
  });

  it('matches the route table exactly: every route, its method, its rule and its account role need (test-support/route-table.ts)', () => {
    const actual = listRoutes()
      .filter((route) => route.path !== '/api/*')
      .map((route) => `${route.method} ${route.path} → ${route.rule} / ${route.account}`)
      .sort();
    const expected = ROUTE_TABLE.map(
      (row) => `${row.method} ${row.path} → ${row.rule} / ${row.account}`,
    ).sort();
    const missingFromTable = actual.filter((line) => !expected.includes(line));
    const goneFromApp = expected.filter((line) => !actual.includes(line));
    // A new or changed route needs its row in test-support/route-table.ts (the matrix test calls it too).
    expect({ missingFromTable, goneFromApp }).toEqual({ missingFromTable: [], goneFromApp: [] });
    expect(new Set(expected).size).toBe(ROUTE_TABLE.length);
  });

  it('declares the rules we expect for the foundation routes', () => {
    const byKey = new Map(listRoutes().map((route) => [`${route.method} ${route.path}`, route.rule]));
    expect(byKey.get('GET /api/health')).toBe('public');
    expect(byKey.get('GET /api/me')).toBe('user');
    expect(byKey.get('GET /api/config')).toBe('public');
  });
});
