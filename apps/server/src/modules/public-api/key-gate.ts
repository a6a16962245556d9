/**
 * What runs before a v1 route's own chain (record 290): a `Bearer td_live_…` key becomes the request's
 * viewer (the key's maker on its account, within its scopes and rate limit); without one, the route's
 * own access() reads the session as on /api. Then, after access() let the caller in, `Idempotency-Key`.
 */
import { createHash } from 'node:crypto';
import { API_KEY_TEXTS, type ApiScope } from '@tunedrop/shared/schemas/api-keys';
import { and, eq, sql } from 'drizzle-orm';
import type { MiddlewareHandler } from 'hono';
import { apiIdempotency } from '../../db/schema';
import type { AppEnv } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { authenticateKey, type KeyCaller } from '../api-keys';

const callers = new WeakMap<object, KeyCaller>();

const bearer = (header: string | undefined) => /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];

export function keyGate(scope: ApiScope): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const presented = bearer(c.req.header('authorization'));
    if (presented === undefined) return next();
    const { db, config } = c.get('deps');
    const caller = await authenticateKey(db, presented, config.API_KEY_RATE_LIMIT);
    if (!caller.scopes.includes(scope))
      throw new AppError('forbidden_scope', API_KEY_TEXTS.forbiddenScope(scope), 403);
    callers.set(c, caller);
    c.set('viewer', caller.viewer);
    return next();
  };
}

export const IDEMPOTENCY_HOURS = 24;

/**
 * `Idempotency-Key` on a v1 POST made with a key: the first answer below 500 is kept 24 hours and a retry
 * gets it again (`Idempotent-Replayed: true`); the same key with another body is 422; a retry while the
 * first still runs is 409. An answer of 500 or more is not kept, so the retry runs again.
 */
export function idempotency(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const caller = callers.get(c);
    const idempotencyKey = c.req.header('idempotency-key');
    if (!caller || idempotencyKey === undefined) return next();
    if (idempotencyKey.length < 1 || idempotencyKey.length > 255)
      throw new AppError('validation_error', 'Idempotency-Key must be 1 to 255 characters.', 422, {
        'Idempotency-Key': 'Use 1 to 255 characters.',
      });
    const body = await c.req.text();
    const requestHash = createHash('sha256').update(`${c.req.method} ${c.req.path}\n${body}`).digest('hex');
    const { db } = c.get('deps');
    const where = and(
      eq(apiIdempotency.keyId, caller.keyId),
      eq(apiIdempotency.idempotencyKey, idempotencyKey),
    );
    const [claimed] = await db
      .insert(apiIdempotency)
      .values({ keyId: caller.keyId, idempotencyKey, requestHash })
      .onConflictDoUpdate({
        target: [apiIdempotency.keyId, apiIdempotency.idempotencyKey],
        set: { requestHash, status: null, body: null, contentType: null, createdAt: sql`now()` },
        setWhere: sql`${apiIdempotency.createdAt} < now() - make_interval(hours => ${IDEMPOTENCY_HOURS})`,
      })
      .returning({ keyId: apiIdempotency.keyId });
    if (claimed) {
      // Answers past their 24 hours are not kept: each new claim clears its key's expired ones.
      await db
        .delete(apiIdempotency)
        .where(
          and(
            eq(apiIdempotency.keyId, caller.keyId),
            sql`${apiIdempotency.createdAt} < now() - make_interval(hours => ${IDEMPOTENCY_HOURS})`,
          ),
        );
    } else {
      const [first] = await db.select().from(apiIdempotency).where(where);
      if (!first) throw new AppError('conflict', 'Try the request again.', 409);
      if (first.requestHash !== requestHash)
        throw new AppError(
          'idempotency_mismatch',
          'This Idempotency-Key was used with another request; use a new key for a new request.',
          422,
        );
      if (first.status === null)
        throw new AppError(
          'idempotency_in_progress',
          'The first request with this Idempotency-Key is still running.',
          409,
        );
      return new Response(first.body, {
        status: first.status,
        headers: { 'content-type': first.contentType ?? 'application/json', 'Idempotent-Replayed': 'true' },
      });
    }
    await next();
    if (c.res.status >= 500) {
      await db.delete(apiIdempotency).where(where);
      return;
    }
    await db
      .update(apiIdempotency)
      .set({
        status: c.res.status,
        body: await c.res.clone().text(),
        contentType: c.res.headers.get('content-type'),
      })
      .where(where);
  };
}
