/**
 * The web app's API client (record 098): `client` is `hc<AppType>` from hono/client, so paths, inputs
 * and response bodies are the server's own types; `unwrap` turns every non-2xx answer into an ApiError
 * and returns the typed body of a 2xx one.
 */
import type { AppType } from '@tunedrop/server/app-type';
import { isApiErrorBody } from '@tunedrop/shared';
import { type ErrorCode, isErrorCode } from '@tunedrop/shared/errors';
import { type ClientResponse, hc } from 'hono/client';
import type { SuccessStatusCode } from 'hono/utils/http-status';

/** What `ApiError.code` is when the answer's code is not in ERROR_CODES (a newer server, or the web's own). */
const UNKNOWN_ERROR_CODE = 'http_error' satisfies ErrorCode;

/**
 * A failed API call. `code` is one of the closed set ERROR_CODES (record 293), so `error.code === 'typo'` does
 * not compile; a code this build does not know (a newer server, a network failure) is `http_error` here and
 * kept as it came in `rawCode`.
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly rawCode: string;

  constructor(
    readonly status: number,
    code: string,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
    this.code = isErrorCode(code) ? code : UNKNOWN_ERROR_CODE;
    this.rawCode = code;
  }
}

/** Every /api route, typed from the server's chained routers. Same-origin cookies. */
type ApiClient = ReturnType<typeof hc<AppType>>['api'];
export const client: ApiClient = hc<AppType>('/', { init: { credentials: 'same-origin' } }).api;

/** The body type of the 2xx answers of a typed client call. */
type SuccessBody<R> =
  R extends ClientResponse<infer Body, infer Status, infer _Format>
    ? Status extends SuccessStatusCode
      ? Body
      : never
    : never;

/** Awaits a typed client call: the 2xx body, or an ApiError with the server's code, message and fields. */
export async function unwrap<R extends ClientResponse<unknown, number, 'json' | 'text' | string>>(
  pending: Promise<R>,
): Promise<SuccessBody<R>> {
  const response = await pending;
  const text = await response.text();
  const data: unknown = text ? safeJson(text) : null;
  if (!response.ok) throw toApiError(response.status, data);
  // The one place a body meets its type: hono/client inferred it from the route that answered 2xx.
  return data as SuccessBody<R>;
}

function toApiError(status: number, data: unknown): ApiError {
  if (isApiErrorBody(data))
    return new ApiError(status, data.error.code, data.error.message, data.error.fields);
  return new ApiError(status, 'http_error', `Request failed (${status})`);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.message) return error.message;
  return fallback;
}
