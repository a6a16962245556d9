/**
 * Account rules of spec 01 §5 and their exact messages, one copy for the web forms, the server
 * routes and the tests: sign-up, sign-in, password reset, password change and profile.
 */
import { z } from 'zod';
import { LIMITS, PLANS, type Plan } from '../constants';
import { safeText } from '../text';

export const AUTH_MESSAGES = {
  emailRequired: 'Email is required',
  emailTooLong: 'Email must be less than 50 characters',
  emailHasSpaces: 'Email cannot contain spaces',
  emailInvalid: 'Please enter a valid email address',
  passwordRequired: 'Password is required',
  passwordLength: 'Password must be between 8 and 32 characters',
  passwordUppercase: 'Password must contain at least one uppercase letter',
  passwordLowercase: 'Password must contain at least one lowercase letter',
  passwordNumber: 'Password must contain at least one number',
  passwordSpecial: 'Password must contain at least one special character',
  passwordSpaces: 'Password cannot contain spaces',
  passwordContainsEmail: 'Password cannot contain your email address',
  passwordCommon: 'Please use a stronger password',
  confirmRequired: 'Please confirm your password',
  confirmMismatch: 'Passwords do not match',
  namesRequired: 'Please fill in all required fields',
  emailTaken: 'This email is already registered. Please sign in instead.',
  signupUnexpected: 'An unexpected error occurred during signup',
  loginRequired: 'Please enter your email and password',
  loginUnverified:
    'Please verify your email address before signing in. Check your inbox for a confirmation link.',
  loginInvalid: 'Invalid email or password. Please try again.',
  loginUnexpected: 'An unexpected error occurred. Please try again.',
  newPasswordsMismatch: 'New passwords do not match.',
  newPasswordTooShort: 'Password must be at least 8 characters long.',
  currentPasswordRequired: 'Please enter your current password.',
  passwordChanged: 'Password changed',
  passwordChangeFailed: 'Failed to change password.',
  profileUpdatedTitle: 'Profile updated',
  profileUpdatedDescription: 'Your profile has been updated successfully.',
  profileUpdateFailed: 'Failed to update profile. Please try again.',
  emailCannotChange: 'Email cannot be changed',
  nameTooLong: 'Names must be 100 characters or fewer',
  verifyEmailSent:
    'Please check your email to verify your account. Click the link in the email to proceed to payment.',
  resetRequested: 'If an account exists for this email, we have sent a link to reset your password.',
  twoFactorCodeRequired: 'Please enter the code from your authenticator app.',
  twoFactorCodeInvalid: 'Invalid code',
  // Not in the spec: an email link used before, never sent, or sent for an address the account no longer has.
  emailLinkUsed:
    'This link has already been used or is not valid. If your email is not confirmed yet, sign in to get a new link.',
  emailLinkStale: 'This link was sent for an email address your account no longer has.',
  emailLinkExpired: 'This link has expired. If your email is not confirmed yet, sign in to get a new link.',
} as const;

/** Why an email link was refused: the code in /login?error=<code> and in the API's answer (decision 143). */
export const EMAIL_LINK_ERRORS = {
  EMAIL_LINK_USED: AUTH_MESSAGES.emailLinkUsed,
  EMAIL_LINK_STALE: AUTH_MESSAGES.emailLinkStale,
  EMAIL_LINK_EXPIRED: AUTH_MESSAGES.emailLinkExpired,
} as const;
export type EmailLinkError = keyof typeof EMAIL_LINK_ERRORS;

/** The message for a refused email link's code, or null for anything else. */
export function emailLinkErrorMessage(code: string | null): string | null {
  return code !== null && Object.hasOwn(EMAIL_LINK_ERRORS, code)
    ? EMAIL_LINK_ERRORS[code as EmailLinkError]
    : null;
}

/** The 10 common passwords refused at sign-up (compared case-insensitively). Each would otherwise pass rules 1-8. */
export const COMMON_PASSWORDS = [
  'password1!',
  'password123!',
  'p@ssw0rd',
  'p@ssword1',
  'qwerty123!',
  'welcome123!',
  'admin123!',
  'letmein123!',
  'iloveyou1!',
  'abc123!@#',
] as const;

