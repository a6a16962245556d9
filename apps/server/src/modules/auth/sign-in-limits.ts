/**
 * Sign-in limits that stop password guessing without letting anyone lock an account's owner out
 * (decision 085). Only failed attempts count; three counters, all in the shared rate_limit table:
 *
 * - per account and address: 10 failures in 5 minutes from one address for one account;
 * - per address, from unknown devices: 30 failures in 5 minutes across accounts (stops one address
 *   spraying many accounts); successes never count, so an office behind one NAT never locks itself out;
 * - per account, from unknown devices: 30 failures in 5 minutes (slows guessing spread over many
 *   addresses).
 * A browser that has signed in to the account before (or completed a password reset for it) carries a
 * signed known-device cookie and skips the last two, so a stranger's failures, elsewhere or behind the
 * same NAT, never stop the owner's own browser.
 *
 * Each attempt takes its place in the counters before the password is checked (one atomic upsert each,
 * so parallel guesses cannot slip past a cap) and gives it back when the answer was not a wrong
 * password; an attempt refused with 429 gives its places back too.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { rateLimit } from '../../db/schema';
import { consumeLimit, type LimitRule, limitKey } from './rate-limit';

export const SIGN_IN_LIMITS = {
  perAccountAndAddress: { windowSeconds: 300, max: 10 },
  perAddress: { windowSeconds: 300, max: 30 },
  perAccountUnknownDevice: { windowSeconds: 300, max: 30 },
} as const satisfies Record<string, LimitRule>;

export const KNOWN_DEVICE_COOKIE = 'tunedrop.known-device';
const KNOWN_DEVICE_MAX_ACCOUNTS = 5;
const KNOWN_DEVICE_MAX_AGE_SECONDS = 180 * 24 * 60 * 60;

type Counter = { key: string; rule: LimitRule; scope: 'address' | 'email' };

export type SignInAttempt = { counters: Counter[] };

export type SignInRefusal = { scope: 'address' | 'email'; retryAfterSeconds: number };

function normalisedEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** A per-account token for the known-device cookie, keyed from APP_SECRET (its own derived key). */
function deviceToken(appSecret: string, email: string): string {
  const key = createHmac('sha256', appSecret).update('tunedrop:known-device:v1').digest();
  return createHmac('sha256', key).update(normalisedEmail(email)).digest('base64url').slice(0, 22);
}

function cookieTokens(cookieHeader: string | undefined): string[] {
  if (!cookieHeader) return [];
  for (const part of cookieHeader.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === KNOWN_DEVICE_COOKIE) return rest.join('=').split('.').filter(Boolean);
  }
  return [];
}

/** True when this browser signed in to `email` before (its cookie holds the account's token). */
export function isKnownDevice(appSecret: string, email: string, cookieHeader: string | undefined): boolean {
  const expected = Buffer.from(deviceToken(appSecret, email));
  return cookieTokens(cookieHeader).some((token) => {
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** The Set-Cookie value after a successful sign-in: this account's token first, at most five accounts. */
export function knownDeviceCookie(
  appSecret: string,
  email: string,
  cookieHeader: string | undefined,
  isSecure: boolean,
): string {
  const token = deviceToken(appSecret, email);
  const tokens = [token, ...cookieTokens(cookieHeader).filter((each) => each !== token)].slice(
    0,
    KNOWN_DEVICE_MAX_ACCOUNTS,
  );
  return [
    `${KNOWN_DEVICE_COOKIE}=${tokens.join('.')}`,
    'Path=/api/auth',
    `Max-Age=${KNOWN_DEVICE_MAX_AGE_SECONDS}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(isSecure ? ['Secure'] : []),
  ].join('; ');
}

async function release(db: DbOrTx, counters: Counter[]): Promise<void> {
  for (const counter of counters) {
    await db
      .update(rateLimit)
      .set({ count: sql`greatest(${rateLimit.count} - 1, 0)` })
      .where(eq(rateLimit.key, `tunedrop:${counter.key}`));
  }
}

/**
 * Takes this attempt's places in the counters; answers the refusal (who is limited, for how long) when
 * one is full, having given every place back.
 */
export async function beginSignIn(
  db: DbOrTx,
  input: { email: string; address: string; isKnownDevice: boolean },
): Promise<SignInAttempt | SignInRefusal> {
  const email = normalisedEmail(input.email);
  const counters: Counter[] = [
    {
      key: limitKey('sign-in-fail', 'email', `${email}|${input.address}`),
      rule: SIGN_IN_LIMITS.perAccountAndAddress,
      scope: 'email',
    },
    ...(input.isKnownDevice
      ? []
      : [
          {
            key: limitKey('sign-in-fail', 'address', input.address),
            rule: SIGN_IN_LIMITS.perAddress,
            scope: 'address' as const,
          },
          {
            key: limitKey('sign-in-fail', 'email', email),
            rule: SIGN_IN_LIMITS.perAccountUnknownDevice,
            scope: 'email' as const,
          },
        ]),
  ];
  const taken: Counter[] = [];
  for (const counter of counters) {
    const result = await consumeLimit(db, counter.key, counter.rule);
    taken.push(counter);
    if (!result.isAllowed) {
      await release(db, taken);
      return { scope: counter.scope, retryAfterSeconds: result.retryAfterSeconds };
    }
  }
  return { counters };
}

/** Keeps the places of a wrong password (401); gives them back for anything else (success, unverified, error). */
export async function finishSignIn(db: DbOrTx, attempt: SignInAttempt, status: number): Promise<void> {
  if (status === 401) return;
  await release(db, attempt.counters);
}
