/**
 * One bound on every request body (BODY_LIMIT_BYTES, 1 MB by default), answered with 413 before the
 * body is read: a declared Content-Length over the limit is refused at once, and a chunked body is
 * counted as it streams in and refused at the first byte past the limit (hono/body-limit does both).
 * Routes that take files keep their own, larger limits and are listed once, here.
 */
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from './context';

/**
 * The one list of routes whose bodies are bounded differently from BODY_LIMIT_BYTES. `'own'` means
 * the route streams a file and enforces its own limit; a number is a larger JSON limit in bytes.
 * A prefix ending in `/` matches everything under it; otherwise the path itself and its sub-paths.
 */
export const ROUTE_BODY_LIMITS: ReadonlyArray<{ prefix: string; limit: 'own' | number; why: string }> = [
  {
    prefix: '/api/uploads',
    limit: 'own',
    why: 'tus uploads: UPLOAD_MAX_WAV_BYTES / 10 MB covers, checked by tus',
  },
  {
    prefix: '/api/admin/royalties/imports',
    limit: 'own',
    why: 'sales-report files: streamed to disk up to ROYALTY_LIMITS.maxUploadBytes (royalties/routes.ts)',
  },
  // A 5 MB CSV of up to 50,000 rows, sent as JSON rows (spec 02 §5): at most about 10 MB.
  { prefix: '/api/admin/balances/verify', limit: 16 * 1024 * 1024, why: 'bulk balance CSV rows' },
  { prefix: '/api/admin/balances/apply', limit: 16 * 1024 * 1024, why: 'bulk balance CSV rows' },
];

function routeLimit(path: string): 'own' | number | undefined {
  for (const { prefix, limit } of ROUTE_BODY_LIMITS) {
    const matches = prefix.endsWith('/')
      ? path.startsWith(prefix)
      : path === prefix || path.startsWith(`${prefix}/`);
    if (matches) return limit;
  }
  return undefined;
}

const readableSize = (bytes: number) =>
  bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0
    ? `${bytes / (1024 * 1024)} MB`
    : bytes >= 1024
      ? `${Math.floor(bytes / 1024)} KB`
      : `${bytes} bytes`;

function limitResponse(maxBytes: number): MiddlewareHandler<AppEnv> {
  return bodyLimit({
    maxSize: maxBytes,
    onError: (c) =>
      c.json(
        {
          error: {
            code: 'payload_too_large',
            message: `This request is too large (at most ${readableSize(maxBytes)}).`,
          },
        },
        413,
      ),
  }) as MiddlewareHandler<AppEnv>;
}

export function requestBodyLimit(defaultMaxBytes: number): MiddlewareHandler<AppEnv> {
  const byLimit = new Map<number, MiddlewareHandler<AppEnv>>();
  const limiterFor = (bytes: number) => {
    let limiter = byLimit.get(bytes);
    if (!limiter) {
      limiter = limitResponse(bytes);
      byLimit.set(bytes, limiter);
    }
    return limiter;
  };
  return async (c, next) => {
    const limit = routeLimit(c.req.path);
    if (limit === 'own') return next();
    return limiterFor(Math.max(limit ?? 0, defaultMaxBytes))(c, next);
  };
}
