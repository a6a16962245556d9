import { describe, expect, it } from 'vitest';
import {
  AUTH_MESSAGES,
  COMMON_PASSWORDS,
  changePasswordSchema,
  emailError,
  loginSchema,
  parsePlanParam,
  passwordChecks,
  passwordError,
  profileSchema,
  resetPasswordSchema,
  signupSchema,
} from './auth';

const valid = {
  email: 'jane.doe@example.com',
  fullName: 'Jane Doe',
  artistName: 'JD',
  password: 'Str0ng!Tunes',
  confirmPassword: 'Str0ng!Tunes',
  plan: 'basic' as const,
};

function fieldMessages(input: unknown): Record<string, string> {
  const result = signupSchema.safeParse(input);
  if (result.success) return {};
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.join('.');
    if (!(key in fields)) fields[key] = issue.message;
  }
  return fields;
}

describe('sign-up email rules, in order', () => {
  it.each([
    ['', 'Email is required'],
    [`${'a'.repeat(40)}@example.com`, 'Email must be less than 50 characters'],
    ['jane doe@example.com', 'Email cannot contain spaces'],
    [' jane@example.com', 'Email cannot contain spaces'],
    ['jane.example.com', 'Please enter a valid email address'],
    ['jane@example', 'Please enter a valid email address'],
    ['jane@@example.com', 'Please enter a valid email address'],
  ])('%j → %s', (email, message) => {
    expect(emailError(email)).toBe(message);
    expect(fieldMessages({ ...valid, email }).email).toBe(message);
  });

  it('length is checked before spaces, spaces before the pattern', () => {
    expect(emailError(`${'a b'.repeat(20)}@x.io`)).toBe('Email must be less than 50 characters');
    expect(emailError('no spaces@at-all')).toBe('Email cannot contain spaces');
  });

  it('49 characters pass, 50 do not', () => {
    const local49 = 'a'.repeat(49 - '@example.com'.length);
    expect(emailError(`${local49}@example.com`)).toBeNull();
    expect(emailError(`${local49}a@example.com`)).toBe('Email must be less than 50 characters');
  });

  it('accepts a standard address', () => {
    expect(emailError('jane.doe+music@example.co.uk')).toBeNull();
  });
});

describe('sign-up password rules, in order', () => {
  it.each([
    ['', 'Password is required'],
    ['Sh0rt!', 'Password must be between 8 and 32 characters'],
    [`Aa1!${'x'.repeat(29)}`, 'Password must be between 8 and 32 characters'],
    ['lowercase1!', 'Password must contain at least one uppercase letter'],
    ['UPPERCASE1!', 'Password must contain at least one lowercase letter'],
    ['NoNumbers!!', 'Password must contain at least one number'],
    ['NoSpecial123', 'Password must contain at least one special character'],
    ['Has Space1!', 'Password cannot contain spaces'],
    ['Xjane.doe1!', 'Password cannot contain your email address'],
    ['xJANE.DOE1!', 'Password cannot contain your email address'],
    ['Password123!', 'Please use a stronger password'],
    ['P@sSW0RD', 'Please use a stronger password'],
  ])('%j → %s', (password, message) => {
    expect(passwordError(password, valid.email)).toBe(message);
    expect(fieldMessages({ ...valid, password, confirmPassword: password }).password).toBe(message);
  });

  it('32 characters pass, 33 do not', () => {
    expect(passwordError(`Aa1!${'x'.repeat(28)}`, valid.email)).toBeNull();
    expect(passwordError(`Aa1!${'x'.repeat(29)}`, valid.email)).toBe(AUTH_MESSAGES.passwordLength);
  });

  it('accepts every special character of the list', () => {
    for (const special of '!@#$%^&*()_+-=[]{}|;:,.<>?') {
      expect(passwordError(`Abcdef1${special}`, valid.email)).toBeNull();
    }
    expect(passwordError('Abcdef1~', valid.email)).toBe(AUTH_MESSAGES.passwordSpecial);
  });

  it('refuses each of the 10 common passwords in any letter case once the other rules pass', () => {
    expect(COMMON_PASSWORDS).toHaveLength(10);
    for (const common of COMMON_PASSWORDS) {
      const capitalised = common.charAt(0).toUpperCase() + common.slice(1);
      expect(passwordError(capitalised, 'someone@example.com')).toBe('Please use a stronger password');
    }
  });

  it('tabs and other whitespace count as spaces', () => {
    expect(passwordError('Tab\tbed1!x', valid.email)).toBe(AUTH_MESSAGES.passwordSpaces);
  });

  it('the checklist lists the nine rules in order and re-evaluates with the email', () => {
    const checks = passwordChecks('Jane1234!', 'jane@example.com');
    expect(checks.map((check) => check.id)).toEqual([
      'required',
      'length',
      'uppercase',
      'lowercase',
      'number',
      'special',
      'spaces',
      'email',
      'common',
    ]);
    expect(checks.find((check) => check.id === 'email')?.isMet).toBe(false);
    expect(passwordChecks('Jane1234!', 'other@example.com').every((check) => check.isMet)).toBe(true);
  });
});

