/**
 * The sign-in route's limits around better-auth's /sign-in/email, and the known-device cookie a completed
 * password reset gives (decision 085; counters in sign-in-limits.ts).
 */
import type { Context } from 'hono';
import { clientAddress } from '../../lib/client-address';
import type { AppEnv } from '../../lib/context';
import { tooManyAttemptsMessage } from './rate-limit';
import { beginSignIn, finishSignIn, isKnownDevice, knownDeviceCookie } from './sign-in-limits';

async function bodyField(request: Request, field: string): Promise<string> {
  try {
    const body = (await request.clone().json()) as Record<string, unknown> | null;
    const value = body?.[field];
    return typeof value === 'string' ? value : '';
  } catch {
    return '';
  }
}

async function withKnownDevice(c: Context<AppEnv>, response: Response, email: string): Promise<Response> {
  const { config, db } = c.var.deps;
  const cookie = await knownDeviceCookie(
    db,
    email,
    c.req.header('cookie'),
    config.appUrl.startsWith('https://'),
  );
  if (!cookie) return response;
  const headers = new Headers(response.headers);
  headers.append('Set-Cookie', cookie);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

export async function signInWithLimits(
  c: Context<AppEnv>,
  forward: (c: Context<AppEnv>) => Promise<Response>,
): Promise<Response> {
  const { config, db } = c.var.deps;
  const email = await bodyField(c.req.raw, 'email');
  // Without an email better-auth answers the validation error itself; nothing to count.
  if (config.RATE_LIMITS !== 'on' || email.trim() === '') return forward(c);
  const cookieHeader = c.req.header('cookie');
  const attempt = await beginSignIn(db, {
    email,
    address: clientAddress(c),
    isKnownDevice: await isKnownDevice(db, email, cookieHeader),
  });
  if (!('counters' in attempt)) {
    const retryAfter = String(attempt.retryAfterSeconds);
    return c.json(
      { code: 'RATE_LIMITED', message: tooManyAttemptsMessage(attempt.scope, attempt.retryAfterSeconds) },
      429,
      { 'Retry-After': retryAfter, 'X-Retry-After': retryAfter },
    );
  }
  let response: Response;
  try {
    response = await forward(c);
  } catch (error) {
    await finishSignIn(db, attempt, 500);
    throw error;
  }
  await finishSignIn(db, attempt, response.status);
  return response.status === 200 ? withKnownDevice(c, response, email) : response;
}

/**
 * A completed password reset proves the mailbox: the browser that did it becomes a known device of the
 * account, so it signs in even while strangers hold the account-wide failure cap (decision 085).
 */
export async function resetPasswordWithKnownDevice(
  c: Context<AppEnv>,
  forward: (c: Context<AppEnv>) => Promise<Response>,
): Promise<Response> {
  const { auth, config } = c.var.deps;
  const token = await bodyField(c.req.raw, 'token');
  if (config.RATE_LIMITS !== 'on' || token === '') return forward(c);
  // Read before forwarding: a successful reset deletes the token.
  const { internalAdapter } = await auth.$context;
  const verification = await internalAdapter.findVerificationValue(`reset-password:${token}`);
  const owner = verification ? await internalAdapter.findUserById(verification.value) : null;
  const response = await forward(c);
  return response.status === 200 && owner ? withKnownDevice(c, response, owner.email) : response;
}