export const PASSWORD_SPECIAL_CHARACTERS = '!@#$%^&*()_+-=[]{}|;:,.<>?';
const specialPattern = /[!@#$%^&*()_+\-=[\]{}|;:,.<>?]/;
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const NAME_MAX_LENGTH = 100;

/** The first failing email rule of §5, in order, or null. */
export function emailError(email: string): string | null {
  if (email.length === 0) return AUTH_MESSAGES.emailRequired;
  if (email.length > LIMITS.emailMaxLength) return AUTH_MESSAGES.emailTooLong;
  if (/\s/.test(email)) return AUTH_MESSAGES.emailHasSpaces;
  if (!emailPattern.test(email)) return AUTH_MESSAGES.emailInvalid;
  return null;
}

/** The part of the address before the @, lower-cased; empty when there is none. */
export function emailLocalPart(email: string | undefined): string {
  if (!email) return '';
  const at = email.indexOf('@');
  return (at === -1 ? '' : email.slice(0, at)).trim().toLowerCase();
}

export type PasswordCheck = { id: string; label: string; message: string; isMet: boolean };

/**
 * Every password rule of §5 in its order, with whether it holds; the live checklist shows them.
 * The email rule is skipped when no email is known yet (e.g. on the reset page; the server checks it there).
 */
export function passwordChecks(password: string, email?: string): PasswordCheck[] {
  const localPart = emailLocalPart(email);
  const lower = password.toLowerCase();
  return [
    {
      id: 'required',
      label: 'Password entered',
      message: AUTH_MESSAGES.passwordRequired,
      isMet: password.length > 0,
    },
    {
      id: 'length',
      label: '8 to 32 characters',
      message: AUTH_MESSAGES.passwordLength,
      isMet: password.length >= LIMITS.passwordMinLength && password.length <= LIMITS.passwordMaxLength,
    },
    {
      id: 'uppercase',
      label: 'An uppercase letter',
      message: AUTH_MESSAGES.passwordUppercase,
      isMet: /[A-Z]/.test(password),
    },
    {
      id: 'lowercase',
      label: 'A lowercase letter',
      message: AUTH_MESSAGES.passwordLowercase,
      isMet: /[a-z]/.test(password),
    },
    { id: 'number', label: 'A number', message: AUTH_MESSAGES.passwordNumber, isMet: /[0-9]/.test(password) },
    {
      id: 'special',
      label: `A special character (${PASSWORD_SPECIAL_CHARACTERS})`,
      message: AUTH_MESSAGES.passwordSpecial,
      isMet: specialPattern.test(password),
    },
    { id: 'spaces', label: 'No spaces', message: AUTH_MESSAGES.passwordSpaces, isMet: !/\s/.test(password) },
    {
      id: 'email',
      label: 'Does not contain your email address',
      message: AUTH_MESSAGES.passwordContainsEmail,
      isMet: password.length > 0 && (localPart === '' || !lower.includes(localPart)),
    },
    {
      id: 'common',
      label: 'Not a common password',
      message: AUTH_MESSAGES.passwordCommon,
      isMet: password.length > 0 && !(COMMON_PASSWORDS as readonly string[]).includes(lower),
    },
  ];
}

/** The first failing password rule of §5, in order, or null. */
export function passwordError(password: string, email?: string): string | null {
  return passwordChecks(password, email).find((check) => !check.isMet)?.message ?? null;
}

export function confirmPasswordError(password: string, confirmPassword: string): string | null {
  if (confirmPassword.length === 0) return AUTH_MESSAGES.confirmRequired;
  if (confirmPassword !== password) return AUTH_MESSAGES.confirmMismatch;
  return null;
}

export const planSchema = z.enum(PLANS);

/** The plan carried as ?plan=: only basic or pro, anything else is ignored (null). */
export function parsePlanParam(value: string | null | undefined): Plan | null {
  const result = planSchema.safeParse(value);
  return result.success ? result.data : null;
}

/** A split invitation's token as mailed (32 random bytes, base64url); anything else is not one. */
export const invitationTokenSchema = safeText().regex(/^[A-Za-z0-9_-]{20,128}$/);

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
export function verificationCallbackPath(plan: Plan, invitation?: string): string {
  return invitation ? `/splits/invitations/${invitation}` : checkoutCallbackPath(plan);
}

/** Where a payee (record 175) lands when no invitation is named: their balance, shares and withdrawals. */
export const PAYEE_HOME_PATH = '/dashboard/royalties';

/** A verification link for a payee: back to an invitation or to the payee's home, never to a checkout. */
export function isPayeeCallbackPath(callbackPath: string | null | undefined): boolean {
  if (!callbackPath) return false;
  return callbackPath.startsWith('/splits/invitations/') || callbackPath === PAYEE_HOME_PATH;
}