describe('other sign-up rules', () => {
  it('confirm password is required, then must match', () => {
    expect(fieldMessages({ ...valid, confirmPassword: '' }).confirmPassword).toBe(
      'Please confirm your password',
    );
    expect(fieldMessages({ ...valid, confirmPassword: 'Str0ng!Tunez' }).confirmPassword).toBe(
      'Passwords do not match',
    );
  });

  it('blank names put "Please fill in all required fields" on the email field', () => {
    expect(fieldMessages({ ...valid, fullName: '   ' }).email).toBe('Please fill in all required fields');
    expect(fieldMessages({ ...valid, artistName: '' }).email).toBe('Please fill in all required fields');
  });

  it("the email's own rule wins over the names message", () => {
    expect(fieldMessages({ ...valid, email: '', fullName: '' }).email).toBe('Email is required');
  });

  it('a valid form parses', () => {
    expect(signupSchema.safeParse(valid).success).toBe(true);
  });

  it('the plan is basic or pro only', () => {
    expect(parsePlanParam('pro')).toBe('pro');
    expect(parsePlanParam('basic')).toBe('basic');
    expect(parsePlanParam('enterprise')).toBeNull();
    expect(parsePlanParam(null)).toBeNull();
    expect(signupSchema.safeParse({ ...valid, plan: 'gold' }).success).toBe(false);
  });
});

describe('sign-in, reset, change password and profile', () => {
  it('sign-in needs both fields', () => {
    const message = (input: { email: string; password: string }) =>
      loginSchema.safeParse({ ...input, rememberMe: true }).error?.issues[0]?.message;
    expect(message({ email: '', password: 'x' })).toBe('Please enter your email and password');
    expect(message({ email: 'a@b.co', password: '' })).toBe('Please enter your email and password');
    expect(message({ email: 'a@b.co', password: 'x' })).toBeUndefined();
  });

  it('a reset password obeys the sign-up password rules', () => {
    const first = (password: string, confirmPassword = password) =>
      resetPasswordSchema.safeParse({ password, confirmPassword }).error?.issues[0]?.message;
    expect(first('short')).toBe(AUTH_MESSAGES.passwordLength);
    expect(first('Password123!')).toBe(AUTH_MESSAGES.passwordCommon);
    expect(first('Str0ng!Tunes', 'other')).toBe(AUTH_MESSAGES.confirmMismatch);
    expect(first('Str0ng!Tunes')).toBeUndefined();
  });

  it('password change: match first, then at least 8 characters', () => {
    const messages = (newPassword: string, confirmPassword: string) =>
      changePasswordSchema
        .safeParse({ currentPassword: 'old', newPassword, confirmPassword })
        .error?.issues.map((issue) => issue.message);
    expect(messages('short', 'shorter')).toEqual(['New passwords do not match.']);
    expect(messages('short', 'short')).toEqual(['Password must be at least 8 characters long.']);
    // Then the sign-up rules (issue 18): `password` is refused here as at sign-up and reset.
    expect(messages('password', 'password')).toEqual(['Password must contain at least one uppercase letter']);
    expect(messages('Password1!', 'Password1!')).toEqual(['Please use a stronger password']);
    expect(messages('L0ngenough!', 'L0ngenough!')).toBeUndefined();
    expect(
      changePasswordSchema.safeParse({
        currentPassword: '',
        newPassword: 'a'.repeat(8),
        confirmPassword: 'a'.repeat(8),
      }).error?.issues[0]?.message,
    ).toBe('Please enter your current password.');
  });

  it('profile names are required and trimmed', () => {
    expect(profileSchema.parse({ fullName: ' Jane ', artistName: ' JD ' })).toEqual({
      fullName: 'Jane',
      artistName: 'JD',
    });
    expect(profileSchema.safeParse({ fullName: ' ', artistName: 'JD' }).error?.issues[0]?.message).toBe(
      'Please fill in all required fields',
    );
  });
});
