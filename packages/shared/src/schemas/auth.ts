/**
 * Account rules of spec 01 §5 and their exact messages, one copy for the web forms, the server
 * routes and the tests: sign-up, sign-in, password reset, password change and profile.
 */
import { z } from 'zod';
import { LIMITS, PLANS, type Plan } from '../constants';
import { safeText } from '../text';
import {
  AUTH_MESSAGES,
  confirmPasswordError,
  emailError,
  INVITATION_TOKEN_PATTERN,
  NAME_MAX_LENGTH,
  passwordError,
} from './auth-rules';

// The rules and messages without zod live in auth-rules.ts (the sign-in and sign-up pages load no schema
// library until a submit, record 209); everything there is part of this module too.
export * from './auth-rules';

export const planSchema = z.enum(PLANS);

/** A split invitation's token as mailed (32 random bytes, base64url); anything else is not one. */
export const invitationTokenSchema = safeText().regex(INVITATION_TOKEN_PATTERN);

/** Sign-up form and POST /api/auth/signup: every field gets its first failing message only. */
export const signupSchema = z
  .object({
    email: safeText(),
    fullName: safeText(),
    artistName: safeText(),
    password: safeText(),
    confirmPassword: safeText(),
    plan: planSchema,
    /** A royalty-split invitation the person signs up from (issue 17): the verification link returns there. */
    invitation: invitationTokenSchema.optional(),
    /**
     * A team invitation the person signs up from (issue 44 finding 3, record 230): no plan is asked for,
     * and the verification link returns to the invitation, to join the account.
     */
    teamInvitation: invitationTokenSchema.optional(),
  })
  .superRefine((data, ctx) => {
    const emailMessage =
      emailError(data.email) ??
      (data.fullName.trim() === '' || data.artistName.trim() === '' ? AUTH_MESSAGES.namesRequired : null);
    if (emailMessage) ctx.addIssue({ code: 'custom', path: ['email'], message: emailMessage });
    if (data.fullName.trim() === '')
      ctx.addIssue({ code: 'custom', path: ['fullName'], message: AUTH_MESSAGES.namesRequired });
    else if (data.fullName.trim().length > NAME_MAX_LENGTH)
      ctx.addIssue({ code: 'custom', path: ['fullName'], message: AUTH_MESSAGES.nameTooLong });
    if (data.artistName.trim() === '')
      ctx.addIssue({ code: 'custom', path: ['artistName'], message: AUTH_MESSAGES.namesRequired });
    else if (data.artistName.trim().length > NAME_MAX_LENGTH)
      ctx.addIssue({ code: 'custom', path: ['artistName'], message: AUTH_MESSAGES.nameTooLong });
    const passwordMessage = passwordError(data.password, data.email);
    if (passwordMessage) ctx.addIssue({ code: 'custom', path: ['password'], message: passwordMessage });
    const confirmMessage = confirmPasswordError(data.password, data.confirmPassword);
    if (confirmMessage) ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: confirmMessage });
  });
export type SignupInput = z.infer<typeof signupSchema>;

export const loginSchema = z
  .object({ email: safeText(), password: safeText(), rememberMe: z.boolean() })
  .superRefine((data, ctx) => {
    if (data.email.trim() === '' || data.password === '')
      ctx.addIssue({ code: 'custom', path: ['email'], message: AUTH_MESSAGES.loginRequired });
  });
export type LoginInput = z.infer<typeof loginSchema>;

/** Resend verification and forgot password: an address only. */
export const emailOnlySchema = z.object({ email: safeText() }).superRefine((data, ctx) => {
  const message = emailError(data.email.trim());
  if (message) ctx.addIssue({ code: 'custom', path: ['email'], message });
});
export type EmailOnlyInput = z.infer<typeof emailOnlySchema>;

/** Reset password: the sign-up password rules (the email rule is checked on the server, which knows the address). */
export const resetPasswordSchema = z
  .object({ password: safeText(), confirmPassword: safeText() })
  .superRefine((data, ctx) => {
    const passwordMessage = passwordError(data.password);
    if (passwordMessage) ctx.addIssue({ code: 'custom', path: ['password'], message: passwordMessage });
    const confirmMessage = confirmPasswordError(data.password, data.confirmPassword);
    if (confirmMessage) ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: confirmMessage });
  });
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;

