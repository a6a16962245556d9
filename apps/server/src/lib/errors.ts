/** Typed application errors: services throw them, one handler turns them into JSON answers. */
import { ERROR_CODES, type ErrorCode, type ErrorStatus } from '@tunedrop/shared/errors';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/**
 * An error answer: its code is one of the closed set (packages/shared errors.ts, record 293) and its status
 * is that code's; passing a status is allowed only when it is the same one (TypeScript checks it).
 */
export class AppError<C extends ErrorCode = ErrorCode> extends Error {
  readonly status: ContentfulStatusCode;
  constructor(
    readonly code: C,
    message: string,
    status?: ErrorStatus<C>,
    readonly fields?: Record<string, string>,
    /** Headers the answer carries (a 429's Retry-After). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = (status ?? ERROR_CODES[code]) as ContentfulStatusCode;
  }
}

export const notFound = (message = 'Not found') => new AppError('not_found', message, 404);
export const forbidden = (message = 'You do not have access to this.') =>
  new AppError('forbidden', message, 403);
export const unauthorized = (message = 'Please sign in.') => new AppError('unauthorized', message, 401);
export const conflict = (message: string) => new AppError('conflict', message, 409);
export const validationError = (message: string, fields?: Record<string, string>) =>
  new AppError('validation_error', message, 422, fields);

/**
 * The answer to an unexpected error (a database error, a bug): a generic message and the request id to
 * quote to support; the details go only to the log, under the same id (issue 22).
 */
export function internalErrorBody(requestId: string | undefined): {
  code: 'internal_error';
  message: string;
  requestId?: string;
} {
  return {
    code: 'internal_error',
    message: requestId
      ? `Something went wrong on our side. Please try again. If it keeps happening, quote request ${requestId}.`
      : 'Something went wrong on our side. Please try again.',
    ...(requestId ? { requestId } : {}),
  };
}

/** SQLSTATEs of a database that cannot answer now (not of a bad query): its timeouts, shutdown, overload. */
const UNAVAILABLE_STATES = new Set(['57014', '57P01', '57P02', '57P03', '53300', '25P03', '55P03']);
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);
/** node-postgres's own words for a connection that timed out, broke or was dropped (pg 8, pg-pool 3). */
const UNAVAILABLE_MESSAGES = [
  'Query read timeout',
  'timeout exceeded when trying to connect',
  'Connection terminated',
  'is not queryable',
  'timeout expired',
];

/**
 * Why an error means the database is unreachable, slow past its limits or shutting down (record 223), or
 * null: the error itself, the cause of a wrapped one (Drizzle's DrizzleQueryError, an auth library's) or
 * one of an AggregateError's. The reason is the driver's code and words, never the query or its values.
 */
export function databaseUnavailableReason(error: unknown, depth = 0): string | null {
  if (!(error instanceof Error) || depth > 5) return null;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (UNAVAILABLE_STATES.has(code) || code.startsWith('08') || UNAVAILABLE_CODES.has(code))
      return `${code}: ${error.message}`;
  }
  const words = UNAVAILABLE_MESSAGES.find((message) => error.message.includes(message));
  if (words && !error.message.startsWith('Failed query')) return error.message;
  if (error instanceof AggregateError) {
    for (const inner of error.errors) {
      const reason = databaseUnavailableReason(inner, depth + 1);
      if (reason) return reason;
    }
  }
  return databaseUnavailableReason(error.cause, depth + 1);
}

/** The answer when the database cannot answer (record 223): one stable message, 503, retry shortly. */
export const databaseUnavailable = () =>
  new AppError(
    'database_unavailable',
    'The service is temporarily unavailable: its database is not answering. Please try again in a moment.',
    503,
  );
