/**
 * better-auth, mounted under /api/auth: email + password with verification and reset, database sessions
 * in httpOnly cookies, rate limits stored in PostgreSQL, and TOTP two-factor. Sign-up itself goes through
 * our own route (modules/auth/service.ts) so the user and the profile are created in one transaction.
 */
import { randomUUID } from 'node:crypto';
import { passwordError } from '@tunedrop/shared/schemas/auth';
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { APIError, createAuthMiddleware, getSessionFromCtx } from 'better-auth/api';
import { twoFactor } from 'better-auth/plugins';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import * as schema from '../../db/schema';
import { enqueueMail } from '../../infra/mail/mail';
import { SESSION_EXPIRES_IN_SECONDS, SESSION_UPDATE_AGE_SECONDS } from '../../lib/session-config';
import { EMAIL_LINK_EXPIRES_IN_SECONDS, recordEmailToken } from './email-tokens';
import { ACCOUNT_LIMITS, consumeLimit, type LimitRule, limitKey, tooManyAttemptsMessage } from './rate-limit';
import { VERIFICATION_SUBJECT, verificationMailText } from './verification-mail';

export type AuthHooks = { onMailQueued?: () => void };

/**
 * Per-account limits on better-auth's own endpoints (its rateLimit below counts per address). Sign-in is
 * limited by our route instead, counting failures only (sign-in-limits.ts, decision 085).
 */
const PER_EMAIL_LIMITS: Record<string, { action: string; rule: LimitRule }> = {
  '/request-password-reset': { action: 'reset', rule: ACCOUNT_LIMITS.resetPerEmail },
  '/send-verification-email': { action: 'resend', rule: ACCOUNT_LIMITS.resendPerEmail },
};

