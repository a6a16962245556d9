/**
 * /reset-password?token=…: the new password obeys the sign-up rules (the server adds the one about
 * the address); afterwards every old session has ended and the user signs in again.
 */
import { confirmPasswordError, passwordError, resetPasswordSchema } from '@tunedrop/shared/schemas/auth';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button, buttonClass } from '../../../components/ui/button';
import { cn } from '../../../components/ui/cn';
import { Field, Input } from '../../../components/ui/input';
import { paths } from '../../../config/paths';
import { authClient } from '../../../lib/auth-client';
import { usePageTitle } from '../../../lib/use-page-title';
import { useZodForm } from '../../../lib/use-zod-form';
import { AuthShell, FormAlert } from '../components/auth-shell';
import { PasswordChecklist } from '../components/password-checklist';
import { type AuthClientError, authErrorMessage } from '../lib/auth-errors';

const INVALID_LINK = 'This reset link is invalid or has expired. Please request a new one.';

export default function ResetPasswordPage() {
  usePageTitle('Reset password');
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  const isLinkBroken = !token || Boolean(searchParams.get('error'));
  const [isDone, setIsDone] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const { register, handleSubmit, watch, formState } = useZodForm(resetPasswordSchema, {
    defaultValues: { password: '', confirmPassword: '' },
  });
  const [password, confirmPassword] = watch(['password', 'confirmPassword']);
  const { dirtyFields, errors, isSubmitting } = formState;
  const shownPassword = errors.password?.message ?? (dirtyFields.password ? passwordError(password) : null);
  const shownConfirm =
    errors.confirmPassword?.message ??
    (dirtyFields.confirmPassword ? confirmPasswordError(password, confirmPassword) : null);
  const isBlocked = Boolean(passwordError(password) || confirmPasswordError(password, confirmPassword));

  const onSubmit = handleSubmit(async (values) => {
    setError(null);
    try {
      const { error: failure } = await authClient.resetPassword({
        newPassword: values.password,
        token: token ?? '',
      });
      if (!failure) {
        setIsDone(true);
        return;
      }
      const problem = failure as AuthClientError;
      setError(
        problem.code === 'INVALID_TOKEN'
          ? INVALID_LINK
          : authErrorMessage(problem, 'Failed to reset password.'),
      );
    } catch {
      setError('Failed to reset password.');
    }
  });

  return (
    <AuthShell
      title="Reset password"
      subtitle={isDone ? undefined : 'Choose a new password for your account.'}
      footer={
        <Link
          to={paths.login}
          className="font-medium text-brand-300 underline underline-offset-2 hover:text-brand-200"
        >
          Back to sign in
        </Link>
      }
    >
      {isLinkBroken ? (
        <div className="space-y-4">
          <FormAlert>{INVALID_LINK}</FormAlert>
          <Link to={paths.forgotPassword} className={cn(buttonClass('primary', 'lg'), 'w-full')}>
            Request a new link
          </Link>
        </div>
      ) : isDone ? (
        <div className="space-y-4">
          <FormAlert tone="success">
            Your password has been changed. For your security, every device was signed out; sign in with your
            new password.
          </FormAlert>
          <Link to={paths.login} className={cn(buttonClass('primary', 'lg'), 'w-full')}>
            Sign in
          </Link>
        </div>
      ) : (
        <form noValidate onSubmit={onSubmit} className="space-y-4" aria-label="Reset password">
          <Field id="reset-password" label="New password" error={shownPassword ?? undefined}>
            <Input
              id="reset-password"
              type="password"
              autoComplete="new-password"
              aria-invalid={Boolean(shownPassword)}
              aria-describedby={cn('reset-password-checklist', shownPassword && 'reset-password-error')}
              {...register('password')}
            />
            <PasswordChecklist id="reset-password-checklist" password={password} />
          </Field>
          <Field id="reset-confirm-password" label="Confirm new password" error={shownConfirm ?? undefined}>
            <Input
              id="reset-confirm-password"
              type="password"
              autoComplete="new-password"
              aria-invalid={Boolean(shownConfirm)}
              aria-describedby={shownConfirm ? 'reset-confirm-password-error' : undefined}
              {...register('confirmPassword')}
            />
          </Field>
          {error ? <FormAlert>{error}</FormAlert> : null}
          <Button type="submit" size="lg" className="w-full" disabled={isBlocked || isSubmitting}>
            {isSubmitting ? 'Saving...' : 'Set new password'}
          </Button>
        </form>
      )}
    </AuthShell>
  );
}
