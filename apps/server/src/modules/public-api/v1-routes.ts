/**
 * /api/v1 built from the app's own routes (record 290): each row of V1_ROUTES registers the app route's
 * handler chain again, behind the key gate, with Idempotency-Key after access() on POSTs. The OpenAPI
 * document is generated from the same rows and the schemas their validate() middleware carries.
 */
import { Hono, type MiddlewareHandler } from 'hono';
import { ACCESS_RULE, ACCOUNT_NEED, access } from '../../lib/access';
import type { AppEnv } from '../../lib/context';
import { idempotency, keyGate } from './key-gate';
import { openApiDocument, type SourceRoute } from './openapi';
import { referencePage, scalarBundle } from './reference';
import { V1_ROUTES } from './v1-table';

/** The handler chain of one app route, in order; an error names a v1 row that is no app route. */
export function appChain(
  source: readonly SourceRoute[],
  method: string,
  path: string,
): MiddlewareHandler<AppEnv>[] {
  const handlers = source
    .filter((route) => route.method === method && route.path === `/api${path}`)
    .map((route) => route.handler as MiddlewareHandler<AppEnv>);
  if (handlers.length === 0)
    throw new Error(`v1 route ${method} ${path} is not a route of the app (v1-table.ts)`);
  return handlers;
}

const marks = (handler: unknown) => handler as Record<symbol, unknown>;

export function buildV1Routes(source: readonly SourceRoute[]): Hono<AppEnv> {
  const v1 = new Hono<AppEnv>();
  const document = openApiDocument(source);
  v1.get('/openapi.json', access('public'), (c) => c.json(document, 200));
  // The reference page reading that document, with its script served from here (record 292).
  v1.get('/reference', access('public'), referencePage);
  v1.get('/reference/scalar.js', access('public'), scalarBundle);
  for (const entry of V1_ROUTES) {
    const chain = appChain(source, entry.method, entry.path);
    const accessAt = chain.findIndex((handler) => marks(handler)[ACCESS_RULE] !== undefined);
    const original = chain[accessAt];
    if (!original) throw new Error(`v1 route ${entry.method} ${entry.path} has no access rule`);
    // The key gate runs inside the route's own access(), which stays its first handler (nothing reads a
    // body before it, record 145) and keeps its marks for the route table.
    const gate = keyGate(entry.scope);
    const gated: MiddlewareHandler<AppEnv> = async (c, next) => {
      // access() may answer itself (a body over its limit: 413); that answer is the route's.
      let answer: Response | undefined;
      await gate(c, async () => {
        answer = (await original(c, next)) ?? undefined;
      });
      return answer;
    };
    const [first, ...rest] = [
      ...chain.slice(0, accessAt),
      Object.assign(gated, {
        [ACCESS_RULE]: marks(original)[ACCESS_RULE],
        [ACCOUNT_NEED]: marks(original)[ACCOUNT_NEED],
      }),
      ...(entry.method === 'POST' ? [idempotency()] : []),
      ...chain.slice(accessAt + 1),
    ];
    if (first) v1.on(entry.method, entry.path, first, ...rest);
  }
  return v1;
}