export function createAuth(config: Config, db: Db, hooks: AuthHooks = {}) {
  const isRateLimited = config.RATE_LIMITS === 'on';
  // Bound once the instance exists: the hook below checks a code through the two-factor plugin's endpoints.
  let verifySecondFactor: (code: string, headers: Headers) => Promise<void> = async () => {
    throw new Error('auth is not ready');
  };

  const beforeHook = createAuthMiddleware(async (ctx) => {
    const body = (ctx.body ?? {}) as Record<string, unknown>;
    const perEmail = PER_EMAIL_LIMITS[ctx.path];
    if (isRateLimited && perEmail && typeof body.email === 'string' && body.email.trim() !== '') {
      const result = await consumeLimit(db, limitKey(perEmail.action, 'email', body.email), perEmail.rule);
      if (!result.isAllowed) {
        throw new APIError(
          'TOO_MANY_REQUESTS',
          { code: 'RATE_LIMITED', message: tooManyAttemptsMessage('email', result.retryAfterSeconds) },
          { 'X-Retry-After': String(result.retryAfterSeconds) },
        );
      }
    }
    if (ctx.path === '/reset-password') {
      // A new password obeys the sign-up rules, including the one about the address of its owner.
      const token = typeof body.token === 'string' ? body.token : undefined;
      const newPassword = typeof body.newPassword === 'string' ? body.newPassword : '';
      const verification = token
        ? await ctx.context.internalAdapter.findVerificationValue(`reset-password:${token}`)
        : null;
      const owner = verification ? await ctx.context.internalAdapter.findUserById(verification.value) : null;
      const message = passwordError(newPassword, owner?.email);
      if (message) throw new APIError('BAD_REQUEST', { code: 'PASSWORD_RULES', message });
    }
    if (ctx.path === '/change-password') {
      // The account page's own rules (match, 8 characters) are checked in the form; the new password
      // must also pass every sign-up rule, so `password` is refused here as at sign-up and reset (issue 18).
      const newPassword = typeof body.newPassword === 'string' ? body.newPassword : '';
      const session = await getSessionFromCtx(ctx);
      const message = passwordError(newPassword, session?.user.email);
      if (message) throw new APIError('BAD_REQUEST', { code: 'PASSWORD_RULES', message });
    }
    if (ctx.path === '/two-factor/disable') {
      // Turning two-factor off takes the password (better-auth) and a current code or a backup code.
      const code = typeof body.code === 'string' ? body.code.trim() : '';
      if (code === '')
        throw new APIError('BAD_REQUEST', {
          code: 'TWO_FACTOR_CODE_REQUIRED',
          message: 'Please enter the code from your authenticator app.',
        });
      try {
        await verifySecondFactor(code, ctx.headers ?? new Headers());
      } catch {
        throw new APIError('BAD_REQUEST', { code: 'INVALID_CODE', message: 'Invalid code' });
      }
    }
  });

  const auth = betterAuth({
    appName: 'Tunedrop',
    baseURL: config.appUrl,
    basePath: '/api/auth',
    // Names change only through PATCH /api/me/profile (the profile rules, profiles and user.name together);
    // better-auth's own update-user took any text, CR/LF and `javascript:` images (issue 13).
    disabledPaths: ['/update-user'],
    secret: config.appSecret,
    trustedOrigins: [config.appUrl],
    database: drizzleAdapter(db, {
      provider: 'pg',
      transaction: true,
      schema: {
        user: schema.user,
        session: schema.session,
        account: schema.account,
        verification: schema.verification,
        twoFactor: schema.twoFactor,
        rateLimit: schema.rateLimit,
      },
    }),
    advanced: {
      cookiePrefix: 'tunedrop',
      database: { generateId: () => randomUUID() },
      useSecureCookies: config.appUrl.startsWith('https://'),
      ipAddress: { ipAddressHeaders: ['x-tunedrop-client-ip'] },
    },
    session: {
      expiresIn: SESSION_EXPIRES_IN_SECONDS,
      updateAge: SESSION_UPDATE_AGE_SECONDS,
    },
    emailAndPassword: {
      enabled: true,
      disableSignUp: true,
      requireEmailVerification: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: 60 * 60,
      sendResetPassword: async ({ user, url }) => {
        await enqueueMail(db, {
          to: user.email,
          subject: 'Reset your Tunedrop password',
          text: `Hi ${user.name},\n\nSomeone asked to reset the password of your Tunedrop account. If it was you, open this link within an hour to choose a new password:\n\n${url}\n\nIf it was not you, ignore this message; your password stays as it is.\n\nTunedrop`,
        });
        hooks.onMailQueued?.();
      },
    },
    emailVerification: {
      sendOnSignIn: false,
      // Safe because a link works only if this server mailed it, once, for the account's current address
      // (email-tokens.ts, decision 143): following it proves the mailbox, as a password reset does.
      autoSignInAfterVerification: true,
      expiresIn: EMAIL_LINK_EXPIRES_IN_SECONDS,
      sendVerificationEmail: async ({ user, url, token }) => {
        await recordEmailToken(db, { token, userId: user.id, sentTo: user.email });
        await enqueueMail(db, {
          to: user.email,
          subject: VERIFICATION_SUBJECT,
          text: verificationMailText(user.name, url),
        });
        hooks.onMailQueued?.();
      },
    },
    rateLimit: {
      enabled: isRateLimited,
      storage: 'database',
      window: 60,
      max: 100,
      customRules: {
        // Counted by failures per account and address in our route (decision 085), never per request.
        '/sign-in/email': false,
        '/request-password-reset': { window: 300, max: 5 },
        '/send-verification-email': { window: 300, max: 5 },
        '/two-factor/*': { window: 60, max: 10 },
      },
    },
    hooks: { before: beforeHook },
    plugins: [twoFactor({ issuer: 'Tunedrop' })],
  });
  verifySecondFactor = async (code, headers) => {
    if (/^\d{6}$/.test(code)) await auth.api.verifyTOTP({ body: { code }, headers });
    else await auth.api.verifyBackupCode({ body: { code, disableSession: true }, headers });
  };
  return auth;
}

export type Auth = ReturnType<typeof createAuth>;