/** Account settings, Security (spec 01 §5): match first, then at least 8 characters; the current password too. */
export const changePasswordSchema = z
  .object({ currentPassword: safeText(), newPassword: safeText(), confirmPassword: safeText() })
  .superRefine((data, ctx) => {
    if (data.currentPassword === '')
      ctx.addIssue({
        code: 'custom',
        path: ['currentPassword'],
        message: AUTH_MESSAGES.currentPasswordRequired,
      });
    if (data.newPassword !== data.confirmPassword)
      ctx.addIssue({
        code: 'custom',
        path: ['confirmPassword'],
        message: AUTH_MESSAGES.newPasswordsMismatch,
      });
    else if (data.newPassword.length < LIMITS.passwordMinLength)
      ctx.addIssue({ code: 'custom', path: ['newPassword'], message: AUTH_MESSAGES.newPasswordTooShort });
    else {
      // Beyond the account page's two rules, the sign-up rules hold too (issue 18); the server checks the
      // email rule, which needs the address.
      const rulesMessage = passwordError(data.newPassword);
      if (rulesMessage) ctx.addIssue({ code: 'custom', path: ['newPassword'], message: rulesMessage });
    }
  });
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

/** Profile Information: full name and artist name, both required. */
export const profileSchema = z.object({
  fullName: safeText()
    .trim()
    .min(1, AUTH_MESSAGES.namesRequired)
    .max(NAME_MAX_LENGTH, AUTH_MESSAGES.nameTooLong),
  artistName: safeText()
    .trim()
    .min(1, AUTH_MESSAGES.namesRequired)
    .max(NAME_MAX_LENGTH, AUTH_MESSAGES.nameTooLong),
});
export type ProfileInput = z.infer<typeof profileSchema>;

/** A TOTP code (6 digits) or a backup code, for sign-in and for turning two-factor off. */
export const twoFactorCodeSchema = z.object({
  code: safeText()
    .trim()
    .min(1, AUTH_MESSAGES.twoFactorCodeRequired)
    .max(64, AUTH_MESSAGES.twoFactorCodeInvalid),
});

/** Two-factor settings: the password that starts enrolment, and a code plus the password to turn it off. */
export const twoFactorPasswordSchema = z.object({
  password: safeText().min(1, AUTH_MESSAGES.currentPasswordRequired),
});
export const twoFactorDisableSchema = twoFactorCodeSchema.extend(twoFactorPasswordSchema.shape);

/** The verification link sends the new user to pay for the plan they picked (spec 01 §4). */
export function checkoutCallbackPath(plan: Plan): string {
  return `/checkout?plan=${plan}`;
}

/**
 * Where the verification link lands: back on the split invitation the person signed up from (a
 * collaborator needs no subscription, issue 17), otherwise on the checkout of the plan they picked.
 */
export function verificationCallbackPath(plan: Plan, invitation?: string, teamInvitation?: string): string {
  if (teamInvitation) return `/team/invitations/${teamInvitation}`;
  return invitation ? `/splits/invitations/${invitation}` : checkoutCallbackPath(plan);
}

/** A verification link back to a team invitation (record 230): the person joins an account, with no plan. */
export function isTeamInvitationCallbackPath(callbackPath: string | null | undefined): boolean {
  return callbackPath?.startsWith('/team/invitations/') === true;
}

/** Where a payee (record 175) lands when no invitation is named: their balance, shares and withdrawals. */
export const PAYEE_HOME_PATH = '/dashboard/royalties';

/** A verification link for a payee: back to an invitation or to the payee's home, never to a checkout. */
export function isPayeeCallbackPath(callbackPath: string | null | undefined): boolean {
  if (!callbackPath) return false;
  return callbackPath.startsWith('/splits/invitations/') || callbackPath === PAYEE_HOME_PATH;
}
