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
 * known-device cookie (a random value the server issued to that account) and skips the last two, so a stranger's failures, elsewhere or behind the
 * same NAT, never stop the owner's own browser.
 *
 * Each attempt takes its place in the counters before the password is checked (one atomic upsert each,
 * so parallel guesses cannot slip past a cap) and gives it back when the answer was not a wrong
 * password; an attempt refused with 429 gives its places back too.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { knownDevices, rateLimit, user } from '../../db/schema';
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

/** Known-device values are 24 random bytes, base64url: 32 characters. */
const KNOWN_DEVICE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{32}$/;

function deviceTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function cookieTokens(cookieHeader: string | undefined): string[] {
  if (!cookieHeader) return [];
  for (const part of cookieHeader.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === KNOWN_DEVICE_COOKIE) {
      return rest
        .join('=')
        .split('.')
        .filter((token) => KNOWN_DEVICE_TOKEN_PATTERN.test(token))
        .slice(0, KNOWN_DEVICE_MAX_ACCOUNTS);
    }
  }
  return [];
}

/** The cookie's value that the server issued to this account, if any (and not expired). */
async function accountToken(db: DbOrTx, userId: string, tokens: string[]): Promise<string | null> {
  if (tokens.length === 0) return null;
  const byHash = new Map(tokens.map((token) => [deviceTokenHash(token), token]));
  const [row] = await db
    .select({ tokenHash: knownDevices.tokenHash })
    .from(knownDevices)
    .where(
      and(
        inArray(knownDevices.tokenHash, [...byHash.keys()]),
        eq(knownDevices.userId, userId),
        gt(knownDevices.expiresAt, new Date()),
      ),
    )
    .limit(1);
  return row ? (byHash.get(row.tokenHash) ?? null) : null;
}

async function userIdByEmail(db: DbOrTx, email: string): Promise<string | null> {
  const [row] = await db
    .select({ id: user.id })
    .from(user)
    .where(eq(sql`lower(${user.email})`, normalisedEmail(email)))
    .limit(1);
  return row?.id ?? null;
}

/**
 * True when this browser signed in to `email` before: its cookie holds a value the server issued to that
 * account and recorded. Nothing about the account or APP_SECRET lets anyone compute one (decision 143).
 */
export async function isKnownDevice(
  db: DbOrTx,
  email: string,
  cookieHeader: string | undefined,
): Promise<boolean> {
  const tokens = cookieTokens(cookieHeader);
  if (tokens.length === 0) return false;
  const userId = await userIdByEmail(db, email);
  return userId !== null && (await accountToken(db, userId, tokens)) !== null;
}

/**
 * The Set-Cookie value after a successful sign-in or reset: this account's value first (the one the browser
 * holds, its expiry renewed, or a new random one), at most five accounts per browser. Null when the account
 * is gone.
 */
export async function knownDeviceCookie(
  db: DbOrTx,
  email: string,
  cookieHeader: string | undefined,
  isSecure: boolean,
): Promise<string | null> {
  const userId = await userIdByEmail(db, email);
  if (!userId) return null;
  const held = cookieTokens(cookieHeader);
  const expiresAt = new Date(Date.now() + KNOWN_DEVICE_MAX_AGE_SECONDS * 1000);
  let token = await accountToken(db, userId, held);
  if (token) {
    await db
      .update(knownDevices)
      .set({ expiresAt })
      .where(eq(knownDevices.tokenHash, deviceTokenHash(token)));
  } else {
    token = randomBytes(24).toString('base64url');
    await db
      .delete(knownDevices)
      .where(and(eq(knownDevices.userId, userId), lte(knownDevices.expiresAt, new Date())));
    await db.insert(knownDevices).values({ tokenHash: deviceTokenHash(token), userId, expiresAt });
  }
  const tokens = [token, ...held.filter((each) => each !== token)].slice(0, KNOWN_DEVICE_MAX_ACCOUNTS);
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
