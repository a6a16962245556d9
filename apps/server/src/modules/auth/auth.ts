/**
 * better-auth, mounted under /api/auth: email + password with verification and reset, database sessions
 * in httpOnly cookies, rate limits stored in PostgreSQL, and TOTP two-factor. Sign-up itself goes through
 * our own route (modules/auth/service.ts) so the user and the profile are created in one transaction.
 */
import { randomUUID } from 'node:crypto';
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { twoFactor } from 'better-auth/plugins';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import * as schema from '../../db/schema';
import { enqueueMail } from '../../infra/mail/mail';

export type AuthHooks = { onMailQueued?: () => void };

export function createAuth(config: Config, db: Db, hooks: AuthHooks = {}) {
  const isRateLimited = config.RATE_LIMITS === 'on';
  return betterAuth({
    appName: 'Tunedrop',
    baseURL: config.appUrl,
    basePath: '/api/auth',
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
      expiresIn: 60 * 60 * 24 * 30,
      updateAge: 60 * 60 * 24,
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
      autoSignInAfterVerification: true,
      expiresIn: 60 * 60 * 24,
      sendVerificationEmail: async ({ user, url }) => {
        await enqueueMail(db, {
          to: user.email,
          subject: 'Confirm your email for Tunedrop',
          text: `Hi ${user.name},\n\nWelcome to Tunedrop. Confirm your email address by opening this link, then you can choose your plan and pay:\n\n${url}\n\nThe link is valid for 24 hours.\n\nTunedrop`,
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
        '/sign-in/email': { window: 60, max: 10 },
        '/request-password-reset': { window: 300, max: 5 },
        '/send-verification-email': { window: 300, max: 5 },
        '/two-factor/*': { window: 60, max: 10 },
      },
    },
    plugins: [twoFactor({ issuer: 'Tunedrop' })],
  });
}

export type Auth = ReturnType<typeof createAuth>;
