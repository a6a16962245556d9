/** Accounts: creating a user with its profile in one transaction, and reading who is signed in. */
import { randomUUID } from 'node:crypto';
import type { Plan, Role } from '@tunedrop/shared';
import { hashPassword } from 'better-auth/crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { account, profiles, user, userRoles } from '../../db/schema';
import { AppError } from '../../lib/errors';

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
