/** Turns better-auth client errors and our API errors into the texts of spec 01 §8. */
import { AUTH_MESSAGES } from '@tunedrop/shared/schemas/auth-rules';

/** The error object of the better-auth client: status, and code and message from the server when it sent them. */
export type AuthClientError = { status: number; code?: string | undefined; message?: string | undefined };

const GENERIC_RATE_LIMIT = 'Too many attempts. Please wait a few minutes and try again.';

/** 429: our limits explain themselves; better-auth's per-address limit gets a clearer sentence. */
export function rateLimitMessage(error: AuthClientError): string {
  return error.code === 'RATE_LIMITED' && error.message ? error.message : GENERIC_RATE_LIMIT;
}

export function loginErrorMessage(error: AuthClientError): string {
  if (error.status === 429) return rateLimitMessage(error);
  if (error.code === 'EMAIL_NOT_VERIFIED') return AUTH_MESSAGES.loginUnverified;
  if (error.code === 'INVALID_EMAIL_OR_PASSWORD') return AUTH_MESSAGES.loginInvalid;
  return error.message || AUTH_MESSAGES.loginUnexpected;
}

/** Any other auth call: the server's message, or the caller's fallback. */
export function authErrorMessage(error: AuthClientError, fallback: string): string {
  if (error.status === 429) return rateLimitMessage(error);
  return error.message || fallback;
}
