/**
 * Abuse limits per address and per account (email) for sign-up, sign-in, reset and verification
 * resends. Counters live in better-auth's rate_limit table (keys prefixed `tunedrop:`), so every
 * server instance shares them; better-auth's own pruning removes rows older than its longest
 * window (300 s), which is why no window here is longer than that.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { rateLimit } from '../../db/schema';

export type LimitRule = { windowSeconds: number; max: number };

/** The limits of the accounts module; better-auth adds its per-address limits on its own endpoints (auth.ts). */
export const ACCOUNT_LIMITS = {
  signupPerAddress: { windowSeconds: 300, max: 5 },
  signupPerEmail: { windowSeconds: 300, max: 3 },
  resetPerEmail: { windowSeconds: 300, max: 3 },
  resendPerAddress: { windowSeconds: 300, max: 5 },
  resendPerEmail: { windowSeconds: 300, max: 3 },
} as const satisfies Record<string, LimitRule>;

export type LimitResult = { isAllowed: boolean; retryAfterSeconds: number };

/** Counts one attempt under `key` in a fixed window that starts at the first attempt; atomic under concurrency. */
export async function consumeLimit(db: DbOrTx, key: string, rule: LimitRule): Promise<LimitResult> {
  const now = Date.now();
  const windowStart = now - rule.windowSeconds * 1000;
  const isExpired = sql`${rateLimit.lastRequest} <= ${windowStart}`;
  const [row] = await db
    .insert(rateLimit)
    .values({ id: randomUUID(), key: `tunedrop:${key}`, count: 1, lastRequest: now })
    .onConflictDoUpdate({
      target: rateLimit.key,
      set: {
        count: sql`case when ${isExpired} then 1 else ${rateLimit.count} + 1 end`,
        lastRequest: sql`case when ${isExpired} then ${now}::bigint else ${rateLimit.lastRequest} end`,
      },
    })
    .returning({ count: rateLimit.count, lastRequest: rateLimit.lastRequest });
  if (!row) return { isAllowed: true, retryAfterSeconds: 0 };
  const retryAfterSeconds = Math.max(
    1,
    Math.ceil((Number(row.lastRequest) + rule.windowSeconds * 1000 - now) / 1000),
  );
  return { isAllowed: row.count <= rule.max, retryAfterSeconds };
}

export function limitKey(action: string, scope: 'address' | 'email', value: string): string {
  return `${action}:${scope}:${value.trim().toLowerCase()}`;
}

/** The 429 message: says who is limited and how long to wait, in whole minutes when it is a minute or more. */
export function tooManyAttemptsMessage(scope: 'address' | 'email', retryAfterSeconds: number): string {
  const wait =
    retryAfterSeconds >= 60
      ? `${Math.ceil(retryAfterSeconds / 60)} minute${Math.ceil(retryAfterSeconds / 60) === 1 ? '' : 's'}`
      : `${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}`;
  const who = scope === 'email' ? 'for this email address' : 'from your network';
  return `Too many attempts ${who}. Please wait ${wait} and try again.`;
}
