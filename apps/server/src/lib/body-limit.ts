/**
 * One bound on every request body, applied by `access()` once the caller is let in (lib/request-body.ts),
 * so nobody's body is read before access is checked (issue 22; records 082 and 145). A declared
 * Content-Length over the route's limit is answered 413 before a byte is read; a chunked body is counted
 * as it streams in and refused at the first byte past the limit. Routes that take files stream them to
 * disk and count the bytes themselves, under the larger limits listed here.
 */

import type { IncomingMessage } from 'node:http';
import { LIMITS } from '@tunedrop/shared';
import { ARTIST_PROFILE_IMAGE_MAX_BYTES } from '@tunedrop/shared/schemas/artist-profiles';
import { ROYALTY_LIMITS } from '@tunedrop/shared/schemas/royalties';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Config } from '../config';
import type { AppEnv } from './context';

type LimitConfig = Pick<Config, 'BODY_LIMIT_BYTES' | 'UPLOAD_MAX_WAV_BYTES'>;

export type RouteBodyLimit = {
  /** `/api/…`: the path itself and everything under it, or only the path itself when `isExact`. */
  prefix: string;
  isExact?: boolean;
  /** Only this method (all methods when unset). */
  method?: string;
  bytes: (config: LimitConfig) => number;
  /** The route streams the body to disk and counts it itself; the limit here refuses a declared length. */
  isStreamedByRoute?: boolean;
  why: string;
};

/** The one list of routes whose bodies are bounded differently from BODY_LIMIT_BYTES (default 1 MB). */
export const ROUTE_BODY_LIMITS: ReadonlyArray<RouteBodyLimit> = [
  {
    prefix: '/api/uploads',
    bytes: (config) => Math.max(config.UPLOAD_MAX_WAV_BYTES, LIMITS.coverArtMaxBytes),
    isStreamedByRoute: true,
    why: 'tus uploads: a PATCH carries at most the whole file; tus counts it against the upload length',
  },
  {
    prefix: '/api/admin/royalties/imports',
    isExact: true,
    method: 'POST',
    bytes: () => ROYALTY_LIMITS.maxUploadBytes,
    isStreamedByRoute: true,
    why: 'sales-report files, streamed to disk, hashed and counted (royalty-imports/routes.ts)',
  },
  {
    prefix: '/api/artist-profiles',
    method: 'PUT',
    bytes: () => ARTIST_PROFILE_IMAGE_MAX_BYTES,
    why: 'an artist profile image (JPEG or PNG, at most 5 MB; artist-profiles/routes.ts)',
  },
  // A 5 MB CSV of up to 50,000 rows, sent as JSON rows (spec 02 §5): at most about 10 MB.
  { prefix: '/api/admin/balances/verify', bytes: () => 16 * 1024 * 1024, why: 'bulk balance CSV rows' },
  { prefix: '/api/admin/balances/apply', bytes: () => 16 * 1024 * 1024, why: 'bulk balance CSV rows' },
];

/** The limit of one request: a listed route's own, otherwise BODY_LIMIT_BYTES. */
export function routeBodyLimit(
  config: LimitConfig,
  method: string,
  requested: string,
): { bytes: number; isStreamedByRoute: boolean } {
  // A public API v1 route is the app's own route under /api/v1 (record 290): the same limit.
  const path = requested.startsWith('/api/v1/') ? `/api${requested.slice('/api/v1'.length)}` : requested;
  for (const route of ROUTE_BODY_LIMITS) {
    if (route.method && route.method !== method) continue;
    const matches = route.isExact
      ? path === route.prefix || path === `${route.prefix}/`
      : path === route.prefix || path.startsWith(`${route.prefix}/`);
    if (matches) {
      return {
        bytes: Math.max(route.bytes(config), config.BODY_LIMIT_BYTES),
        isStreamedByRoute: route.isStreamedByRoute === true,
      };
    }
  }
  return { bytes: config.BODY_LIMIT_BYTES, isStreamedByRoute: false };
}

export const readableSize = (bytes: number) =>
  bytes >= 1024 ** 3 && bytes % 1024 ** 3 === 0
    ? `${bytes / 1024 ** 3} GB`
    : bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0
      ? `${bytes / (1024 * 1024)} MB`
      : bytes >= 1024
        ? `${Math.floor(bytes / 1024)} KB`
        : `${bytes} bytes`;

export const tooLargeMessage = (bytes: number) =>
  `This request is too large (at most ${readableSize(bytes)}).`;

const tooLarge = (c: Context<AppEnv>, bytes: number) =>
  c.json({ error: { code: 'payload_too_large', message: tooLargeMessage(bytes) } }, 413);

/**
 * A route's own bound below the request's (the royalty and statement forms' JSON: 64 KB), for routes whose
 * path prefix is exempt from the global one (`/api/admin/royalties/imports` for the upload).
 */
export function jsonBodyLimit(bytes = 64 * 1024): MiddlewareHandler<AppEnv> {
  return counterFor(bytes);
}

/** hono's bodyLimit per limit, built once: it counts a chunked body as it arrives (buffered up to the limit). */
const counters = new Map<number, MiddlewareHandler<AppEnv>>();
function counterFor(bytes: number): MiddlewareHandler<AppEnv> {
  let counter = counters.get(bytes);
  if (!counter) {
    counter = bodyLimit({ maxSize: bytes, onError: (c) => tooLarge(c, bytes) }) as MiddlewareHandler<AppEnv>;
    counters.set(bytes, counter);
  }
  return counter;
}

/**
 * Bounds the body of the current request to its route's limit. A declared Content-Length is checked on
 * every method (a GET with a body would otherwise be read past the answer to find the next request); the
 * body itself is counted as it is read, except on the file routes, which count it themselves.
 */
export function limitBody(c: Context<AppEnv>, next: () => Promise<void>) {
  const { bytes, isStreamedByRoute } = routeBodyLimit(c.get('deps').config, c.req.method, c.req.path);
  const declared = c.req.header('content-length');
  const isChunked = c.req.header('transfer-encoding') !== undefined;
  if (declared !== undefined && !isChunked) {
    const length = Number(declared);
    if (!Number.isSafeInteger(length) || length > bytes) return tooLarge(c, bytes);
  }
  if (isStreamedByRoute) return next();
  // Over HTTP/1.1 a request without Transfer-Encoding has exactly its Content-Length of body (none when
  // it declares none; RFC 9112 §6.3), and that length was checked above: nothing is left to count. Asking
  // hono's counter anyway made @hono/node-server build a full Request for every GET (issue 29, record 212).
  if (!isChunked && isHttp1(c)) return next();
  return counterFor(bytes)(c, next);
}

/** A request that came over HTTP/1 through @hono/node-server (in-process requests have no socket). */
function isHttp1(c: Context<AppEnv>): boolean {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming !== undefined && incoming.httpVersionMajor === 1;
}
