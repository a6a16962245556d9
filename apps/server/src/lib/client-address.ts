/** The caller's address for rate limits: the socket's, or X-Forwarded-For's first hop when TRUST_PROXY=1. */
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { AppEnv } from './context';

export function clientAddress(c: Context<AppEnv>): string {
  if (c.var.deps.config.TRUST_PROXY === '1') {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    // In-process requests (tests) have no socket.
    return c.req.header('x-test-client-ip') ?? 'local';
  }
}
