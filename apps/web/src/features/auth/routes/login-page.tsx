/**
 * /login (spec 01 §2, §5, §8): email and password, a real 'Remember me' (unchecked: the session ends
 * with the browser), the messages of the error catalogue, a resend of the verification link, the
 * two-factor code prompt when the account has it, and why a verification link was refused (?error=).
 * A just-signed-out user is not sent back to the dashboard.
 */
import { useQueryClient } from '@tanstack/react-query';
import { AUTH_MESSAGES, emailLinkErrorMessage } from '@tunedrop/shared/schemas/auth-rules';
import { useEffect, useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Field, Input, Label } from '../../../components/ui/input';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api';
import { announceAuthChange, applyAuthEvent, SIGNED_OUT_FLAG } from '../../../lib/auth-sync';
import { useIsHydrated } from '../../../lib/use-is-hydrated';
import { lazyZodResolver, useLazyZodForm } from '../../../lib/use-lazy-zod-form';
import { usePageTitle } from '../../../lib/use-page-title';
import { firstErrorMessage } from '../../../lib/use-zod-form';
import { useViewer } from '../../../lib/viewer';
import { resendVerification } from '../api/account';
import { AuthShell, FormAlert, LegalLinks } from '../components/auth-shell';
import { type AuthClientError, authErrorMessage, loginErrorMessage } from '../lib/auth-errors';

type Step = 'credentials' | 'two-factor';

const INVITATION_PATH = /^\/(team|splits)\/invitations\/[A-Za-z0-9_-]{20,128}$/;

/**
 * better-auth's client (about 12 KB gzip) loads with the schema, when the form is first focused (a click
 * on Sign In focuses it too), not at start (record 216): the page's load runs none of it. A sign-in
 * waits for it if it is not there yet.
 */
const loadAuthClient = () => import('../../../lib/auth-client').then((module) => module.authClient);
/** The shared schemas load when the form is first focused or submitted (record 209). */
const loginForm = lazyZodResolver(() =>
  import('@tunedrop/shared/schemas/auth').then((module) => module.loginSchema),
);
const twoFactorForm = lazyZodResolver(() =>
  import('@tunedrop/shared/schemas/auth').then((module) => module.twoFactorCodeSchema),
);

/** What a sign-in needs beyond the page: the schema and better-auth's client, on first focus. */
function prefetchForSignIn() {
  loginForm.prefetch();
  void loadAuthClient().catch(() => undefined);
}

export default function LoginPage() {
  const isHydrated = useIsHydrated();
  usePageTitle('Sign In');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data: viewer, dataUpdatedAt } = useViewer();
  // Read once: a sign-out just happened in this tab, so a cached viewer must not bounce us to the dashboard.
  const [hadSignedOutFlag] = useState(
    () => typeof sessionStorage !== 'undefined' && sessionStorage.getItem(SIGNED_OUT_FLAG) === '1',
  );
  const mountedAt = useRef(Date.now());
  useEffect(() => {
    sessionStorage.removeItem(SIGNED_OUT_FLAG);
  }, []);

  const [step, setStep] = useState<Step>('credentials');
  const { register, handleSubmit, getValues, setValue } = useLazyZodForm(loginForm, {
    defaultValues: { email: '', password: '', rememberMe: false },
    reValidateMode: 'onSubmit',
  });
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [isUnverified, setIsUnverified] = useState(false);
  const [isBusy, setIsBusy] = useState(false);
  // A refused verification link lands here with ?error=<code> (decision 143). Set after hydration: the
  // prerendered page has no message (record 128).
  const [searchParams] = useSearchParams();
  const linkError = emailLinkErrorMessage(searchParams.get('error'));
  // Back to the invitation the person came from (record 230); any other ?next= is ignored.
  const nextParam = searchParams.get('next');
  const next = nextParam && INVITATION_PATH.test(nextParam) ? nextParam : paths.dashboard;
  useEffect(() => {
    if (linkError) setError(linkError);
  }, [linkError]);

  // While the viewer is still loading the form shows (it is also the prerendered page, record 128);
  // a signed-in viewer is sent on once known.
  const isFreshViewer = dataUpdatedAt >= mountedAt.current;
  if (viewer && (!hadSignedOutFlag || isFreshViewer) && !isBusy) {
    return <Navigate to={next} replace />;
  }

  async function finishSignIn() {
    sessionStorage.removeItem(SIGNED_OUT_FLAG);
    applyAuthEvent(queryClient, { kind: 'signed-in' });
    announceAuthChange('signed-in');
    navigate(next, { replace: true });
  }

  const clearMessages = () => {
    setError(null);
    setNotice(null);
    setIsUnverified(false);
  };

  const onSubmit = handleSubmit(
    async (values) => {
      clearMessages();
      await signIn({ ...values, email: values.email.trim() });
    },
    (errors) => {
      clearMessages();
      setError(firstErrorMessage(errors) ?? AUTH_MESSAGES.loginRequired);
    },
  );

  async function signIn(credentials: { email: string; password: string; rememberMe: boolean }) {
    setIsBusy(true);
    try {
      const authClient = await loadAuthClient();
      const { data, error: failure } = await authClient.signIn.email(credentials);
      if (failure) {
        const problem = failure as AuthClientError;
        setError(loginErrorMessage(problem));
        setIsUnverified(problem.code === 'EMAIL_NOT_VERIFIED');
        setIsBusy(false);
        return;
      }
      if (data && 'twoFactorRedirect' in data && data.twoFactorRedirect) {
        setStep('two-factor');
        setIsBusy(false);
        return;
      }
      await finishSignIn();
    } catch {
      setError(AUTH_MESSAGES.loginUnexpected);
      setIsBusy(false);
    }
  }

  async function onResend() {
    setError(null);
    try {
      await resendVerification({ email: getValues('email').trim() });
      setNotice(
        'If this address is waiting for confirmation, a new link is on its way. It is valid for 24 hours.',
      );
      setIsUnverified(false);
    } catch (failure) {
      setError(
        failure instanceof ApiError ? failure.message : 'We could not send the email. Please try again.',
      );
    }
  }

  if (step === 'two-factor') {
    return (
      <TwoFactorStep
        onDone={finishSignIn}
        onRestart={(message) => {
          setStep('credentials');
          setValue('password', '');
          setError(message);
        }}
      />
    );
  }

  return (
    <AuthShell
      title="Sign In"
      subtitle="Welcome back. Sign in to manage your releases."
      footer={
        <>
          Don't have an account?{' '}
          <Link
            to={paths.signup}
            className="font-medium text-brand-300 underline underline-offset-2 hover:text-brand-200"
          >
            Sign up
          </Link>
        </>
      }
    >
      <form
        method="post"
        noValidate
        onSubmit={onSubmit}
        onFocusCapture={prefetchForSignIn}
        className="space-y-4"
        aria-label="Sign in"
      >
        <Field id="login-email" label="Email">
          <Input id="login-email" type="email" autoComplete="email" {...register('email')} />
        </Field>
        <Field id="login-password" label="Password">
          <Input
            id="login-password"
            type="password"
            autoComplete="current-password"
            {...register('password')}
          />
        </Field>
        <div className="flex items-center justify-between gap-4">
          <div className="flex items-center gap-2">
            <input
              id="login-remember"
              type="checkbox"
              className="size-4 accent-brand-500"
              {...register('rememberMe')}
            />
            <Label htmlFor="login-remember" className="mb-0">
              Remember me
            </Label>
          </div>
          <Link
            to={paths.forgotPassword}
            className="text-sm text-brand-300 underline underline-offset-2 hover:text-brand-200"
          >
            Forgot password?
          </Link>
        </div>
        {error ? <FormAlert>{error}</FormAlert> : null}
        {isUnverified ? (
          <Button variant="outline" className="w-full" onClick={onResend}>
            Resend verification email
          </Button>
        ) : null}
        {notice ? <FormAlert tone="info">{notice}</FormAlert> : null}
        <Button type="submit" size="lg" className="w-full" disabled={isBusy || !isHydrated}>
          {isBusy ? 'Signing in...' : 'Sign In'}
        </Button>
        <LegalLinks />
      </form>
    </AuthShell>
  );
}

