/**
 * The account rules of spec 01 §5 that need no schema library: messages, the email and password checks,
 * the plan and invitation parameters (record 209). auth.ts builds the zod schemas on these and re-exports
 * them, so `@tunedrop/shared/schemas/auth` still offers everything; the public form pages import this.
 */
import { LIMITS, PLANS, type Plan } from '../constants';
import { hasControlCharacters } from '../text-rule';

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
export const NAME_MAX_LENGTH = 100;

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

/** The plan carried as ?plan=: only basic or pro, anything else is ignored (null). */
export function parsePlanParam(value: string | null | undefined): Plan | null {
  return (PLANS as readonly unknown[]).includes(value) ? (value as Plan) : null;
}

/** A split invitation's token as mailed (32 random bytes, base64url). */
export const INVITATION_TOKEN_PATTERN = /^[A-Za-z0-9_-]{20,128}$/;
/** Whether `value` can be a split invitation's token (invitationTokenSchema's rule, without zod). */
export const isInvitationToken = (value: string | null | undefined): value is string =>
  typeof value === 'string' && INVITATION_TOKEN_PATTERN.test(value) && !hasControlCharacters(value);
