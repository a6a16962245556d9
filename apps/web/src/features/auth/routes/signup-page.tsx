/**
 * /signup (spec 01 §2, §4, §5, §8): plan picker from ?plan=, the five fields, the live password
 * checklist, and the shared schema both here and on the server. Success asks for email verification.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { PLAN_DETAILS, PLANS, type Plan } from '@tunedrop/shared';
import {
  AUTH_MESSAGES,
  confirmPasswordError,
  emailError,
  parsePlanParam,
  passwordError,
  type SignupInput,
  signupSchema,
} from '@tunedrop/shared/schemas/auth';
import { MailCheck } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, Navigate, useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { PageLoader } from '../../../components/ui/card';
import { cn } from '../../../components/ui/cn';
import { Field, Input } from '../../../components/ui/input';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api';
import { usePageTitle } from '../../../lib/use-page-title';
import { useViewer } from '../../../lib/viewer';
import { signUp } from '../api/account';
import { AuthShell, FormAlert, LegalLinks } from '../components/auth-shell';
import { PasswordChecklist } from '../components/password-checklist';

type FieldName = keyof SignupInput;
const FIELD_NAMES: FieldName[] = ['email', 'fullName', 'artistName', 'password', 'confirmPassword', 'plan'];

export default function SignupPage() {
  usePageTitle('Create your account');
  const [searchParams] = useSearchParams();
  const { data: viewer, isPending } = useViewer();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);

  const form = useForm<SignupInput>({
    resolver: zodResolver(signupSchema),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    defaultValues: {
      email: '',
      fullName: '',
      artistName: '',
      password: '',
      confirmPassword: '',
      plan: parsePlanParam(searchParams.get('plan')) ?? 'basic',
    },
  });
  const { register, handleSubmit, watch, formState, setError } = form;
  const [email, password, confirmPassword, plan] = watch(['email', 'password', 'confirmPassword', 'plan']);
  const { dirtyFields, errors, isSubmitting, isSubmitted } = formState;

  if (isPending) return <PageLoader />;
  if (viewer) return <Navigate to={paths.dashboard} replace />;

  // Email and password checks run live while typing; every check runs again on submit (names too).
  const liveEmailError = emailError(email);
  const livePasswordError = passwordError(password, email);
  const liveConfirmError = confirmPasswordError(password, confirmPassword);
  const shown = {
    email: errors.email?.message ?? (dirtyFields.email ? liveEmailError : null),
    password: errors.password?.message ?? (dirtyFields.password ? livePasswordError : null),
    confirmPassword:
      errors.confirmPassword?.message ?? (dirtyFields.confirmPassword ? liveConfirmError : null),
  };
  const isBlocked = Boolean(liveEmailError || livePasswordError || liveConfirmError) || isSubmitting;

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const result = await signUp(values);
      setSentTo(result.email);
    } catch (error) {
      if (!(error instanceof ApiError)) {
        setFormError(AUTH_MESSAGES.signupUnexpected);
        return;
      }
      const fields = error.fields ?? {};
      const known = FIELD_NAMES.filter((name) => fields[name]);
      if (known.length > 0) {
        for (const name of known) setError(name, { message: fields[name] });
        return;
      }
      setError('password', { message: error.message });
    }
  });

  if (sentTo) {
    return (
      <AuthShell title="Verify your email">
        <div className="space-y-4 text-center">
          <MailCheck aria-hidden className="mx-auto size-12 text-brand-400" />
          <p className="text-zinc-200" role="status">
            {AUTH_MESSAGES.verifyEmailSent}
          </p>
          <p className="text-sm text-zinc-400">
            We sent the link to <span className="font-medium text-zinc-200">{sentTo}</span>.
          </p>
          <p className="text-sm text-zinc-400">
            No email? Check your spam folder, or resend it from the{' '}
            <Link
              to={paths.login}
              className="text-brand-300 underline underline-offset-2 hover:text-brand-200"
            >
              sign-in page
            </Link>
            .
          </p>
        </div>
      </AuthShell>
    );
  }

  return (
    <AuthShell
      title="Create your account"
      subtitle="Choose your plan and start releasing your music."
      footer={
        <>
          Already have an account?{' '}
          <Link
            to={paths.login}
            className="font-medium text-brand-300 underline underline-offset-2 hover:text-brand-200"
          >
            Sign in
          </Link>
        </>
      }
    >
      <form noValidate onSubmit={onSubmit} className="space-y-4" aria-label="Create your account">
        <fieldset>
          <legend className="mb-2 text-sm font-medium text-zinc-200">Plan</legend>
          <div className="grid grid-cols-2 gap-3">
            {PLANS.map((option: Plan) => (
              <label
                key={option}
                className={cn(
                  'cursor-pointer rounded-xl border p-3 text-sm transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-400',
                  plan === option
                    ? 'border-brand-500 bg-brand-600/15 text-white'
                    : 'border-ink-700 text-zinc-300 hover:border-ink-700/60',
                )}
              >
                <input type="radio" value={option} className="sr-only" {...register('plan')} />
                <span className="block font-semibold">{PLAN_DETAILS[option].name}</span>
                <span className="text-zinc-400">{PLAN_DETAILS[option].priceLabel}/month</span>
              </label>
            ))}
          </div>
        </fieldset>

        <Field id="signup-email" label="Email" error={shown.email ?? undefined}>
          <Input
            id="signup-email"
            type="email"
            autoComplete="email"
            aria-invalid={Boolean(shown.email)}
            aria-describedby={shown.email ? 'signup-email-error' : undefined}
            {...register('email')}
          />
        </Field>
        <Field id="signup-full-name" label="Full name">
          <Input
            id="signup-full-name"
            autoComplete="name"
            aria-invalid={Boolean(errors.fullName)}
            {...register('fullName')}
          />
        </Field>
        <Field id="signup-artist-name" label="Artist name">
          <Input
            id="signup-artist-name"
            aria-invalid={Boolean(errors.artistName)}
            {...register('artistName')}
          />
        </Field>
        <Field id="signup-password" label="Password" error={shown.password ?? undefined}>
          <Input
            id="signup-password"
            type="password"
            autoComplete="new-password"
            aria-invalid={Boolean(shown.password)}
            aria-describedby={cn('signup-password-checklist', shown.password && 'signup-password-error')}
            {...register('password')}
          />
          <PasswordChecklist id="signup-password-checklist" password={password} email={email} />
        </Field>
        <Field
          id="signup-confirm-password"
          label="Confirm password"
          error={shown.confirmPassword ?? undefined}
        >
          <Input
            id="signup-confirm-password"
            type="password"
            autoComplete="new-password"
            aria-invalid={Boolean(shown.confirmPassword)}
            aria-describedby={shown.confirmPassword ? 'signup-confirm-password-error' : undefined}
            {...register('confirmPassword')}
          />
        </Field>

        {formError ? <FormAlert>{formError}</FormAlert> : null}
        <Button type="submit" className="w-full" size="lg" disabled={isBlocked}>
          {isSubmitting ? 'Creating account...' : 'Create account'}
        </Button>
        {isBlocked && !isSubmitting && !isSubmitted ? (
          <p className="text-center text-xs text-zinc-400">Complete every requirement to continue.</p>
        ) : null}
        <LegalLinks />
      </form>
    </AuthShell>
  );
}
