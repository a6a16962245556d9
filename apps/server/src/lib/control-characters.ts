/**
 * The shared text rule (packages/shared/src/text.ts) at the door of every API route: a NUL or another
 * control character in the path, the query or a JSON body is refused with 422 before any route or
 * the database sees it (PostgreSQL refuses NUL in text, which used to surface as a 500). Tabs and
 * line breaks in a body are left to each field's schema (multi-line fields allow them); better-auth's
 * routes, which have no schema of ours, get the same backstop for NUL and the other controls. The body
 * is checked only after the route's access rule let the caller in (record 145).
 */
import { findControlCharacters } from '@tunedrop/shared/text';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from './context';
import { validationError } from './errors';

/** Bodies passed on untouched: signed by their sender, and never stored as text fields. */
const UNCHECKED_BODY_PREFIXES = ['/api/payments/webhook', '/api/uploads'];

/** Printable ASCII (0x21-0x7E) except `%`: a URL in which no escape can hide a control character. */
const PLAIN_URL = /^[!-$&-~]*$/;

const refuse = (found: { path: string; message: string }) =>
  validationError(found.message, { [found.path]: found.message });

function decoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The path and query, checked on every API request before any route: neither needs the body. */
export function refuseControlCharacters(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // Printable ASCII without `%` decodes to itself and holds no control character: nothing to parse or
    // decode (most requests; issue 29, record 212). Anything else is checked in full below.
    if (PLAIN_URL.test(c.req.url)) return next();
    const url = new URL(c.req.url);
    const inPath = findControlCharacters(decoded(url.pathname), { isMultiline: false });
    if (inPath) throw refuse({ ...inPath, path: 'path' });
    for (const [key, value] of url.searchParams) {
      const inQuery = findControlCharacters({ [key]: value }, { isMultiline: false });
      if (inQuery) throw refuse(inQuery);
    }
    await next();
  };
}

/**
 * A JSON body, checked once the caller passed the route's access rule and the body its limit
 * (lib/request-body.ts), so an anonymous body on a protected route is never read (issue 22).
 */
export async function refuseControlCharactersInBody(c: Context<AppEnv>): Promise<void> {
  const contentType = c.req.header('content-type') ?? '';
  const hasBody = !['GET', 'HEAD', 'OPTIONS'].includes(c.req.method);
  if (
    !hasBody ||
    !/^application\/(.+\+)?json\b/i.test(contentType) ||
    UNCHECKED_BODY_PREFIXES.some((prefix) => c.req.path.startsWith(prefix))
  ) {
    return;
  }
  // A copy of the body (already bounded by the body limit), so the route still reads the original.
  const text = await c.req.raw.clone().text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined; // Malformed JSON is the route's validator's to refuse.
  }
  const inBody = findControlCharacters(body, { isMultiline: true });
  if (inBody) throw refuse(inBody);
}
