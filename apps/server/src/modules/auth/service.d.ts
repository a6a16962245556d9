import type { Plan, Role } from '@tunedrop/shared';
import { type ProfileInput, type SignupInput } from '@tunedrop/shared/schemas/auth';
import type { DbOrTx } from '../../db/client';
import type { Deps } from '../../deps';
export type NewAccount = {
  email: string;
  password: string;
  fullName: string;
  artistName: string;
  plan?: Plan;
  isEmailVerified?: boolean;
};
/** Creates user, credential account and profile atomically; answers 409 when the email is taken. */
export declare function createAccount(
  db: DbOrTx,
  input: NewAccount,
): Promise<{
  userId: string;
}>;
export declare function findUserIdByEmail(db: DbOrTx, email: string): Promise<string | null>;
export declare function grantRole(db: DbOrTx, userId: string, role: Role): Promise<void>;
export declare function revokeRole(db: DbOrTx, userId: string, role: Role): Promise<boolean>;
/**
 * Sign-up (spec 01 §4): the account is created unverified, then better-auth mails the verification
 * link, whose target is the checkout of the chosen plan. A taken address answers 409 on the email field.
 */
export declare function signUp(
  deps: Pick<Deps, 'db' | 'auth'>,
  input: SignupInput,
): Promise<{
  userId: string;
}>;
/** Asks better-auth to mail a verification link that lands on /checkout?plan=<plan> once followed. */
export declare function sendVerificationMail(
  deps: Pick<Deps, 'auth'>,
  email: string,
  plan: Plan,
): Promise<void>;
/** Resend from the sign-in page: the same answer whether or not the address exists or is verified. */
export declare function resendVerification(deps: Pick<Deps, 'db' | 'auth'>, email: string): Promise<void>;
/** Profile Information: full_name and artist_name (the user's display name follows the full name). */
export declare function updateProfile(
  db: DbOrTx,
  userId: string,
  input: ProfileInput,
): Promise<{
  fullName: string;
  artistName: string;
}>;
/** Total Releases on the dashboard home: every release row of the user (spec 01 §7). */
export declare function countReleases(db: DbOrTx, userId: string): Promise<number>;
export declare function isTwoFactorEnabled(db: DbOrTx, userId: string): Promise<boolean>;
