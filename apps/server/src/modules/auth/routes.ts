/** /api/auth/* is better-auth; /api/me answers who is signed in with profile, roles, plan and subscription. */
import { Hono } from 'hono';
import { access, requireViewer } from '../../lib/access';
import { clientAddress } from '../../lib/client-address';
import type { AppEnv } from '../../lib/context';

export const CLIENT_IP_HEADER = 'x-tunedrop-client-ip';

export const authRoutes = new Hono<AppEnv>().on(['GET', 'POST'], '/*', access('public'), (c) => {
  // better-auth rate-limits by this header; it is always set here from the socket, never from the caller.
  const headers = new Headers(c.req.raw.headers);
  headers.set(CLIENT_IP_HEADER, clientAddress(c));
  const hasBody = c.req.method !== 'GET' && c.req.method !== 'HEAD';
  const request = new Request(c.req.raw.url, {
    method: c.req.method,
    headers,
    ...(hasBody ? { body: c.req.raw.body, duplex: 'half' } : {}),
  } as RequestInit);
  return c.var.deps.auth.handler(request);
});

export const meRoutes = new Hono<AppEnv>().get('/', access('user'), (c) => {
  const viewer = requireViewer(c);
  return c.json(
    {
      user: viewer.user,
      profile: {
        ...viewer.profile,
        subscriptionEnd: viewer.profile.subscriptionEnd?.toISOString() ?? null,
      },
      roles: viewer.roles,
    },
    200,
  );
});
