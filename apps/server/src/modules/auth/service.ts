/** Accounts: creating a user with its profile in one transaction, and reading who is signed in. */
import { randomUUID } from 'node:crypto';
import type { Plan, Role } from '@tunedrop/shared';
import {
  AUTH_MESSAGES,
  PAYEE_HOME_PATH,
  type ProfileInput,
  type SignupInput,
  verificationCallbackPath,
} from '@tunedrop/shared/schemas/auth';
import { isAPIError } from 'better-auth/api';
import { hashPassword } from 'better-auth/crypto';
import { and, count, eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { account, profiles, releases, user, userRoles } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { isPayee } from '../wallet';
import type { Auth } from './auth';

/** What these operations take of the request's deps (not deps.ts itself, which imports this module's Auth). */
type Deps = { db: Db; auth: Auth };

export type NewAccount = {
  email: string;
  password: string;
  fullName: string;
  artistName: string;
  plan?: Plan;
  isEmailVerified?: boolean;
};

/** Creates user, credential account and profile atomically; answers 409 when the email is taken. */
export async function createAccount(db: DbOrTx, input: NewAccount): Promise<{ userId: string }> {
  const email = input.email.trim().toLowerCase();
  const passwordHash = await hashPassword(input.password);
  const userId = randomUUID();
  try {
    await db.transaction(async (tx) => {
      const existing = await tx
        .select({ id: user.id })
        .from(user)
        .where(eq(sql`lower(${user.email})`, email));
      if (existing.length > 0) throw new AppError('email_taken', 'User already registered', 409);
      const now = new Date();
      await tx.insert(user).values({
        id: userId,
        name: input.fullName.trim(),
        email,
        emailVerified: input.isEmailVerified ?? false,
        createdAt: now,
        updatedAt: now,
      });
      await tx.insert(account).values({
        id: randomUUID(),
        accountId: userId,
        providerId: 'credential',
        userId,
        password: passwordHash,
        createdAt: now,
        updatedAt: now,
      });
      await tx.insert(profiles).values({
        id: userId,
        email,
        fullName: input.fullName.trim(),
        artistName: input.artistName.trim(),
        plan: input.plan ?? 'basic',
      });
    });
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (String((error as { code?: string }).code) === '23505' || /unique/i.test(String(error))) {
      throw new AppError('email_taken', 'User already registered', 409);
    }
    throw error;
  }
  return { userId };
}

export async function findUserIdByEmail(db: DbOrTx, email: string): Promise<string | null> {
  const rows = await db
    .select({ id: user.id })
    .from(user)
    .where(eq(sql`lower(${user.email})`, email.trim().toLowerCase()))
    .limit(1);
  return rows[0]?.id ?? null;
}

export async function grantRole(db: DbOrTx, userId: string, role: Role): Promise<void> {
  await db.insert(userRoles).values({ userId, role }).onConflictDoNothing();
}

export async function revokeRole(db: DbOrTx, userId: string, role: Role): Promise<boolean> {
  const deleted = await db
    .delete(userRoles)
    .where(and(eq(userRoles.userId, userId), eq(userRoles.role, role)))
    .returning();
  return deleted.length > 0;
}

/**
 * Sign-up (spec 01 §4): the account is created unverified, then better-auth mails the verification
 * link, whose target is the checkout of the chosen plan. A taken address answers 409 on the email field.
 */
export async function signUp(
  deps: Pick<Deps, 'db' | 'auth'>,
  input: SignupInput,
): Promise<{ userId: string }> {
  let created: { userId: string };
  try {
    created = await createAccount(deps.db, {
      email: input.email,
      password: input.password,
      fullName: input.fullName,
      artistName: input.artistName,
      plan: input.plan,
    });
  } catch (error) {
    if (error instanceof AppError && error.code === 'email_taken') {
      throw new AppError('email_taken', AUTH_MESSAGES.emailTaken, 409, { email: AUTH_MESSAGES.emailTaken });
    }
    throw error;
  }
  await sendVerificationMail(deps, input.email, input.plan, input.invitation, input.teamInvitation);
  return created;
}

/**
 * Asks better-auth to mail a verification link that lands on /checkout?plan=<plan> once followed, or back
 * on the split invitation the person signed up from.
 */
export async function sendVerificationMail(
  deps: Pick<Deps, 'auth'>,
  email: string,
  plan: Plan,
  invitation?: string,
  teamInvitation?: string,
): Promise<void> {
  await mailVerificationLink(deps, email, verificationCallbackPath(plan, invitation, teamInvitation));
}

async function mailVerificationLink(
  deps: Pick<Deps, 'auth'>,
  email: string,
  callbackURL: string,
): Promise<void> {
  try {
    await deps.auth.api.sendVerificationEmail({ body: { email: email.trim().toLowerCase(), callbackURL } });
  } catch (error) {
    // The per-email limit of auth.ts answers here as better-auth's APIError.
    if (isAPIError(error) && error.statusCode === 429) {
      throw new AppError(
        'rate_limited',
        error.body?.message ?? 'Too many requests. Please try again later.',
        429,
      );
    }
    throw error;
  }
}

/**
 * Resend from the sign-in page: the same answer whether or not the address exists or is verified. A payee
 * (record 175) is sent to their balance, everyone else to the checkout of their plan.
 */
export async function resendVerification(deps: Pick<Deps, 'db' | 'auth'>, email: string): Promise<void> {
  const [row] = await deps.db
    .select({ id: profiles.id, plan: profiles.plan })
    .from(profiles)
    .where(eq(sql`lower(${profiles.email})`, email.trim().toLowerCase()))
    .limit(1);
  if (row && (await isPayee(deps.db, row.id))) {
    await mailVerificationLink(deps, email, PAYEE_HOME_PATH);
    return;
  }
  await sendVerificationMail(deps, email, row?.plan === 'pro' ? 'pro' : 'basic');
}

/** Profile Information: full_name and artist_name (the user's display name follows the full name). */
export async function updateProfile(db: DbOrTx, userId: string, input: ProfileInput) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(profiles)
      .set({ fullName: input.fullName, artistName: input.artistName, updatedAt: new Date() })
      .where(eq(profiles.id, userId))
      .returning({ fullName: profiles.fullName, artistName: profiles.artistName });
    if (!row) throw new AppError('not_found', 'Profile not found', 404);
    await tx.update(user).set({ name: input.fullName, updatedAt: new Date() }).where(eq(user.id, userId));
    return row;
  });
}

/** Total Releases on the dashboard home: every release row of the user (spec 01 §7). */
export async function countReleases(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db.select({ total: count() }).from(releases).where(eq(releases.userId, userId));
  return Number(row?.total ?? 0);
}
