/** Typed application errors: services throw them, one handler turns them into JSON answers. */
import type { ContentfulStatusCode } from 'hono/utils/http-status';

export class AppError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: ContentfulStatusCode = 400,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
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
