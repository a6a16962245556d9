/**
 * /signup (spec 01 §2, §4, §5, §8): plan picker from ?plan=, the five fields, the live password
 * checklist, and the shared schema both here and on the server. Success asks for email verification.
 * From a split invitation (?invitation=) the person is a payee (record 175), from a team invitation (?team=)
 * a team member (record 230): no plan or price is shown, and the verification link returns to the invitation.
 */
import { PLAN_DETAILS, PLANS, type Plan } from '@tunedrop/shared';
import type { SignupInput } from '@tunedrop/shared/schemas/auth';
import {
  AUTH_MESSAGES,
  confirmPasswordError,
  emailError,
  isInvitationToken,
  parsePlanParam,
  passwordError,
} from '@tunedrop/shared/schemas/auth-rules';
import { MailCheck } from 'lucide-react';
import { useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../components/ui/cn';
import { Field, Input } from '../../../components/ui/input';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api';
import { usePlanDetails } from '../../../lib/site-brand';
import { useIsHydrated } from '../../../lib/use-is-hydrated';
import { lazyZodResolver, useLazyZodForm } from '../../../lib/use-lazy-zod-form';
import { usePageTitle } from '../../../lib/use-page-title';
import { useViewer } from '../../../lib/viewer';
import { signUp } from '../api/account';
import { AuthShell, FormAlert, LegalLinks } from '../components/auth-shell';
import { PasswordChecklist } from '../components/password-checklist';

type FieldName = keyof SignupInput;
/** The shared schema loads when the form is first focused or submitted (record 209). */
const signupForm = lazyZodResolver(() =>
  import('@tunedrop/shared/schemas/auth').then((module) => module.signupSchema),
);
const FIELD_NAMES: FieldName[] = ['email', 'fullName', 'artistName', 'password', 'confirmPassword', 'plan'];

export default function SignupPage() {
  const planDetails = usePlanDetails();
  const isHydrated = useIsHydrated();
  usePageTitle('Create your account');
  const [searchParams] = useSearchParams();
  const { data: viewer } = useViewer();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);

  // Signing up from a royalty-split invitation: the verification link brings the person back to it.
  const invitationParam = searchParams.get('invitation');
  const invitationFromParams = isInvitationToken(invitationParam) ? invitationParam : undefined;
  const teamParam = searchParams.get('team');
  const teamInvitation = isInvitationToken(teamParam) ? teamParam : undefined;
  const isPlanless = Boolean(invitationFromParams || teamInvitation);
  const form = useLazyZodForm(signupForm, {
    defaultValues: {
      email: '',
      fullName: '',
      artistName: '',
      password: '',
      confirmPassword: '',
      plan: parsePlanParam(searchParams.get('plan')) ?? 'basic',
      invitation: invitationFromParams,
      teamInvitation,
    },
  });
  const { register, handleSubmit, watch, formState, setError } = form;
  const [email, fullName, artistName, password, confirmPassword, plan] = watch([
    'email',
    'fullName',
    'artistName',
    'password',
    'confirmPassword',
    'plan',
  ]);
  const { dirtyFields, touchedFields, errors, isSubmitting } = formState;

  // While the viewer is still loading the form shows (it is also the prerendered page, record 128).
  if (viewer) return <Navigate to={paths.dashboard} replace />;

  // A field's spec message shows once the user has left it (blur) or typed in it, and for every field
  // after a submit attempt (the resolver's errors); it then re-runs live as email or password change.
  const isVisited = (name: FieldName) => Boolean(touchedFields[name] || dirtyFields[name]);
  const areNamesBlank =
    (isVisited('fullName') && fullName.trim() === '') ||
    (isVisited('artistName') && artistName.trim() === '');
  const shown = {
    // §5: blank names show 'Please fill in all required fields' on the email field, after its own rules.
    email:
      errors.email?.message ??
      (isVisited('email') ? emailError(email) : null) ??
      (areNamesBlank ? AUTH_MESSAGES.namesRequired : null),
    password: errors.password?.message ?? (isVisited('password') ? passwordError(password, email) : null),
    confirmPassword:
      errors.confirmPassword?.message ??
      (isVisited('confirmPassword') ? confirmPasswordError(password, confirmPassword) : null),
  };
  const isNamesMessageShown = shown.email === AUTH_MESSAGES.namesRequired;

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
      subtitle={
        teamInvitation
          ? 'Join the team you were invited to.'
          : invitationFromParams
            ? 'Receive your royalty shares and withdraw your balance.'
            : 'Choose your plan and start releasing your music.'
      }
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
      <form
        method="post"
        noValidate
        onSubmit={onSubmit}
        onFocusCapture={signupForm.prefetch}
        className="space-y-4"
        aria-label="Create your account"
      >
        {teamInvitation ? (
          <p className="rounded-xl border border-brand-500/40 bg-brand-600/10 p-3 text-sm text-zinc-200">
            You are creating an account to join a team. Joining needs no plan: once you confirm your email you
            come straight back to the invitation.
          </p>
        ) : invitationFromParams ? (
          <p className="rounded-xl border border-brand-500/40 bg-brand-600/10 p-3 text-sm text-zinc-200">
            You are creating an account to accept a royalty split. Receiving your share needs no subscription:
            once you confirm your email you come straight back to the invitation.
          </p>
        ) : null}
        {isPlanless ? null : (
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
                  <span className="text-zinc-400">{planDetails[option].priceLabel}/month</span>
                </label>
              ))}
            </div>
          </fieldset>
        )}

        <Field id="signup-email" label="Email" error={shown.email ?? undefined}>
          <Input
            id="signup-email"
            type="email"
            autoComplete="email"
            aria-invalid={Boolean(shown.email)}
            aria-describedby={shown.email ? 'signup-email-error' : undefined}
            {...register('email', { deps: ['password'] })}
          />
        </Field>
        <Field id="signup-full-name" label="Full name">
          <Input
            id="signup-full-name"
            autoComplete="name"
            aria-invalid={Boolean(errors.fullName) || (isNamesMessageShown && fullName.trim() === '')}
            aria-describedby={isNamesMessageShown ? 'signup-email-error' : undefined}
            {...register('fullName', { deps: ['email'] })}
          />
        </Field>
        <Field id="signup-artist-name" label="Artist name">
          <Input
            id="signup-artist-name"
            aria-invalid={Boolean(errors.artistName) || (isNamesMessageShown && artistName.trim() === '')}
            aria-describedby={isNamesMessageShown ? 'signup-email-error' : undefined}
            {...register('artistName', { deps: ['email'] })}
          />
        </Field>
        <Field id="signup-password" label="Password" error={shown.password ?? undefined}>
          <Input
            id="signup-password"
            type="password"
            autoComplete="new-password"
            aria-invalid={Boolean(shown.password)}
            aria-describedby={cn('signup-password-checklist', shown.password && 'signup-password-error')}
            {...register('password', { deps: ['confirmPassword'] })}
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
        {/* Never silently disabled: a submit with a failing rule shows every field's message and
            moves focus to the first one; nothing is sent until all checks pass (§5). */}
        <Button type="submit" className="w-full" size="lg" disabled={isSubmitting || !isHydrated}>
          {isSubmitting ? 'Creating account...' : 'Create account'}
        </Button>
        <LegalLinks />
      </form>
    </AuthShell>
  );
}