/** The second factor: a code from the authenticator app, or one of the backup codes. */
function TwoFactorStep({
  onDone,
  onRestart,
}: {
  onDone: () => Promise<void>;
  onRestart: (message: string) => void;
}) {
  useEffect(twoFactorForm.prefetch, []);
  const { register, handleSubmit, reset } = useLazyZodForm(twoFactorForm, {
    defaultValues: { code: '' },
    reValidateMode: 'onSubmit',
  });
  const [isBackupCode, setIsBackupCode] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  const onSubmit = handleSubmit(
    ({ code }) => verify(code),
    (errors) => setError(firstErrorMessage(errors) ?? AUTH_MESSAGES.twoFactorCodeRequired),
  );

  async function verify(trimmed: string) {
    setError(null);
    setIsBusy(true);
    try {
      const authClient = await loadAuthClient();
      const { error: failure } = isBackupCode
        ? await authClient.twoFactor.verifyBackupCode({ code: trimmed })
        : await authClient.twoFactor.verifyTotp({ code: trimmed });
      if (failure) {
        const problem = failure as AuthClientError;
        if (
          problem.code === 'INVALID_TWO_FACTOR_COOKIE' ||
          problem.code === 'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE'
        ) {
          onRestart(
            problem.code === 'INVALID_TWO_FACTOR_COOKIE'
              ? 'Your sign-in took too long. Please enter your email and password again.'
              : authErrorMessage(problem, AUTH_MESSAGES.twoFactorCodeInvalid),
          );
          return;
        }
        setError(authErrorMessage(problem, AUTH_MESSAGES.twoFactorCodeInvalid));
        setIsBusy(false);
        return;
      }
      await onDone();
    } catch {
      setError(AUTH_MESSAGES.loginUnexpected);
      setIsBusy(false);
    }
  }

  return (
    <AuthShell
      title="Two-factor authentication"
      subtitle={
        isBackupCode
          ? 'Enter one of the backup codes you saved when you turned on two-factor authentication.'
          : 'Enter the 6-digit code from your authenticator app.'
      }
    >
      <form noValidate onSubmit={onSubmit} className="space-y-4" aria-label="Two-factor code">
        <Field id="two-factor-code" label={isBackupCode ? 'Backup code' : 'Authentication code'}>
          <Input
            id="two-factor-code"
            autoComplete="one-time-code"
            inputMode={isBackupCode ? 'text' : 'numeric'}
            autoFocus
            {...register('code')}
          />
        </Field>
        {error ? <FormAlert>{error}</FormAlert> : null}
        <Button type="submit" size="lg" className="w-full" disabled={isBusy}>
          {isBusy ? 'Verifying...' : 'Verify'}
        </Button>
        <button
          type="button"
          className="w-full text-center text-sm text-brand-300 underline underline-offset-2 hover:text-brand-200"
          onClick={() => {
            setIsBackupCode((value) => !value);
            reset({ code: '' });
            setError(null);
          }}
        >
          {isBackupCode ? 'Use a code from the authenticator app' : 'Use a backup code instead'}
        </button>
      </form>
    </AuthShell>
  );
}
