/**
 * What happens to a request body, in one order, for every route (issue 22; record 145): the route's
 * access rule first (lib/access.ts calls `guardBody` only once the caller is let in), then the body's
 * limit, then the control-character backstop on JSON. A refused request whose body was not read is
 * answered with `Connection: close`, so its sender's remaining bytes are never read or drained.
 */
import type { IncomingMessage } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { limitBody, routeBodyLimit } from './body-limit';
import type { AppEnv } from './context';
import { refuseControlCharactersInBody } from './control-characters';

/** Requests whose body was already bounded and checked (a request can pass more than one access()). */
const guarded = new WeakSet<object>();

export async function guardBody(
  c: Context<AppEnv>,
  next: () => Promise<void>,
): Promise<Response | undefined> {
  if (guarded.has(c)) {
    await next();
    return undefined;
  }
  guarded.add(c);
  return limitBody(c, async () => {
    if (!routeBodyLimit(c.get('deps').config, c.req.method, c.req.path).isStreamedByRoute) {
      await refuseControlCharactersInBody(c);
    }
    await next();
  }) as Promise<Response | undefined>;
}

const declaresBody = (c: Context<AppEnv>) => {
  const length = c.req.header('content-length');
  return (length !== undefined && length !== '0') || c.req.header('transfer-encoding') !== undefined;
};

/**
 * After the answer: a refusal (4xx/5xx) to a request whose body is still arriving closes the connection
 * instead of letting the server read (and discard) the rest to reach the next request on it.
 */
export function closeOnUnreadBody(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (c.res.status < 400 || !declaresBody(c)) return;
    // Only on @hono/node-server, which passes the Node request; in-process calls have nothing to close.
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    if (!incoming || incoming.readableEnded) return;
    try {
      c.res.headers.set('Connection', 'close');
    } catch {
      // An immutable response (none of ours today): the server drains it as before.
    }
  };
}
