/**
 * The request a piece of code runs for, carried through every await by AsyncLocalStorage, so each log
 * line written while serving it (route, service, error) carries its id without passing a logger down.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

export type RequestContext = { requestId: string };

const storage = new AsyncLocalStorage<RequestContext>();

export function runWithRequestContext<T>(context: RequestContext, run: () => T): T {
  return storage.run(context, run);
}

/** The current request's context, or undefined outside a request (start-up, jobs). */
export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore();
}

/** What an incoming X-Request-Id may look like to be kept: bounded, and safe to echo in headers and logs. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The id of a request: the one a trusted proxy sent (only with TRUST_PROXY=1, and only when it is short
 * and plain), otherwise a new UUID. Without a trusted proxy, a client could otherwise pick ids to make
 * its requests' log lines look like someone else's.
 */
export function requestIdFor(given: string | undefined, isProxyTrusted: boolean): string {
  return isProxyTrusted && given && REQUEST_ID.test(given) ? given : randomUUID();
}
