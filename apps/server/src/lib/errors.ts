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
