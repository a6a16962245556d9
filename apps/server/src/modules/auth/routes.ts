/**
 * /api/auth/signup and /api/auth/resend-verification are ours (the account and its profile in one
 * transaction, limits per address and per email); every other /api/auth/* path is better-auth.
 * /api/me answers who is signed in with profile, roles, plan and subscription, and holds the profile
 * update and the dashboard's release count.
 */
import type { MeResponse } from '@tunedrop/shared';
import { emailOnlySchema, profileSchema, signupSchema } from '@tunedrop/shared/schemas/auth';
import { type Context, Hono } from 'hono';
import { access, requireViewer } from '../../lib/access';
import { clientAddress } from '../../lib/client-address';
import type { AppEnv } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { validate } from '../../lib/validate';
import { isPayee } from '../wallet';
import { verifyEmailOnce } from './email-tokens';
import { ACCOUNT_LIMITS, consumeLimit, type LimitRule, limitKey, tooManyAttemptsMessage } from './rate-limit';
import { countReleases, resendVerification, signUp, updateProfile } from './service';
import { resetPasswordWithKnownDevice, signInWithLimits } from './sign-in-limits-route';

export const CLIENT_IP_HEADER = 'x-tunedrop-client-ip';

/** Throws 429 with a clear message when the caller has used up `rule` for `key`; a no-op with RATE_LIMITS=off. */
async function enforceLimit(
  c: Context<AppEnv>,
  action: string,
  scope: 'address' | 'email',
  value: string,
  rule: LimitRule,
): Promise<void> {
  const { config, db } = c.var.deps;
  if (config.RATE_LIMITS !== 'on') return;
  const result = await consumeLimit(db, limitKey(action, scope, value), rule);
  if (!result.isAllowed) {
    c.header('Retry-After', String(result.retryAfterSeconds));
    throw new AppError('rate_limited', tooManyAttemptsMessage(scope, result.retryAfterSeconds), 429);
  }
}

export const authRoutes = new Hono<AppEnv>()
  .post('/signup', access('public'), validate('json', signupSchema), async (c) => {
    const input = c.req.valid('json');
    await enforceLimit(c, 'signup', 'address', clientAddress(c), ACCOUNT_LIMITS.signupPerAddress);
    await enforceLimit(c, 'signup', 'email', input.email, ACCOUNT_LIMITS.signupPerEmail);
    await signUp(c.var.deps, input);
    return c.json({ email: input.email.toLowerCase(), plan: input.plan }, 201);
  })
  .post('/resend-verification', access('public'), validate('json', emailOnlySchema), async (c) => {
    const { email } = c.req.valid('json');
    // The per-email limit is counted by better-auth's hook on the mail it sends (auth.ts).
    await enforceLimit(c, 'resend', 'address', clientAddress(c), ACCOUNT_LIMITS.resendPerAddress);
    await resendVerification(c.var.deps, email);
    return c.json({ status: true }, 200);
  })
  // Sign-in counts failed passwords only, per account and address (decision 085), then hands over to better-auth.
  .post('/sign-in/email', access('public'), (c) => signInWithLimits(c, forwardToAuth))
  .post('/reset-password', access('public'), (c) => resetPasswordWithKnownDevice(c, forwardToAuth))
  // Only links this server mailed, once, for the account's current address (decision 143).
  .get('/verify-email', access('public'), (c) => verifyEmailOnce(c, forwardToAuth))
  .on(['GET', 'POST'], '/*', access('public'), (c) => forwardToAuth(c));

/** Hands a request to better-auth with the caller's address in the one header its limiter reads. */
function forwardToAuth(c: Context<AppEnv>): Promise<Response> {
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
}

export const meRoutes = new Hono<AppEnv>()
  .get('/', access('user', 'personal'), async (c) => {
    const viewer = requireViewer(c);
    return c.json(
      {
        user: viewer.user,
        profile: {
          ...viewer.profile,
          subscriptionEnd: viewer.profile.subscriptionEnd?.toISOString() ?? null,
        },
        roles: viewer.roles,
        isPayee: await isPayee(c.var.deps.db, viewer.account.id),
        account: viewer.account,
      } satisfies MeResponse,
      200,
    );
  })
  .patch('/profile', access('user'), validate('json', profileSchema), async (c) => {
    const viewer = requireViewer(c);
    const profile = await updateProfile(c.var.deps.db, viewer.user.id, c.req.valid('json'));
    return c.json({ profile }, 200);
  })
  .get('/stats', access('user', 'read'), async (c) => {
    const viewer = requireViewer(c);
    const totalReleases = await countReleases(c.var.deps.db, viewer.account.id);
    return c.json({ totalReleases }, 200);
  });
