/**
 * The auth module's front door (accounts, sign-in and sessions through better-auth, verification mails,
 * sign-in limits): the auth instance the server creates once and hands to every request (`deps.auth`), and
 * the account operations the CLI and the test set-up use. Its routes are wired by app.ts.
 */
export { type Auth, createAuth } from './auth';
export { createAccount, findUserIdByEmail, grantRole, revokeRole } from './service';
