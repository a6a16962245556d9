/** Session lifetime, shared by better-auth's config (modules/auth/auth.ts) and the viewer's fast path (lib/access.ts). */
export const SESSION_EXPIRES_IN_SECONDS = 60 * 60 * 24 * 30;
/** A session older than this since its last refresh is extended by better-auth on its next use. */
export const SESSION_UPDATE_AGE_SECONDS = 60 * 60 * 24;
/**
 * A session signed in without "Remember me" ends after this (better-auth's own fixed figure, internal-adapter
 * `createSession`) or with the browser, whichever comes first; better-auth never extends it.
 */
export const SESSION_DONT_REMEMBER_SECONDS = 60 * 60 * 24;
